import Foundation
import WireProtocol
import XCTest

/// Trial 60 F1: `plan pin ID SEG --line L` picked from the segment's alternatives, where no ride
/// another line dominates is listed: from Keskustori to TAYS A buses 29 and 11 beat every bus 6
/// until 09:28, so `--line 6` pinned the 09:28 (with `--at 08:48`: "no bus 6 you can catch leaves
/// at 08:48") although bus 6 leaves Rautatieasema D at 08:38:30, 08:48:30, 08:58:30 (weekday
/// timetable, all running on 2022-01-12). A line pin is the user's decision: the line's next ride
/// the traveller can catch, whatever other lines would dominate it.
final class LinePinTakesTheLinesNextRideTests: SharedTampereDaemonTestCase {
    private func time(_ local: String) throws -> Date {
        try XCTUnwrap(ISO8601DateFormatter().date(from: "2022-01-12T\(local):00+02:00"))
    }

    /// The plan Keskustori → TAYS A by transit (`timing` `at`), and its transit segment (0-based).
    private func plan(_ timing: String, _ at: String) throws -> (id: String, segment: Int) {
        let created = try harness.json(["plan", "new", "Keskustori", "TAYS A", "--mode", "transit", timing, "2022-01-12T\(at)"])
        let segment = try XCTUnwrap(transitSegments(created).first { segments(created)[$0]["leg"]?["rides"]?.arrayValue?.isEmpty == false },
                                    "a ride: \(created)")
        return (try id(created), segment)
    }

    private func ride(_ plan: JSONValue, _ segment: Int) throws -> JSONValue {
        try XCTUnwrap(segments(plan)[segment]["leg"]?["rides"]?.arrayValue?.first, "\(plan)")
    }

    func testALinePinTakesTheLinesFirstRideTheTravellerCanCatchThoughAnotherLineBeatsIt() throws {
        let (id, segment) = try plan("--at", "08:30")
        let pinned = try harness.json(["plan", "pin", id, String(segment + 1), "--line", "6"])
        let ride = try ride(pinned, segment)
        XCTAssertEqual(ride["line"], .string("6"), "\(pinned)")
        let leaves = try XCTUnwrap(date(ride["departure"]), "\(ride)")
        let walkLeaves = try XCTUnwrap(date(segments(pinned)[segment]["leg"]?["departure"]), "\(pinned)")
        XCTAssertGreaterThanOrEqual(walkLeaves, try time("08:30"), "catchable from the plan's start: \(pinned)")
        // Bus 6 leaves every ten minutes from 08:38:30 on: the first one the traveller can catch, not the 09:28,
        // nor the 08:46:30 asked from Frenckell, the stop inferred for bus 29: the trip leaving Rautatieasema D
        // at 08:38:30 passes Koskipuisto C, 374 m from Keskustori, at 08:36:30.
        XCTAssertLessThan(leaves, try time("08:40"), "bus 6's next ride from the traveller's place: \(pinned)")
    }

    func testALinePinAtAMinuteTakesTheLinesRideLeavingThenWithoutSayingNoneLeaves() throws {
        let (id, segment) = try plan("--at", "08:30")
        let pinned = try harness.json(["plan", "pin", id, String(segment + 1), "--line", "6", "--at", "08:48"])
        let ride = try ride(pinned, segment)
        XCTAssertEqual(ride["line"], .string("6"), "\(pinned)")
        let leaves = try XCTUnwrap(date(ride["departure"]), "\(ride)")
        // The trip leaving Rautatieasema D at 08:48:30, boarded there or at a stop before it
        // (Koskipuisto C at 08:46:30), not the next one.
        let (from, to) = (try time("08:44"), try time("08:49"))
        XCTAssertTrue(leaves >= from && leaves < to, "bus 6 leaving at 08:48(:30): \(pinned)")
        let notes = pinned["mode_notes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        XCTAssertFalse(notes.contains { $0.contains("no bus 6 you can catch") }, "a bus 6 leaves at 08:48: \(notes)")
    }

    func testALinePinInAnArriveByPlanTakesTheLinesLatestRideArrivingInTime() throws {
        let (id, segment) = try plan("--arrive-by", "09:00")
        let pinned = try harness.json(["plan", "pin", id, String(segment + 1), "--line", "6"])
        let ride = try ride(pinned, segment)
        XCTAssertEqual(ride["line"], .string("6"), "\(pinned)")
        let leaves = try XCTUnwrap(date(ride["departure"]), "\(ride)")
        let arrives = try XCTUnwrap(date(segments(pinned)[segment]["leg"]?["arrival"]), "\(pinned)")
        XCTAssertLessThanOrEqual(arrives, try time("09:00"), "in time: \(pinned)")
        // Bus 6 at 08:38:30 reaches TAYS A by 08:50: the latest in time, not the 08:28 before it.
        XCTAssertGreaterThanOrEqual(leaves, try time("08:38"), "bus 6's latest ride in time: \(pinned)")
    }
}
