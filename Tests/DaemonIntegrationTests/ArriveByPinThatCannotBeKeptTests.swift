import Foundation
import WireProtocol
import XCTest

/// Trial 60 F6: an arrive-by time before a pin that cannot be kept. `plan new 61.49150,23.71753
/// 61.47189,23.66277 61.44547,23.80740 61.50390,23.75342 61.50803,23.67825 --at 08:08 --mode
/// transit`, a pin on the walk of segment 4 at 09:30, then `plan time ID --arrive-by 07:42`: the
/// pin gave way ("the pin on segment 4 is missed") with nothing pending, and a ride after it,
/// asked "arrive by" for a proposal that never came, was shown leaving at 06:37 from a node
/// reached at 10:39. A pinned walk gives way as a pinned ride does: the plan says what can be
/// caught (here: no ride arrives in time), and no leg leaves before the traveller gets to it.
final class ArriveByPinThatCannotBeKeptTests: TampereDaemonTestCase {
    /// The trial's clock: the plans are made that morning.
    override var daemonArguments: [String] { ["--clock-start", "2022-01-12T07:30:00+02:00"] }

    private static let places = ["61.49150,23.71753", "61.47189,23.66277", "61.44547,23.80740", "61.50390,23.75342", "61.50803,23.67825"]

    private func dayPlan(_ harness: DaemonHarness) throws -> JSONValue {
        try harness.json(["plan", "new"] + Self.places + ["--at", "2022-01-12T08:08", "--mode", "transit"])
    }

    /// The walk from the second place to the stop of the ride after it.
    private func walkFromTheSecondPlace(_ plan: JSONValue) throws -> Int {
        let nodes = nodes(plan), segments = segments(plan)
        let place = try XCTUnwrap(nodes.indices.dropFirst().first { nodes[$0]["inferred"] != .bool(true) }, "\(plan)")
        XCTAssertEqual(segments[place]["mode"], .string("walk"), "a walk from the second place: \(plan)")
        XCTAssertEqual(segments[place + 1]["mode"], .string("transit"), "then a ride: \(plan)")
        return place
    }

    /// Every leg with a time of its own leaves no earlier than its node shows the traveller there,
    /// unless the segment is shown missed or late.
    private func assertNoLegLeavesBeforeItsNode(_ plan: JSONValue, _ context: String) {
        let nodes = nodes(plan), segments = segments(plan)
        for index in segments.indices where segments[index]["missed_connection"] != .bool(true) {
            guard let there = date(nodes[index]["time"]), let leaves = date(segments[index]["leg"]?["departure"]) else { continue }
            XCTAssertGreaterThanOrEqual(leaves, there.addingTimeInterval(-1), "\(context): segment \(index + 1) leaves before node \(index + 1): \(plan)")
        }
        let times = nodes.compactMap { date($0["time"]) }
        XCTAssertEqual(times, times.sorted(), "\(context): node times in order: \(nodes)")
    }

    func testAPinnedWalkThatCannotBeKeptSaysWhatCanBeCaught() throws {
        let harness = try XCTUnwrap(harness)
        let created = try dayPlan(harness)
        let id = try id(created)
        let walk = try walkFromTheSecondPlace(created)
        _ = try harness.json(["plan", "pin", id, String(walk + 1), "09:30"])
        let timed = try harness.json(["plan", "time", id, "--arrive-by", "07:42"])
        let pending = (timed["pending"]?.arrayValue ?? []).first { $0["segment"] == .number(Double(walk + 1)) }
        XCTAssertNotNil(pending, "the pinned walk that cannot be kept says what can be caught: \(timed)")
        assertNoLegLeavesBeforeItsNode(timed, "pinned walk")
        let text = try harness.umctl(["plan", "show", id]).stdout
        XCTAssertTrue(text.contains("pending on segment \(walk + 1)"), text)
    }

    func testAPinnedRideThatCannotBeKeptLeavesNoLegBeforeTheTravellerGetsThere() throws {
        let harness = try XCTUnwrap(harness)
        let created = try dayPlan(harness)
        let id = try id(created)
        let ride = try walkFromTheSecondPlace(created) + 1
        let leaves = try XCTUnwrap(date(segments(created)[ride]["leg"]?["rides"]?.arrayValue?.first?["departure"]), "\(created)")
        let clock = DateFormatter()
        clock.timeZone = TimeZone(identifier: "Europe/Helsinki")
        clock.locale = Locale(identifier: "en_US_POSIX")
        clock.dateFormat = "HH:mm"
        _ = try harness.json(["plan", "pin", id, String(ride + 1), clock.string(from: leaves)])
        let timed = try harness.json(["plan", "time", id, "--arrive-by", "07:42"])
        XCTAssertNotNil((timed["pending"]?.arrayValue ?? []).first { $0["segment"] == .number(Double(ride + 1)) },
                        "the pinned ride that cannot be kept says what can be caught: \(timed)")
        assertNoLegLeavesBeforeItsNode(timed, "pinned ride")
    }
}
