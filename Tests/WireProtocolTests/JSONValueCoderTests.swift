import Foundation
import WireProtocol
import XCTest

/// umctl's own coders (`JSONValueDecoder`, `JSONValueEncoder`) read and write exactly what
/// Foundation's `WireCodec.decoder` and `WireCodec.encoder` do, and a malformed answer is named
/// by its key and its fault.
final class JSONValueCoderTests: XCTestCase {
    /// Decodes `value` both ways: both fail, or both give the same document, which both
    /// encoders then write alike. Returns whether it decoded.
    @discardableResult
    private func assertReadAlike<T: Codable & Equatable>(_ type: T.Type, _ value: JSONValue, _ what: String,
                                                        file: StaticString = #filePath, line: UInt = #line) throws -> Bool {
        let foundation = try? WireCodec.decoder.decode(T.self, from: JSONWriter.data(value))
        let ours = try? JSONValueDecoder.decode(T.self, from: value)
        XCTAssertEqual(ours, foundation, what, file: file, line: line)
        guard let foundation else { return false }
        XCTAssertEqual(try JSONValueEncoder.encode(foundation), try JSONParser.parse(WireCodec.encoder.encode(foundation)),
                       "written again: \(what)", file: file, line: line)
        return true
    }

    /// Each endpoint's result reader, by method.
    private func resultReaders() -> [WireMethod: (JSONValue, String) throws -> Bool] {
        var readers: [WireMethod: (JSONValue, String) throws -> Bool] = [:]
        func add<P, R: Equatable>(_ endpoint: Endpoint<P, R>) {
            readers[endpoint.method] = { [unowned self] value, what in try assertReadAlike(R.self, value, what) }
        }
        add(Endpoints.hello); add(Endpoints.status); add(Endpoints.watch)
        add(Endpoints.regionImport); add(Endpoints.regionList); add(Endpoints.regionSet); add(Endpoints.regionRemove)
        add(Endpoints.regionUpdate); add(Endpoints.search); add(Endpoints.searchComplete); add(Endpoints.where)
        add(Endpoints.placeSave); add(Endpoints.placeList); add(Endpoints.placeRename); add(Endpoints.placeRemove)
        add(Endpoints.placeFence); add(Endpoints.locationSet); add(Endpoints.locationShow); add(Endpoints.compare)
        add(Endpoints.planNew); add(Endpoints.planList); add(Endpoints.planShow); add(Endpoints.planDelete)
        add(Endpoints.planLink); add(Endpoints.planRemind); add(Endpoints.planExport); add(Endpoints.agendaDay)
        add(Endpoints.planMap); add(Endpoints.planEdits); add(Endpoints.historySearches); add(Endpoints.historyRoutes)
        add(Endpoints.historyVisits); add(Endpoints.historyClear); add(Endpoints.historyRerun); add(Endpoints.historyDelete)
        add(Endpoints.planAlternatives); add(Endpoints.planCopy)
        func addEdit<Edit: PlanEditParams>(_ kind: Edit.Type) { add(kind.endpoint) }
        for kind in PlanEdit.kinds { addEdit(kind) }
        return readers
    }

