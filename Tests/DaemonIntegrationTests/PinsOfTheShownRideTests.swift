import Foundation
import WireProtocol
import XCTest

/// Trial 58 F3 and F4: pinning the ride a plan shows (by its minute, by `--line`, or choosing
/// its own option) pins that ride, and the legs before it are then timed as `plan refresh`
/// times them: back from the pin, as late as they can be.
final class PinsOfTheShownRideTests: SharedTampereDaemonTestCase {
    private func firstRide(_ segment: JSONValue) -> JSONValue? { segment["leg"]?["rides"]?.arrayValue?.first }

    /// `plan new "Hämeenkatu 9" "TAYS A" Hervanta --arrive-by 09:30` rides bus 11 at 08:44;
    /// `plan pin ID 2 --line 11` pinned bus 11 at 08:14 (the first of the options arriving in
    /// time), so the plan left half an hour early. The plan's own ride of the line is pinned,
    /// and every node keeps its time.
    func testPinningByLineInAnArriveByPlanTakesThePlansOwnRideOfTheLine() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Hämeenkatu 9", "TAYS A", "Hervanta", "--mode", "transit",
                                        "--arrive-by", "2022-01-12T09:30"])
        let plan = try id(created)
        var pinned = 0
        for index in transitSegments(created) {
            guard let ride = firstRide(segments(created)[index]), let line = ride["line"]?.stringValue else { continue }
            let copy = try id(try harness.json(["plan", "new", "Hämeenkatu 9", "TAYS A", "Hervanta", "--mode", "transit",
                                                "--arrive-by", "2022-01-12T09:30"]))
            let after = try harness.json(["plan", "pin", copy, String(index + 1), "--line", line])
            let now = firstRide(segments(after)[index])
            XCTAssertEqual(now?["trip_id"], ride["trip_id"], "segment \(index + 1) --line \(line): the plan's own ride: \(after)")
            XCTAssertEqual(now?["departure"], ride["departure"], "\(after)")
            XCTAssertEqual(nodes(after).map { $0["time"] }, nodes(created).map { $0["time"] },
                           "segment \(index + 1) --line \(line): every node as it was")
            pinned += 1
        }
        XCTAssertGreaterThanOrEqual(pinned, 2, "rides pinned in plan \(plan): \(created)")
    }

    /// `plan new "Hämeenkatu 9" "TAYS A" Hervanta --at 07:30 --mode transit`, `plan stay ID 3
    /// 45m`, then pinning segment 3's own bus 38 (by its minute, `--line 38`, or `plan choose` of
    /// its own option) kept the legs before it leaving 07:30, where `plan refresh` then left 07:39
    /// (bus 90A) arriving in time. Pinned, the plan is the one a refresh gives.
    func testPinningTheShownRideAfterAStayTimesTheLegsBeforeItAsARefreshDoes() throws {
        let harness = try harness
        for way in ["minute", "line", "choose"] {
            let created = try harness.json(["plan", "new", "Hämeenkatu 9", "TAYS A", "Hervanta", "--mode", "transit",
                                            "--at", "2022-01-12T07:30"])
            let plan = try id(created)
            let stop = try XCTUnwrap(nodes(created).firstIndex { $0["name"] == .string("TAYS A") }, "\(created)")
            let stayed = try harness.json(["plan", "stay", plan, String(stop + 1), "45m"])
            let index = stop  // the segment leaving TAYS A
            let ride = try XCTUnwrap(firstRide(segments(stayed)[index]), "\(stayed)")
            let leaves = try XCTUnwrap(ride["departure"]?.stringValue, "\(ride)")
            let after: JSONValue
            switch way {
            case "minute":
                after = try harness.json(["plan", "pin", plan, String(index + 1), String(leaves.dropFirst(11).prefix(5))])
            case "line":
                after = try harness.json(["plan", "pin", plan, String(index + 1), "--line", try XCTUnwrap(ride["line"]?.stringValue)])
            default:
                after = try harness.json(["plan", "choose", plan, String(index + 1), "1"])
            }
            XCTAssertEqual(firstRide(segments(after)[index])?["trip_id"], ride["trip_id"], "\(way): the ride shown: \(after)")
            let refreshed = try harness.json(["plan", "refresh", plan])
            XCTAssertEqual(firstRide(segments(refreshed)[index])?["trip_id"], ride["trip_id"], "\(refreshed)")
            XCTAssertEqual(nodes(after).map { $0["time"] }, nodes(refreshed).map { $0["time"] },
                           "\(way): the legs before the pin timed as a refresh times them")
            let start = try XCTUnwrap(date(nodes(after).first?["time"]), "\(after)")
            XCTAssertGreaterThan(start, try XCTUnwrap(date(nodes(stayed).first?["time"])), "\(way): leaves later than before the pin")
        }
    }
}
