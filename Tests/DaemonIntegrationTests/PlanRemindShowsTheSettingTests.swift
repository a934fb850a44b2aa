import Foundation
import WireProtocol
import XCTest

/// Issue 41 item 6: `umctl plan remind ID` without on/off shows the plan's reminder setting and
/// changes nothing.
final class PlanRemindShowsTheSettingTests: SharedDaemonTestCase {
    static let region = SmallRegion(name: "vaasa", latitude: 63.0951, longitude: 21.6165)

    override class func makeSharedDaemon() throws -> DaemonHarness {
        let harness = try super.makeSharedDaemon()
        let result = try harness.umctl(["region", "import", region.name, "--osm", try region.writeOSM(in: harness.directory).path])
        guard result.status == 0 else { throw HarnessError("import: \(result.stderr)") }
        return harness
    }

    func testPlanRemindWithoutAStateShowsTheSettingAndChangesNothing() throws {
        let plan = try harness.json(["plan", "new", Self.region.southWest, Self.region.northEast, "--mode", "walk"])
        let planID = try id(plan)
        let shown = try harness.umctl(["plan", "remind", planID])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("reminder 10 min (the daemon's) before leaving"), shown.stdout)

        XCTAssertEqual(try harness.umctl(["plan", "remind", planID, "on", "--lead", "25m"]).status, 0)
        XCTAssertTrue(try harness.umctl(["plan", "remind", planID]).stdout.contains("reminder 25 min before leaving"))
        XCTAssertEqual(try harness.umctl(["plan", "remind", planID, "off"]).status, 0)
        let off = try harness.umctl(["plan", "remind", planID])
        XCTAssertTrue(off.stdout.contains("reminder off"), off.stdout)
        XCTAssertTrue(try harness.umctl(["plan", "remind", planID]).stdout.contains("reminder off"), "showing changed nothing")

        let missing = try harness.umctl(["plan", "remind", "999"])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.stderr.contains("plan 999"), missing.stderr)
        let leadAlone = try harness.umctl(["plan", "remind", planID, "--lead", "5m"])
        XCTAssertNotEqual(leadAlone.status, 0)
        XCTAssertTrue(leadAlone.stderr.contains("--lead"), leadAlone.stderr)
    }
}