    /// Every complete answer in docs/protocol.md (`--> request` then `<-- answer` with its id),
    /// read as its endpoint's result by both decoders.
    func testEveryResultInTheProtocolDocsReadsAsFoundationReadsIt() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/protocol.md")
        let readers = resultReaders()
        XCTAssertEqual(readers.count, Set(WireMethod.allCases).count, "every method has its reader")
        var requests: [JSONValue: WireMethod] = [:]
        var decoded: Set<WireMethod> = []
        for line in try String(contentsOf: docs, encoding: .utf8).split(separator: "\n") {
            guard let message = try? JSONParser.parse(Data(line.dropFirst(4).utf8)) else { continue }
            if line.hasPrefix("--> "), let id = message["id"], let method = message["method"]?.stringValue.flatMap(WireMethod.init) {
                requests[id] = method
            } else if line.hasPrefix("<-- "), let id = message["id"], let method = requests[id], let result = message["result"] {
                let reader = try XCTUnwrap(readers[method])
                if try reader(result, "\(method.rawValue): \(line)") { decoded.insert(method) }
            }
        }
        // The docs' complete examples: a floor, so that a change in their format cannot pass unnoticed.
        XCTAssertGreaterThanOrEqual(decoded.count, 10, "methods whose documented answer decoded: \(decoded.map(\.rawValue).sorted())")
    }

    /// Writes `value` as the daemon does (Foundation's encoder) and reads it back with ours.
    private func assertRoundTrip<T: Codable & Equatable>(_ value: T, file: StaticString = #filePath, line: UInt = #line) throws {
        let written = try JSONParser.parse(WireCodec.encoder.encode(value))
        XCTAssertEqual(try JSONValueDecoder.decode(T.self, from: written), value, "\(written)", file: file, line: line)
        XCTAssertTrue(try assertReadAlike(T.self, written, "\(written)", file: file, line: line), file: file, line: line)
    }

    /// The result types that neither `DocumentRoundTripTests` nor a complete docs example covers.
    func testEveryOtherResultUmctlReadsRoundTrips() throws {
        let place = PlaceDocument(name: "Home", lat: 61.5, lon: 23.7)
        let leg = LegDocument(durationS: 300, distanceM: 400, departure: "2022-01-12T08:00:00+02:00",
                              arrival: "2022-01-12T08:05:00+02:00", transfers: 0, rides: [])
        try assertRoundTrip(HelloDocument(server: "usefulmapd", version: "0.1.0", protocolVersion: 2, oldestSupportedVersion: 2))
        try assertRoundTrip(WatchEndDocument(stopped: true, events: 3))
        try assertRoundTrip(RemovedDocument(removed: "tampere"))
        try assertRoundTrip(RenamedDocument(renamed: "Home", to: "Koti"))
        try assertRoundTrip(PlaceFenceDocument(name: "Home", geofence: nil))
        try assertRoundTrip(PlaceFenceDocument(name: "Home", geofence: FenceDocument(on: true, radiusM: 80, exitRadiusM: 120, state: "inside")))
        try assertRoundTrip(PlaceListDocument(places: [place, PlaceDocument(name: "Work", lat: 61.4, lon: 23.8, kind: "saved", note: "x")]))
        try assertRoundTrip(PlanListDocument(plans: [PlanSummaryDocument(id: 2, title: nil, from: "A", to: "B", updatedAt: nil,
                                                                          totalDurationS: 60)]))
        try assertRoundTrip(DeletedDocument(deleted: 7))
        try assertRoundTrip(ClearedDocument(cleared: "searches"))
        try assertRoundTrip(HistoryDeletedDocument(deleted: "r1"))
        try assertRoundTrip(VisitHistoryDocument(entries: []))
        try assertRoundTrip(AlternativesDocument(id: 3, segment: 1, mode: .transit, time: nil, timeZone: "Europe/Helsinki",
                                                 options: [leg], day: "2022-01-12"))
        try assertRoundTrip(ExportDocument(id: 3, format: .gpx, mediaType: "application/gpx+xml", content: "<gpx/>"))
        try assertRoundTrip(MapImageDocument(format: .png, mediaType: "image/png", width: 640, height: 480, data: "iVBOR", renderMs: 12.5))
        try assertRoundTrip(PlanReminderDocument(id: 3, on: true, leadS: 300, leadFrom: "departure", notify: false))
        try assertRoundTrip(AgendaDocument(day: nil, plans: []))
        try assertRoundTrip(RegionUpdateDocument(regions: []))
        try assertRoundTrip(RegionListDocument(regions: [RegionDocument(name: "x", hasTransit: false, timeZone: nil, importedAt: nil,
                                                                        bounds: [61.4, 23.5, 61.6, 23.9])]))
    }

    func testPropertyNamesAreSpelledOnTheWireAsFoundationSpellsThem() throws {
        let names = ["uptimeS", "tripID", "fromStopID", "myURLProperty", "URLString", "p50Ms", "headwaysS", "a", "B", "isOpen",
                     "x2y", "already_snake", "aBC", "XYz", "priceNote", "oldestSupportedVersion"]
        let written = try JSONParser.parse(WireCodec.encoder.encode(NamedKeys(names: names)))
        XCTAssertEqual(try JSONValueEncoder.encode(NamedKeys(names: names)), written)
        guard case .object(let members) = written else { return XCTFail("not an object") }
        XCTAssertEqual(members.count, names.count)

        let wireKeys = ["trip_id", "_leading", "trailing_", "__two__under__", "uptime_s", "one", "a_b_c", "HTTP_status", "p50_ms",
                        "is_OPEN", "camelCase", "x__y"]
        let object = JSONValue.object(Dictionary(uniqueKeysWithValues: wireKeys.map { ($0, JSONValue.bool(true)) }))
        let foundation = try WireCodec.decoder.decode(NamedKeys.self, from: JSONWriter.data(object))
        XCTAssertEqual(try JSONValueDecoder.decode(NamedKeys.self, from: object), foundation)
        XCTAssertEqual(foundation.names.count, wireKeys.count)
    }

    /// ASCII keys take a byte-by-byte path and others the general one: both spell as Foundation does.
    func testKeysWithAndWithoutASCIIAreSpelledAsFoundationSpellsThem() throws {
        let names = ["éTapeID", "straßeName", "ÄbC", "x", "ABC", "a1B", "_", "__x", "aB_c", "HTTP2Server", "a_B", "Ω"]
        XCTAssertEqual(try JSONValueEncoder.encode(NamedKeys(names: names)),
                       try JSONParser.parse(WireCodec.encoder.encode(NamedKeys(names: names))))
        let wireKeys = ["é_tape_id", "straße_name", "_ä_b_", "ω", "a_1_b", "x", "_", "__", "a__", "A_B_C", "é", "ab_Cd"]
        let object = JSONValue.object(Dictionary(uniqueKeysWithValues: wireKeys.map { ($0, JSONValue.bool(true)) }))
        let foundation = try WireCodec.decoder.decode(NamedKeys.self, from: JSONWriter.data(object))
        XCTAssertEqual(try JSONValueDecoder.decode(NamedKeys.self, from: object), foundation)
        XCTAssertEqual(foundation.names.count, wireKeys.count)
    }

    /// A `[String: V]` is data: its keys are kept as sent, both ways, as Foundation keeps them.
    func testDictionaryKeysAreKeptAsTheyAre() throws {
        let counts = ["unknown_trip": 3, "stopTimes": 1]
        XCTAssertEqual(try JSONValueEncoder.encode(counts), try JSONParser.parse(WireCodec.encoder.encode(counts)))
        let value = JSONValue.object(["unknown_trip": .number(3), "stopTimes": .number(1)])
        XCTAssertEqual(try JSONValueDecoder.decode([String: Int].self, from: value),
                       try WireCodec.decoder.decode([String: Int].self, from: JSONWriter.data(value)))
        XCTAssertEqual(try JSONValueDecoder.decode([String: Int].self, from: value), counts)
    }

    func testARequestIsWrittenAsFoundationWritesIt() throws {
        let params = Params.PlanNew(from: "Home", to: "Work", mode: .transit, at: "08:00")
        XCTAssertEqual(try JSONValue(encoding: params), try JSONParser.parse(WireCodec.encoder.encode(params)))
        let request = WireRequest(id: .number(3), method: "plan.new", params: try JSONValue(encoding: params))
        XCTAssertEqual(try JSONParser.parse(WireCodec.line(for: request).dropLast()), try JSONParser.parse(WireCodec.encoder.encode(request)))
        let notification = WireRequest(id: nil, method: "status")
        XCTAssertEqual(try JSONParser.parse(WireCodec.line(for: notification).dropLast()), .object(["jsonrpc": .string("2.0"), "method": .string("status")]))
    }

    /// umctl sends the hello's params written out (`Params.Hello.jsonValue`), not encoded: they
    /// must be what the encoder, and so the daemon's decoder, makes of them.
    func testTheHellosWrittenOutParamsAreWhatTheEncoderMakesOfThem() throws {
        for hello in [Params.Hello(client: "umctl 0.1.0"), Params.Hello(protocolVersion: 1), Params.Hello(protocolVersion: 7, client: "")] {
            XCTAssertEqual(hello.jsonValue, try JSONValue(encoding: hello), "\(hello)")
            XCTAssertEqual(try hello.jsonValue.decode(as: Params.Hello.self), hello)
        }
        // A field added later and left nil here would pass the loop while `jsonValue` drops it.
        XCTAssertEqual(Mirror(reflecting: Params.Hello()).children.map(\.label), ["protocolVersion", "client"],
                       "a new field of Params.Hello must be written in its jsonValue too")
    }

    /// Params.Empty writes itself as one value, `{}`, for both encoders (and reads back).
    func testEmptyParamsAreWrittenAsAnEmptyObjectByBothEncoders() throws {
        XCTAssertEqual(try JSONValue(encoding: Params.Empty()), .object([:]))
        XCTAssertEqual(try JSONParser.parse(WireCodec.encoder.encode(Params.Empty())), .object([:]))
        XCTAssertEqual(try WireCodec.decoder.decode(Params.Empty.self, from: Data("{}".utf8)), Params.Empty())
    }

    func testANumberJSONCannotHoldIsRefused() {
        XCTAssertThrowsError(try JSONValueEncoder.encode(["lat": Double.nan])) { error in
            guard case EncodingError.invalidValue = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try JSONValueEncoder.encode(Float.infinity))
    }

    // MARK: - Malformed answers

    private let status: JSONValue = {
        let text = #"{"counters":{"connections":1,"plans_recomputed":0,"requests":16,"routing_queries":{"bike":0,"car":2,"total":8,"transit":2,"walk":4},"watchers":0},"data_directory":"/d","database_path":"/d/db","protocol_version":2,"regions":[{"has_transit":true,"name":"tampere"}],"socket_path":"/s","uptime_s":95,"version":"0.1.0"}"#
        return try! JSONParser.parse(Data(text.utf8))
    }()

    private func shapeError(_ value: JSONValue) -> String? {
        do {
            _ = try WireCodec.answer(StatusDocument.self, from: value, method: "status")
            return nil
        } catch WireClientError.invalidResponse(let reason) {
            return reason
        } catch {
            return "\(error)"
        }
    }

    private func replacing(_ path: [String], in value: JSONValue, with member: JSONValue?) -> JSONValue {
        guard case .object(var members) = value, let first = path.first else { return value }
        if path.count == 1 {
            members[first] = member
        } else if let inner = members[first] {
            members[first] = replacing(Array(path.dropFirst()), in: inner, with: member)
        }
        return .object(members)
    }

    func testAMalformedAnswerIsNamedByItsKeyAndItsFault() throws {
        XCTAssertNil(shapeError(status), "the well-formed answer reads")
        XCTAssertEqual(shapeError(replacing(["counters", "requests"], in: status, with: .string("many"))),
                       #"the status answer did not have the expected shape: "counters.requests": expected an integer, found a string"#)
        XCTAssertEqual(shapeError(replacing(["counters", "requests"], in: status, with: .number(1.5))),
                       #"the status answer did not have the expected shape: "counters.requests": expected an integer, found 1.5"#)
        XCTAssertEqual(shapeError(replacing(["uptime_s"], in: status, with: .null)),
                       #"the status answer did not have the expected shape: "uptime_s": expected a number, found null"#)
        XCTAssertEqual(shapeError(replacing(["version"], in: status, with: nil)),
                       #"the status answer did not have the expected shape: "version": missing"#)
        XCTAssertEqual(shapeError(replacing(["regions"], in: status, with: .array([.object(["has_transit": .bool(true)])]))),
                       #"the status answer did not have the expected shape: "regions[0].name": missing"#)
        XCTAssertEqual(shapeError(replacing(["counters"], in: status, with: .array([]))),
                       #"the status answer did not have the expected shape: "counters": expected an object, found an array"#)
        XCTAssertEqual(shapeError(.string("ok")),
                       "the status answer did not have the expected shape: expected an object, found a string")
    }

    func testAnAnswerLineThatIsNotJSONIsNamed() {
        XCTAssertThrowsError(try WireCodec.answer(StatusDocument.self, fromLine: Data("{\"id\":1,".utf8), method: "status")) { error in
            guard case WireClientError.invalidResponse(let reason) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.hasPrefix("the status answer is not JSON: "), reason)
        }
    }

    /// Reads `value` with each decoder, asserting what each one gives: `expected`, or a refusal
    /// when it is nil (so that two decoders failing alike cannot pass for reading alike).
    private func assertEachReads<T: Decodable & Equatable>(_ value: JSONValue, as expected: T?, _ what: String,
                                                           file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(try? WireCodec.decoder.decode(T.self, from: JSONWriter.data(value)), expected, "Foundation: \(what)",
                       file: file, line: line)
        XCTAssertEqual(try? JSONValueDecoder.decode(T.self, from: value), expected, "JSONValueDecoder: \(what)", file: file, line: line)
    }

    /// Optional members read as Foundation reads them: absent or null is nil, a value of another kind is refused.
    func testOptionalsAndNullsReadAsFoundationReadsThem() throws {
        let region: JSONValue = .object(["name": .string("x"), "has_transit": .bool(false), "time_zone": .null])
        assertEachReads(region, as: RegionDocument(name: "x", hasTransit: false, timeZone: nil, importedAt: nil, bounds: nil),
                        "nulls and absent keys")
        XCTAssertTrue(try assertReadAlike(RegionDocument.self, region, "nulls and absent keys"))
        assertEachReads(replacing(["time_zone"], in: region, with: .number(3)), as: RegionDocument?.none, "a number for a string")
        assertEachReads(.array([.number(600), .null]), as: [600, nil] as [Int?], "null in an array")
        XCTAssertTrue(try assertReadAlike([Int?].self, .array([.number(600), .null]), "null in an array"))
        assertEachReads(.string("a"), as: RequestID.string("a"), "an id as a string")
        assertEachReads(.number(7), as: RequestID.number(7), "an id as a number")
        let error: JSONValue = .object(["code": .number(-32010), "message": .string("no plan"),
                                        "data": .object(["code": .string("not_found"), "plan_id": .number(2)])])
        assertEachReads(error, as: WireError(code: "not_found", message: "no plan", data: .object(["plan_id": .number(2)])),
                        "an error with its detail")
        XCTAssertTrue(try assertReadAlike(WireError.self, error, "an error with its detail"))
    }
}

/// An object whose keys are any names given: encodes each name with the value true, decodes
/// the names it finds.
private struct NamedKeys: Codable, Equatable {
    var names: [String]

    init(names: [String]) { self.names = names }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for name in names { try container.encode(true, forKey: Key(stringValue: name)) }
    }

    init(from decoder: Decoder) throws {
        names = try decoder.container(keyedBy: Key.self).allKeys.map(\.stringValue).sorted()
    }
}
