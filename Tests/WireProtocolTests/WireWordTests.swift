import Foundation
import WireProtocol
import XCTest

/// Modes, paces, presets, formats and access levels are read once, when the params are decoded:
/// every word goes out and comes back as itself, and a word outside the set is `invalid_params`
/// naming the param and the words it takes.
final class WireWordTests: XCTestCase {
    func request(method: String, params: String) throws -> IncomingRequest {
        let line = #"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":\#(params)}"#
        guard case .single(let parsed) = WireCodec.requests(from: Data(line.utf8)) else { throw WireError(.invalidRequest, "a batch") }
        return try parsed.get()
    }

    func assertRoundTrips<Word: WireWord>(_ type: Word.Type, _ expected: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(Word.allCases.map(\.rawValue), expected, file: file, line: line)
        for word in Word.allCases {
            let encoded = try WireCodec.encoder.encode([word])
            XCTAssertEqual(String(decoding: encoded, as: UTF8.self), #"["\#(word.rawValue)"]"#, file: file, line: line)
            XCTAssertEqual(try WireCodec.decoder.decode([Word].self, from: encoded), [word], file: file, line: line)
        }
    }

    func testEveryWordRoundTripsAsItself() throws {
        try assertRoundTrips(WireMode.self, ["walk", "transit", "car", "bike"])
        try assertRoundTrips(WirePace.self, ["slow", "normal", "fast"])
        try assertRoundTrips(WirePaceChange.self, ["slow", "normal", "fast", "next"])
        try assertRoundTrips(WirePreset.self, ["walk", "transit", "car", "bike", "fastest"])
        try assertRoundTrips(WireExportFormat.self, ["geojson", "gpx", "ics"])
        try assertRoundTrips(WirePictureFormat.self, ["png", "svg"])
        try assertRoundTrips(AccessLevel.self, ["any", "wheelchair", "wheelchair_strict"])
        XCTAssertEqual(WirePaceChange.next.pace, nil)
        XCTAssertEqual(WirePaceChange.fast.pace, .fast)
    }

    func testParamsCarryTheirWordsTyped() throws {
        let new = try request(method: "plan.new", params: #"{"from":"a","to":"b","mode":"bike","pace":"slow"}"#).params(Params.PlanNew.self)
        XCTAssertEqual(new.mode, .bike)
        XCTAssertEqual(new.pace, .slow)
        let compare = try request(method: "compare", params: #"{"from":"a","to":"b","modes":["car","walk"],"map":{"format":"svg"}}"#)
            .params(Params.Compare.self)
        XCTAssertEqual(compare.modes, [.car, .walk])
        XCTAssertEqual(compare.map?.format, .svg)
        XCTAssertEqual(try request(method: "plan.pace", params: #"{"id":1,"pace":"next"}"#).params(Params.PlanPace.self).pace, .next)
        XCTAssertEqual(try request(method: "plan.export", params: #"{"id":1,"format":"gpx"}"#).params(Params.PlanExport.self).format, .gpx)
        XCTAssertEqual(try request(method: "plan.map", params: #"{"id":1,"format":"png"}"#).params(Params.PlanMap.self).picture.format, .png)
    }

    func testAWordOutsideTheSetIsInvalidParamsNamingTheParamAndTheWords() throws {
        let cases: [(method: String, params: String, decode: (IncomingRequest) throws -> Any, message: String)] = [
            ("plan.mode", #"{"id":1,"segment":1,"mode":"boat"}"#, { try $0.params(Params.PlanMode.self) },
             #"param "mode": "boat" must be walk, transit, car or bike"#),
            ("compare", #"{"from":"a","to":"b","modes":["walk","boat"]}"#, { try $0.params(Params.Compare.self) },
             #"param "modes.[1]": "boat" must be walk, transit, car or bike"#),
            ("compare", #"{"from":"a","to":"b","pace":"run"}"#, { try $0.params(Params.Compare.self) },
             #"param "pace": "run" must be slow, normal or fast"#),
            ("plan.pace", #"{"id":1,"pace":"run"}"#, { try $0.params(Params.PlanPace.self) },
             #"param "pace": "run" must be slow, normal, fast or next"#),
            ("plan.preset", #"{"id":1,"preset":"boat"}"#, { try $0.params(Params.PlanPreset.self) },
             #"param "preset": "boat" must be walk, transit, car, bike or fastest"#),
            ("plan.export", #"{"id":1,"format":"kml"}"#, { try $0.params(Params.PlanExport.self) },
             #"param "format": "kml" must be geojson, gpx or ics"#),
            ("plan.map", #"{"id":1,"format":"jpeg"}"#, { try $0.params(Params.PlanMap.self) },
             #"param "format": "jpeg" must be png or svg"#),
            ("history.routes", #"{"mode":"boat"}"#, { try $0.params(Params.HistoryList.self) },
             #"param "mode": "boat" must be walk, transit, car or bike"#),
            ("plan.access", #"{"id":1,"access":"stairs"}"#, { try $0.params(Params.PlanAccess.self) },
             #"param "access": "stairs" must be any, wheelchair or wheelchair_strict"#),
        ]
        for (method, params, decode, message) in cases {
            XCTAssertThrowsError(try decode(try request(method: method, params: params)), method) { error in
                XCTAssertEqual((error as? WireError)?.code, "invalid_params", "\(method): \(error)")
                XCTAssertEqual((error as? WireError)?.message, message, method)
            }
        }
    }

    func testAnEditInAListNamesItsBadWord() {
        let text = #"{"id": 2, "edits": [{"method": "plan.swap"}, {"method": "plan.preset", "params": {"preset": "boat"}}]}"#
        XCTAssertThrowsError(try WireCodec.decoder.decode(Params.PlanEdits.self, from: Data(text.utf8))) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("edit 2 (plan.preset)") && message.contains(#""boat" must be walk, transit, car, bike or fastest"#), message)
        }
    }
}
