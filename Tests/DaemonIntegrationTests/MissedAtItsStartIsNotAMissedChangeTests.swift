import Foundation
import WireProtocol
import XCTest

/// Trial 59b F5: a stay before a pinned journey of two rides made its first ride the one missed
/// (the traveller at Keskustori E at 08:57, bus 9 gone at 08:41), and `plan show` said "missed:
/// the change at Kivikirkko: bus 6 leaves at 08:55; bus 9 gets you there at 08:57, 2 min too
/// late" and named the missed bus 6 in the proposal. A change is the one missed only when the ride
/// before it gets the traveller there (`reached` is its arrival and the change's walk).
final class MissedAtItsStartIsNotAMissedChangeTests: SharedTampereDaemonTestCase {
    func testAStayThatMakesThePinnedFirstRideUncatchableNamesThatRide() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Keskustori", "Hervanta", "--mode", "transit", "--at", "2022-01-12T08:36"])
        let id = try id(created)
        let pinned = try harness.json(["plan", "pin", id, "2", "08:41"])
        let rides = segments(pinned)[1]["leg"]?["rides"]?.arrayValue ?? []
        guard rides.count == 2, let first = rides.first else { return XCTFail("Tampere's timetable: bus 9 and a change: \(pinned)") }
        let stayed = try harness.umctl(["plan", "stay", id, "1", "20m"])
        XCTAssertEqual(stayed.status, 0, stayed.stderr)
        XCTAssertFalse(stayed.stdout.contains("missed: the change at"), "the first ride is the one missed: \(stayed.stdout)")
        let shown = try harness.json(["plan", "show", id])
        XCTAssertNil(segments(shown)[1]["missed_change_ride"], "no change is the one missed: \(segments(shown)[1])")
        let line = first["line"]?.stringValue ?? "?", stop = first["from"]?.stringValue ?? "?"
        XCTAssertTrue(stayed.stdout.contains("missed: bus \(line) leaves \(stop) at ")
                      || stayed.stdout.contains("missed: it leaves "), "the missed ride is said: \(stayed.stdout)")
        XCTAssertTrue(stayed.stdout.contains("instead of the missed bus \(line) at "), "the proposal names it: \(stayed.stdout)")
    }
}
