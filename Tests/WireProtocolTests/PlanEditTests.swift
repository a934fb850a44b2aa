import Foundation
import WireProtocol
import XCTest

/// `plan.edits` params: each edit is its own method's params, the list's `id` fills theirs, and
/// a broken edit is named by its number before anything runs.
final class PlanEditTests: XCTestCase {
    func decode(_ text: String) throws -> Params.PlanEdits {
        try WireCodec.decoder.decode(Params.PlanEdits.self, from: Data(text.utf8))
    }

    func testEditsTakeTheListsPlanWhenTheyDoNotNameOne() throws {
        let edits = try decode("""
            {"id": 4, "dry_run": true, "expected_generation": 7, "edits": [
              {"method": "plan.mode", "params": {"segment": 2, "mode": "car"}},
              {"method": "plan.swap"},
              {"method": "plan.insert", "params": {"after": 1, "place": "Ratina", "id": 4}}]}
            """)
        XCTAssertEqual(edits, Params.PlanEdits(id: 4, edits: [
            PlanEdit(Params.PlanMode(id: 4, segment: 2, mode: .car)),
            PlanEdit(Params.PlanSwap(id: 4)),
            PlanEdit(Params.PlanInsert(id: 4, after: 1, place: "Ratina")),
        ], dryRun: true, expectedGeneration: 7))
        XCTAssertEqual(edits.edits.map(\.method), [Params.PlanMode.method, Params.PlanSwap.method, Params.PlanInsert.method])
    }

    func testAnAccessEditReadsItsLevelAndAnUnknownLevelIsNamed() throws {
        let edits = try decode(#"{"id": 2, "edits": [{"method": "plan.access", "params": {"access": "wheelchair_strict"}}]}"#)
        XCTAssertEqual(edits.edits, [PlanEdit(Params.PlanAccess(id: 2, access: .wheelchairStrict))])
        XCTAssertThrowsError(try decode(#"{"id": 2, "edits": [{"method": "plan.access", "params": {"access": "stairs"}}]}"#)) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("edit 1 (plan.access)") && message.contains("\"stairs\" must be any, wheelchair or wheelchair_strict"), message)
        }
        XCTAssertThrowsError(try WireCodec.decoder.decode(Params.Compare.self, from: Data(#"{"from": "a", "to": "b", "access": "ramp"}"#.utf8))) { error in
            guard case .dataCorrupted(let context)? = error as? DecodingError else { return XCTFail("\(error)") }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["access"])
            XCTAssertTrue(context.debugDescription.contains("\"ramp\" must be any, wheelchair or wheelchair_strict"), context.debugDescription)
        }
    }

    func testAnEditRoundTripsAsItsMethodAndParams() throws {
        let edit = PlanEdit(Params.PlanPin(id: 3, segment: 1, time: "08:15"))
        let encoded = try JSONValue(encoding: edit)
        XCTAssertEqual(encoded["method"], .string("plan.pin"))
        XCTAssertEqual(encoded["params"]?["time"], .string("08:15"))
        XCTAssertEqual(try encoded.decode(as: PlanEdit.self), edit)
    }

    func testABrokenEditIsNamedByItsNumberAndMethod() throws {
        for (text, expected) in [
            (#"{"id": 1, "edits": [{"method": "plan.swap"}, {"method": "plan.mode", "params": {"segment": "two"}}]}"#, "edit 2 (plan.mode)"),
            (#"{"id": 1, "edits": [{"method": "plan.show"}]}"#, "edit 1 (plan.show)"),
            (#"{"id": 1, "edits": [{"params": {}}]}"#, "edit 1 has no method"),
        ] {
            XCTAssertThrowsError(try decode(text), text) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error)")
            }
        }
    }
}
