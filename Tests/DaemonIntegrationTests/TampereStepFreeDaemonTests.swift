import Foundation
import WireProtocol
import XCTest

/// Step-free trips on Tampere, whose stops say no `wheelchair_boarding`: `--wheelchair` allows
/// them and marks every transit leg "accessibility unknown"; `--wheelchair=strict` finds no transit.
final class TampereStepFreeDaemonTests: SharedTampereDaemonTestCase {
    private func option(_ document: JSONValue, _ mode: String) throws -> JSONValue {
        try XCTUnwrap(document["options"]?.arrayValue?.first { $0["mode"]?.stringValue == mode }, "\(document)")
    }

    func testCompareWithTheWheelchairMarksTransitUnknownAndStrictFindsNone() throws {
        let query = ["compare", Tampere.keskustori, Tampere.hervanta, "--at", Tampere.morning]
        let plain = try harness.json(query)
        XCTAssertEqual(try option(plain, "walk")["accessibility"]?.stringValue, "unknown", "a walk for walkers may take steps")
        XCTAssertNil(try option(plain, "car")["accessibility"], "car legs say nothing")
        let wheelchair = try harness.json(query + ["--wheelchair"])
        XCTAssertEqual(try option(wheelchair, "transit")["accessibility"]?.stringValue, "unknown", "\(wheelchair)")
        XCTAssertEqual(try option(wheelchair, "walk")["accessibility"]?.stringValue, "step_free")
        XCTAssertTrue(try harness.umctl(query + ["--wheelchair"]).stdout.contains("note: transit accessibility unknown"))
        let plainTable = try harness.umctl(query).stdout
        XCTAssertFalse(plainTable.contains("accessibility"), "an unknown accessibility is news only to who asked for step-free trips: \(plainTable)")
        let strict = try harness.json(query + ["--wheelchair=strict"])
        XCTAssertEqual(try option(strict, "transit")["error"]?["data"]?["code"]?.stringValue, "no_route", "\(strict)")
        XCTAssertEqual(try option(strict, "walk")["accessibility"]?.stringValue, "step_free")
    }

    func testATransitPlanWithTheWheelchairShowsEachLegsAccessibility() throws {
        let plan = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "transit",
                                     "--at", Tampere.morning, "--wheelchair"])
        XCTAssertEqual(plan["access"]?.stringValue, "wheelchair")
        for segment in plan["segments"]?.arrayValue ?? [] {
            let expected = segment["mode"]?.stringValue == "transit" ? "unknown" : "step_free"
            XCTAssertEqual(segment["leg"]?["accessibility"]?.stringValue, expected, "\(segment)")
        }
        let shown = try harness.umctl(["plan", "show", try id(plan)]).stdout
        XCTAssertTrue(shown.contains("; accessibility unknown"), shown)
        XCTAssertTrue(shown.contains("; step-free"), shown)
    }
}
