import Foundation
import WireProtocol
import XCTest

/// Trial 56 finding 3: `plan time` to another day kept the pin on the old day: "bus 28 leaves
/// Tays C at 07:51 -1d; … 23 h 59 min too late", proposing "bus 28 at 07:51 instead of the missed
/// 07:51 -1d". A pin moves with the plan's day to the same clock time (the same line's ride
/// leaving its stop in that minute, else its next), or is dropped and named when there is none.
final class PinsMoveWithThePlansDayTests: SharedTampereDaemonTestCase {
    /// Keskustori → TAYS → Kaleva by transit at 07:30, its last ride pinned by the minute the plan
    /// shows it leaving: the plan's ID, the segment's index and that ride.
    private func pinnedPlan() throws -> (id: String, index: Int, ride: JSONValue, minute: String) {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Keskustori", "TAYS", "Kaleva", "--mode", "transit",
                                        "--at", "2022-01-12T07:30"])
        let id = try id(created)
        let index = try XCTUnwrap(transitSegments(created).last, "\(created)")
        let ride = try XCTUnwrap(segments(created)[index]["leg"]?["rides"]?.arrayValue?.first, "\(created)")
        let minute = String(try XCTUnwrap(ride["departure"]?.stringValue).dropFirst(11).prefix(5))
        let pinned = try harness.json(["plan", "pin", id, String(index + 1), minute])
        XCTAssertEqual(segments(pinned)[index]["leg"]?["rides"]?.arrayValue?.first?["trip_id"], ride["trip_id"], "\(pinned)")
        return (id, index, ride, minute)
    }

    private func pin(_ plan: JSONValue, _ index: Int) -> JSONValue? {
        (plan["pins"]?.arrayValue ?? []).first { $0["segment"] == .number(Double(index + 1)) }
    }

    func testMovingAPinnedPlanToTheNextDayPinsTheSameLinesRideThatDay() throws {
        let harness = try harness
        let (id, index, ride, minute) = try pinnedPlan()
        let moved = try harness.json(["plan", "time", id, "--at", "2022-01-13T07:30"])
        XCTAssertEqual(pin(moved, index)?["departure"]?.stringValue.map { String($0.prefix(16)) }, "2022-01-13T\(minute)",
                       "the pin is on the new day, at its minute: \(moved)")
        let segment = segments(moved)[index]
        let movedRide = segment["leg"]?["rides"]?.arrayValue?.first
        XCTAssertEqual(movedRide?["line"], ride["line"], "the same line: \(segment)")
        XCTAssertEqual(segment["missed_connection"], .bool(false), "not missed by a day: \(segment)")
        XCTAssertEqual(moved["pending"]?.arrayValue?.count, 0, "nothing to propose instead: \(moved)")
        let notes = moved["mode_notes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        XCTAssertTrue(notes.contains { $0.hasPrefix("segment \(index + 1): pin (") && $0.contains("moved with the plan to \(minute) on 2022-01-13") },
                      "the answer says the pin moved: \(notes)")
        let shown = try harness.umctl(["plan", "show", id])
        XCTAssertFalse(shown.stdout.contains("-1d"), "nothing left on the old day: \(shown.stdout)")
        XCTAssertFalse(shown.stdout.contains("too late"), shown.stdout)
    }

    func testMovingAPinnedPlanOutsideTheTimetableDropsThePin() throws {
        let harness = try harness
        let (id, index, _, _) = try pinnedPlan()
        let moved = try harness.umctl(["plan", "time", id, "--at", "2023-06-01T07:30"])  // after the feed's period
        XCTAssertEqual(moved.status, 4, "stored, with no transit that day: \(moved.stdout) \(moved.stderr)")
        XCTAssertTrue(moved.stderr.contains("outside the transit timetable"), moved.stderr)
        let shown = try harness.json(["plan", "show", id])
        XCTAssertNil(pin(shown, index), "no ride that day to move the pin to: \(shown)")
        XCTAssertEqual(shown["pending"]?.arrayValue?.count, 0, "no proposal a year and a half late: \(shown)")
        let text = try harness.umctl(["plan", "show", id])
        XCTAssertFalse(text.stdout.contains("too late"), text.stdout)
    }

    /// On Saturday the first bus of that line from that stop leaves later: it is pinned, and the
    /// answer says so as `plan pin` does.
    func testMovingAPinnedPlanToADayWhenTheLineLeavesLaterPinsItsNextRideAndSaysSo() throws {
        let harness = try harness
        let (id, index, ride, minute) = try pinnedPlan()
        let moved = try harness.json(["plan", "time", id, "--at", "2022-01-15T07:30"])
        let movedRide = try XCTUnwrap(segments(moved)[index]["leg"]?["rides"]?.arrayValue?.first, "\(moved)")
        XCTAssertEqual(movedRide["line"], ride["line"], "\(movedRide)")
        let boards = try XCTUnwrap(movedRide["departure"]?.stringValue)
        XCTAssertTrue(boards.hasPrefix("2022-01-15T") && String(boards.dropFirst(11).prefix(5)) > minute, boards)
        XCTAssertEqual(pin(moved, index)?["departure"]?.stringValue.map { String($0.prefix(16)) }, String(boards.prefix(16)), "\(moved)")
        let notes = moved["mode_notes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let line = try XCTUnwrap(ride["line"]?.stringValue)
        XCTAssertTrue(notes.contains { $0.hasPrefix("segment \(index + 1): no bus \(line) you can catch leaves at \(minute); pinned the next")
                          && $0.hasSuffix("at \(boards.dropFirst(11).prefix(5))") }, "\(notes)")
    }

    /// On Sunday bus 28 first leaves Tays C at 09:26 (trip 7277175589, Sunday service): it was
    /// "dropped: no ride of line 28 found" while the line's rides were picked from alternatives
    /// other lines dominate (trial 60 F1); the line's own next ride is pinned and said.
    func testMovingAPinnedPlanToSundayPinsTheLinesFirstSundayRideAndSaysSo() throws {
        let harness = try harness
        let (id, index, ride, minute) = try pinnedPlan()
        let line = try XCTUnwrap(ride["line"]?.stringValue)
        let moved = try harness.json(["plan", "time", id, "--at", "2022-01-16T07:30"])
        let movedRide = try XCTUnwrap(segments(moved).dropFirst(index).first?["leg"]?["rides"]?.arrayValue?.first, "\(moved)")
        XCTAssertEqual(movedRide["line"], ride["line"], "\(movedRide)")
        let boards = try XCTUnwrap(movedRide["departure"]?.stringValue)
        XCTAssertTrue(boards.hasPrefix("2022-01-16T") && String(boards.dropFirst(11).prefix(5)) > minute, boards)
        XCTAssertEqual(pin(moved, index)?["departure"]?.stringValue.map { String($0.prefix(16)) }, String(boards.prefix(16)), "\(moved)")
        XCTAssertEqual(moved["mode_notes"], .array([.string("segment \(index + 1): no bus \(line) you can catch leaves at \(minute); "
                                                             + "pinned the next, bus \(line) from \(movedRide["from"]?.stringValue ?? "?") "
                                                             + "at \(boards.dropFirst(11).prefix(5))")]), "\(moved)")
    }
}
