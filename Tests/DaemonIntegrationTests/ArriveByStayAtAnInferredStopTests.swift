import Foundation
import WireProtocol
import XCTest

/// Trial 56 F2: a stay at a stop the planner inferred, in an arrive-by plan, broke the plan
/// where a stay at the user's own place re-timed it: the ride before the stay came back as
/// it was, "late" for the stay, with no total (or its times ran backward). The ride was asked
/// again for the walk from the stop it adopted, by when that walk leaves, as if no stay came
/// between them.
final class ArriveByStayAtAnInferredStopTests: SharedTampereDaemonTestCase {
    /// `plan new Koskikeskus Rautatieasema Keskustori --mode transit --arrive-by 10:06`, then
    /// `plan stay ID 3 30m` at the inferred Keskustori A.
    func testAStayAtAnInferredStopRetimesTheRideBeforeItEarlier() throws {
        try checkStayRetimesTheRidesBeforeIt(["Koskikeskus", "Rautatieasema", "Keskustori"], arrivingBy: "2022-01-12T10:06",
                                             stayAt: "3", seconds: 1800)
    }

    /// `plan new TAYS Pyynikintori Keskustori --mode transit --arrive-by 08:37`, then `plan stay
    /// ID 2 45m` at the inferred stop the first ride alights at: shown 09:10 before bus 2 at 08:30.
    func testAStayAfterAChangeAtAnInferredStopKeepsTimeRunningForward() throws {
        try checkStayRetimesTheRidesBeforeIt(["TAYS", "Pyynikintori", "Keskustori"], arrivingBy: "2022-01-12T08:37",
                                             stayAt: "2", seconds: 2700)
    }

    /// After the stay at inferred node `node` (1-based), every leg before it is in time for it:
    /// no segment late, every node timed, a total, and the times run forward with the stay between.
    private func checkStayRetimesTheRidesBeforeIt(_ places: [String], arrivingBy deadline: String, stayAt node: String,
                                                  seconds: Double) throws {
        let harness = try harness
        let created = try harness.json(["plan", "new"] + places + ["--mode", "transit", "--arrive-by", deadline])
        let index = try XCTUnwrap(Int(node)) - 1
        XCTAssertEqual(nodes(created)[index]["inferred"], .bool(true), "the stay is at a stop the planner inferred: \(created)")
        let stayed = try harness.json(["plan", "stay", try id(created), node, "\(Int(seconds / 60))m"])
        let segments = segments(stayed), nodes = nodes(stayed)
        XCTAssertEqual(nodes[index]["stay_s"], .number(seconds), "\(stayed)")
        for (number, segment) in segments.enumerated() {
            XCTAssertNotEqual(segment["missed_connection"], .bool(true), "segment \(number + 1) is in time: \(stayed)")
        }
        for (number, each) in nodes.enumerated() {
            XCTAssertNotEqual(each["time"] ?? .null, .null, "node \(number + 1) has a time: \(stayed)")
        }
        XCTAssertNotEqual(stayed["total_duration_s"] ?? .null, .null, "the plan has a total: \(stayed)")
        for number in 1..<segments.count {
            let before = try XCTUnwrap(date(segments[number - 1]["leg"]?["arrival"]), "\(stayed)")
            let after = try XCTUnwrap(date(segments[number]["leg"]?["departure"]), "\(stayed)")
            XCTAssertLessThanOrEqual(before, after.addingTimeInterval(1), "segment \(number + 1) leaves after \(number) arrives: \(stayed)")
        }
        // The leg into the stop arrives the stay before the leg after it leaves.
        let arrives = try XCTUnwrap(date(segments[index - 1]["leg"]?["arrival"]), "\(segments[index - 1])")
        let leaves = try XCTUnwrap(date(segments[index]["leg"]?["departure"]), "\(segments[index])")
        XCTAssertLessThanOrEqual(arrives.addingTimeInterval(seconds), leaves.addingTimeInterval(1),
                                 "the traveller gets to the stop the stay before leaving on: \(stayed)")
        let due = try XCTUnwrap(WireTime.date(from: deadline + ":00+02:00"))
        XCTAssertLessThanOrEqual(try XCTUnwrap(date(segments.last?["leg"]?["arrival"]), "\(stayed)"), due,
                                 "still arriving by \(deadline): \(stayed)")
    }
}
