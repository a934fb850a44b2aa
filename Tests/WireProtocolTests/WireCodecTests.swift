import Foundation
import WireProtocol
import XCTest

final class WireCodecTests: XCTestCase {
    func failure(_ line: String) -> RequestFailure? {
        if case .single(.failure(let failure)) = WireCodec.requests(from: Data(line.utf8)) { return failure }
        return nil
    }

    func request(_ line: String) throws -> IncomingRequest {
        guard case .single(let parsed) = WireCodec.requests(from: Data(line.utf8)) else { throw WireError(.invalidRequest, "a batch") }
        return try parsed.get()
    }

    func testWellFormedRequestIsRead() throws {
        let request = try request(#"{"jsonrpc":"2.0","id":7,"method":"plan.show","params":{"id":3}}"#)
        XCTAssertEqual(request.id, .number(7))
        XCTAssertEqual(request.method, "plan.show")
        XCTAssertEqual(try request.params(Params.PlanID.self).id, 3)
    }

    /// The names a params type reads are learnt once (issue 44, the strict params' cost): what was
    /// learnt from earlier requests never lets an unknown member through, nor refuses an optional
    /// member those requests left out.
    func testUnknownMembersAreRefusedByNameAfterTheTypesNamesWereLearnt() throws {
        let line = #"{"jsonrpc":"2.0","id":1,"method":"plan.pin","params":%@}"#
        for _ in 0..<3 {
            XCTAssertEqual(try request(String(format: line, #"{"id":3,"segment":1,"time":"08:00"}"#)).params(Params.PlanPin.self).segment, 1)
        }
        let guarded = try request(String(format: line, #"{"id":3,"segment":1,"expected_generation":2,"line":"3"}"#)).params(Params.PlanPin.self)
        XCTAssertEqual(guarded.expectedGeneration, 2, "an optional member not sent before is taken")
        XCTAssertEqual(guarded.line, "3")
        for _ in 0..<2 {
            XCTAssertThrowsError(try request(String(format: line, #"{"id":3,"segment":1,"expected_generaton":2,"tiem":"x"}"#))
                .params(Params.PlanPin.self)) { error in
                XCTAssertEqual((error as? WireError)?.code, "invalid_params")
                XCTAssertEqual((error as? WireError)?.message, #"plan.pin does not take params "expected_generaton", "tiem""#)
            }
        }
    }

    func testMalformedJSONIsAParseError() {
        XCTAssertEqual(failure("{not json")?.error.code, "parse_error")
        XCTAssertEqual(failure("{not json")?.error.number, -32700)
    }

    func testBatchGivesEachElementItsOwnOutcome() {
        guard case .batch(let parsed) = WireCodec.requests(from: Data(#"[1,{"jsonrpc":"2.0","id":2,"method":"status"}]"#.utf8)) else {
            return XCTFail("an array is a batch")
        }
        XCTAssertEqual(parsed.count, 2)
        guard case .failure(let first) = parsed[0], case .success(let second) = parsed[1] else { return XCTFail("\(parsed)") }
        XCTAssertEqual(first.error.code, "invalid_request")
        XCTAssertEqual(second.id, .number(2))
    }

    func testEmptyBatchIsOneInvalidRequest() {
        XCTAssertEqual(failure("[]")?.error.code, "invalid_request")
    }

    func testRequestWithoutIDIsANotification() throws {
        let request = try request(#"{"jsonrpc":"2.0","method":"status"}"#)
        XCTAssertTrue(request.isNotification)
        XCTAssertEqual(request.method, "status")
    }

    func testAbsentParamsReadAsAnEmptyObject() throws {
        XCTAssertEqual(try request(#"{"jsonrpc":"2.0","id":1,"method":"plan.list"}"#).params(Params.HistoryList.self).limit, nil)
        XCTAssertThrowsError(try request(#"{"jsonrpc":"2.0","id":1,"method":"plan.show"}"#).params(Params.PlanID.self)) {
            XCTAssertEqual(($0 as? WireError)?.message, "missing param \"id\"")
        }
    }

    func testParamNamesInErrorsAreTheWireNames() throws {
        let line = #"{"jsonrpc":"2.0","id":1,"method":"location.set","params":{"lat":1,"lon":2,"accuracy_m":"far"}}"#
        XCTAssertThrowsError(try request(line).params(Params.LocationSet.self)) {
            XCTAssertEqual(($0 as? WireError)?.message, "param \"accuracy_m\" must be a number")
        }
    }

    func testRequestWithoutMethodKeepsItsIDForTheErrorResponse() {
        let failure = failure(#"{"jsonrpc":"2.0","id":"abc"}"#)
        XCTAssertEqual(failure?.id, .string("abc"))
        XCTAssertEqual(failure?.error.code, "invalid_request")
    }

    func testParamsThatAreAnArrayAreInvalidParams() {
        XCTAssertEqual(failure(#"{"jsonrpc":"2.0","id":1,"method":"status","params":[1]}"#)?.error.code, "invalid_params")
    }

    func testWrongJSONRPCVersionIsInvalid() {
        XCTAssertEqual(failure(#"{"jsonrpc":"1.0","id":1,"method":"status"}"#)?.error.code, "invalid_request")
    }

    func testMissingParamIsNamed() {
        XCTAssertThrowsError(try request(#"{"jsonrpc":"2.0","id":1,"method":"plan.mode","params":{"id":1}}"#).params(Params.PlanMode.self)) { error in
            let wire = error as? WireError
            XCTAssertEqual(wire?.code, "invalid_params")
            XCTAssertTrue(wire?.message.contains("\"segment\"") ?? false, wire?.message ?? "")
        }
    }

    func testIllTypedParamIsNamedWithTheExpectedType() {
        XCTAssertThrowsError(try request(#"{"jsonrpc":"2.0","id":1,"method":"plan.show","params":{"id":"seven"}}"#).params(Params.PlanID.self)) { error in
            let wire = error as? WireError
            XCTAssertEqual(wire?.code, "invalid_params")
            XCTAssertEqual(wire?.message, "param \"id\" must be an integer")
        }
    }

    func testSnakeCaseParamsDecode() throws {
        let line = #"{"jsonrpc":"2.0","id":1,"method":"compare","params":{"from":"a","to":"b","arrive_by":"08:00"}}"#
        XCTAssertEqual(try request(line).params(Params.Compare.self).arriveBy, "08:00")
    }

    func testResponseAlwaysCarriesIDAndResultKeys() throws {
        let line = try WireCodec.line(for: WireResponse(id: nil, error: WireError(.parseError, "bad")))
        let text = String(decoding: line, as: UTF8.self)
        XCTAssertEqual(text, #"{"error":{"code":-32700,"data":{"code":"parse_error"},"message":"bad"},"id":null,"jsonrpc":"2.0"}"# + "\n")
        XCTAssertEqual(WireCodec.errorAnswer(id: nil, error: WireError(.parseError, "bad")) + [0x0A], line,
                       "the daemon's encoder and the value writer agree byte for byte")
        let ok = String(decoding: try WireCodec.line(for: WireResponse(id: .number(2), result: .null)), as: UTF8.self)
        XCTAssertEqual(ok, #"{"id":2,"jsonrpc":"2.0","result":null}"# + "\n")
    }

    func testClientTellsNotificationsFromResponses() throws {
        let note = try WireCodec.incoming(from: Data(#"{"jsonrpc":"2.0","method":"progress","params":{"request_id":1}}"#.utf8))
        guard case .notification(let notification) = note else { return XCTFail("\(note)") }
        XCTAssertEqual(notification.method, "progress")
        let response = try WireCodec.incoming(from: Data(#"{"jsonrpc":"2.0","id":1,"result":{"ok":true}}"#.utf8))
        guard case .response(let value) = response else { return XCTFail("\(response)") }
        XCTAssertEqual(value.result?["ok"], .bool(true))
    }

    func testWholeNumbersAreWrittenWithoutAFraction() throws {
        let text = String(decoding: try WireCodec.encoder.encode(JSONValue.array([.number(7), .number(2.5), .bool(true)])), as: UTF8.self)
        XCTAssertEqual(text, "[7,2.5,true]")
    }

    func testPlanDocumentUsesTheDocumentedKeysAndWritesNullTotals() throws {
        let plan = PlanDocument(
            id: 3, title: nil,
            nodes: [NodeDocument(name: "A", lat: 61.5, lon: 23.7, time: nil, inferred: false, currentLocation: true)],
            segments: [SegmentDocument(mode: .walk, locked: true, leg: nil)],
            totalDurationS: nil, totalDistanceM: 0, pending: [], pace: .normal,
            timePreference: TimePreferenceDocument(kind: "leave_now", time: nil), pinnedSegment: nil,
            generation: 1, timeZone: "Europe/Helsinki")
        let value = try JSONValue(encoding: plan)
        XCTAssertEqual(value["total_duration_s"], .null)
        XCTAssertEqual(value["total_distance_m"], .number(0))
        XCTAssertEqual(value["title"], .null)
        XCTAssertEqual(value["nodes"]?.arrayValue?.first?["current_location"], .bool(true))
        XCTAssertEqual(value["segments"]?.arrayValue?.first?["leg"], .null)
        XCTAssertEqual(value["segments"]?.arrayValue?.first?["locked"], .bool(true))
        XCTAssertEqual(try value.decode(as: PlanDocument.self), plan)
    }

    func testTransitLegWalksAreSnakeCaseAndADocumentWithoutThemStillDecodes() throws {
        let walk = WalkDocument(kind: "access", from: "Home", to: "Keskustori D", start: "2022-01-12T08:00:30+02:00",
                                durationS: 255, distanceM: 260.5)
        let leg = LegDocument(durationS: 1647, distanceM: 9122, departure: "2022-01-12T08:00:30+02:00",
                              arrival: "2022-01-12T08:27:57+02:00", transfers: 0, rides: [], walks: [walk],
                              walkingIsNoSlower: true)
        let value = try JSONValue(encoding: leg)
        XCTAssertEqual(value["walking_is_no_slower"], .bool(true))
        let encodedWalk = value["walks"]?.arrayValue?.first
        XCTAssertEqual(encodedWalk?["kind"], .string("access"))
        XCTAssertEqual(encodedWalk?["duration_s"], .number(255))
        XCTAssertEqual(encodedWalk?["distance_m"], .number(260.5))
        XCTAssertEqual(encodedWalk?["start"], .string("2022-01-12T08:00:30+02:00"))
        XCTAssertEqual(try value.decode(as: LegDocument.self), leg)

        guard case .object(var older) = value else { return XCTFail("a leg is an object: \(value)") }
        older["walks"] = nil
        older["walking_is_no_slower"] = nil
        let decoded = try JSONValue.object(older).decode(as: LegDocument.self)
        XCTAssertEqual(decoded.walks, [])
        XCTAssertFalse(decoded.walkingIsNoSlower)
        XCTAssertEqual(decoded.durationS, 1647)

        let option = CompareOption(mode: .transit, durationS: 600, departure: nil, arrival: nil, distanceM: 300,
                                   transfers: 0, fastest: false, lines: ["3"], error: nil, walkingIsNoSlower: true)
        let optionValue = try JSONValue(encoding: option)
        XCTAssertEqual(optionValue["walking_is_no_slower"], .bool(true))
        XCTAssertEqual(try optionValue.decode(as: CompareOption.self), option)
    }

    func testCompareOptionWithAnErrorStillNamesItsMode() throws {
        let option = CompareOption(mode: .transit, durationS: nil, departure: nil, arrival: nil, distanceM: nil,
                                   transfers: nil, fastest: false, lines: [],
                                   error: WireError(.unsupportedInRegion, "no feed covers this area"))
        let value = try JSONValue(encoding: option)
        XCTAssertEqual(value["mode"], .string("transit"))
        XCTAssertEqual(value["duration_s"], .null)
        XCTAssertEqual(value["error"]?["code"], .number(-32021))
        XCTAssertEqual(value["error"]?["data"]?["code"], .string("unsupported_in_region"))
        XCTAssertEqual(try value.decode(as: CompareOption.self).error?.code, "unsupported_in_region")
    }

    func testStatusCountsRoutingQueriesInTotalAndByMode() throws {
        let counts = RoutingQueryCounts(walk: 2, transit: 1, car: 4)
        let value = try JSONValue(encoding: CountersDocument(requests: 9, routingQueries: counts, plansRecomputed: 1))
        XCTAssertEqual(value["routing_queries"]?["total"], .number(7))
        XCTAssertEqual(value["plans_recomputed"], .number(1))
    }

    func testEveryMethodNameIsUniqueAndDotted() {
        let names = WireMethod.allCases.map(\.rawValue)
        XCTAssertEqual(Set(names).count, names.count)
        XCTAssertTrue(names.allSatisfy { $0.allSatisfy { $0.isLowercase || $0 == "." } })
    }

    func testErrorCodesAreTheSpecificationsAndOursAreInTheServerRange() {
        XCTAssertEqual(WireError(.parseError, "").number, -32700)
        XCTAssertEqual(WireError(.invalidRequest, "").number, -32600)
        XCTAssertEqual(WireError(.methodNotFound, "").number, -32601)
        XCTAssertEqual(WireError(.invalidParams, "").number, -32602)
        XCTAssertEqual(WireError(.internalError, "").number, -32603)
        XCTAssertEqual(WireError(code: "sqlite_busy", message: "").number, -32000, "another layer's word is an application error")
        for (word, number) in WireError.Code.table where !word.hasSuffix("_error") && word != "invalid_request"
            && word != "method_not_found" && word != "invalid_params" {
            XCTAssertTrue((-32099)...(-32000) ~= number, "\(word) is \(number)")
        }
        XCTAssertEqual(Set(WireError.Code.table.map(\.number)).count, WireError.Code.table.count, "one number per word")
    }

    func testErrorWithDetailKeepsTheWordBesideIt() throws {
        let error = WireError(.notFound, "plan 12 does not exist", data: .object(["plan_id": .number(12)]))
        let value = try JSONValue(encoding: error)
        XCTAssertEqual(value, .object(["code": .number(-32010), "message": .string("plan 12 does not exist"),
                                       "data": .object(["code": .string("not_found"), "plan_id": .number(12)])]))
        XCTAssertEqual(try value.decode(as: WireError.self), error)
    }

    func testResultAnswerIsEncodedOnceWithItsEnvelope() throws {
        let answer = try WireCodec.resultAnswer(id: .string("a"), result: DeletedDocument(deleted: 4))
        XCTAssertEqual(String(decoding: answer, as: UTF8.self), #"{"id":"a","jsonrpc":"2.0","result":{"deleted":4}}"#)
        XCTAssertEqual(WireCodec.batchLine([answer, answer]).map { String(decoding: $0, as: UTF8.self) },
                       "[" + String(decoding: answer, as: UTF8.self) + "," + String(decoding: answer, as: UTF8.self) + "]\n")
        XCTAssertNil(WireCodec.batchLine([]), "a batch of notifications gets nothing back")
    }

    func testAVersionOneErrorIsStillReadSoItsMessageReachesThePerson() throws {
        let old = JSONValue.object(["code": .string("unsupported_version"), "message": .string("update umctl")])
        let error = try old.decode(as: WireError.self)
        XCTAssertEqual(error.code, "unsupported_version")
        XCTAssertEqual(error.message, "update umctl")
    }
}
