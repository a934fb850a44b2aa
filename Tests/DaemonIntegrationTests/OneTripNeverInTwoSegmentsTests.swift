import Foundation
import WireProtocol
import XCTest

/// Issue 39 item 3, trial 59b F2b: `plan refine` of an arrive-by plan split the ride from
/// Keskustori L at Hatanpään vt 31 (judged leaving at its time, a real change), and the recompute,
/// timed back from the end, took bus 31 into the stop and the same bus 31 out of it: the
/// traveller told to alight at 08:41 and board the vehicle they sat in, paid twice. Whatever the
/// edit, two rides on one vehicle trip across a stop the planner inferred are one ride, the stop
/// left out.
final class OneTripNeverInTwoSegmentsTests: SharedTampereDaemonTestCase {
    override class func makeSharedDaemon() throws -> DaemonHarness {
        let harness = try DaemonHarness(regionsFrom: try TampereRegion.dataDirectory())
        try harness.start(extraArguments: ["--clock-start", "2022-01-12T07:30:00+02:00"])
        return harness
    }

    func testRefiningAnArriveByPlanNeverAlightsToBoardTheSameBusAgain() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "61.49288,23.70687", "Keskustori", "61.46340,23.75907",
                                        "--arrive-by", "2022-01-12T08:59", "--mode", "transit"])
        let id = try id(created)
        XCTAssertEqual(tripsInTwoSegments(created), [:], "a new plan: \(tripsBySegment(created))")
        let refined = try harness.json(["plan", "refine", id])
        XCTAssertEqual(tripsInTwoSegments(refined), [:], "one trip in two segments: \(tripsBySegment(refined)) \(refined)")
        // Still a plan that gets there by the time asked.
        let arrives = try XCTUnwrap(date(nodes(refined).last?["time"]))
        XCTAssertLessThanOrEqual(arrives, try XCTUnwrap(WireTime.date(from: "2022-01-12T08:59:00+02:00")), "\(refined)")
    }
}
