import Foundation
import WireProtocol
import XCTest

final class WireCodecTests: XCTestCase {
    func failure(_ line: String) -> RequestFailure? {
        if case .failure(let failure) = WireCodec.request(from: Data(line.utf8)) { return failure }
        return nil
    }

    func testWellFormedRequestIsRead() throws {
        let request = try WireCodec.request(from: Data(#"{"jsonrpc":"2.0","id":7,"method":"plan.show","params":{"id":3}}"#.utf8)).get()
        XCTAssertEqual(request.id, .number(7))
        XCTAssertEqual(request.method, "plan.show")
        XCTAssertEqual(request.params?["id"], .number(3))
    }

    func testMalformedJSONIsAParseError() {
        XCTAssertEqual(failure("{not json")?.error.code, "parse_error")
    }

    func testRequestThatIsNotAnObjectIsInvalid() {
        XCTAssertEqual(failure("[1,2]")?.error.code, "invalid_request")
    }

    func testRequestWithoutIDIsInvalidAndSaysSo() {
        let error = failure(#"{"jsonrpc":"2.0","method":"status"}"#)?.error
        XCTAssertEqual(error?.code, "invalid_request")
        XCTAssertTrue(error?.message.contains("id") ?? false)
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
        XCTAssertThrowsError(try WireCodec.params(.object(["id": .number(1)]), as: Params.PlanMode.self)) { error in
            let wire = error as? WireError
            XCTAssertEqual(wire?.code, "invalid_params")
            XCTAssertTrue(wire?.message.contains("\"segment\"") ?? false, wire?.message ?? "")
        }
    }

    func testIllTypedParamIsNamedWithTheExpectedType() {
        let params: JSONValue = .object(["id": .string("seven")])
        XCTAssertThrowsError(try WireCodec.params(params, as: Params.PlanID.self)) { error in
            let wire = error as? WireError
            XCTAssertEqual(wire?.code, "invalid_params")
            XCTAssertEqual(wire?.message, "param \"id\" must be an integer")
        }
    }

    func testSnakeCaseParamsDecode() throws {
        let params: JSONValue = .object(["from": .string("a"), "to": .string("b"), "arrive_by": .string("08:00")])
        XCTAssertEqual(try WireCodec.params(params, as: Params.Compare.self).arriveBy, "08:00")
    }

    func testResponseAlwaysCarriesIDAndResultKeys() throws {
        let line = try WireCodec.line(for: WireResponse(id: nil, error: WireError(.parseError, "bad")))
        let text = String(decoding: line, as: UTF8.self)
        XCTAssertEqual(text, #"{"error":{"code":"parse_error","message":"bad"},"id":null,"jsonrpc":"2.0"}"# + "\n")
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
            segments: [SegmentDocument(mode: "walk", locked: true, leg: nil)],
            totalDurationS: nil, totalDistanceM: 0, pending: [], pace: "normal",
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

        let option = CompareOption(mode: "transit", durationS: 600, departure: nil, arrival: nil, distanceM: 300,
                                   transfers: 0, fastest: false, lines: ["3"], error: nil, walkingIsNoSlower: true)
        let optionValue = try JSONValue(encoding: option)
        XCTAssertEqual(optionValue["walking_is_no_slower"], .bool(true))
        XCTAssertEqual(try optionValue.decode(as: CompareOption.self), option)
    }

    func testCompareOptionWithAnErrorStillNamesItsMode() throws {
        let option = CompareOption(mode: "transit", durationS: nil, departure: nil, arrival: nil, distanceM: nil,
                                   transfers: nil, fastest: false, lines: [],
                                   error: WireError(.unsupportedInRegion, "no feed covers this area"))
        let value = try JSONValue(encoding: option)
        XCTAssertEqual(value["mode"], .string("transit"))
        XCTAssertEqual(value["duration_s"], .null)
        XCTAssertEqual(value["error"]?["code"], .string("unsupported_in_region"))
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
}
