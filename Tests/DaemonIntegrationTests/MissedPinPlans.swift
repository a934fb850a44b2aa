import Foundation
import TestSupport
import WireProtocol
import XCTest

/// The plans with a missed pin that several tests read, made on Tampere as the trials made them
/// (the feed runs 06:00–11:59 on 2022-01-12).
extension XCTestCase {
    /// `plan new Lielahti Tampere-talo Nekalantie --mode MODE TIMING 2022-01-12TTIME` (`timing`:
    /// `--at` or `--arrive-by`): two hops, the plan most missed- and late-pin tests start from.
    func lielahtiTampereTaloNekalantie(_ harness: DaemonHarness, mode: String, _ timing: String, _ time: String,
                                       file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        try harness.json(["plan", "new", "Lielahti", "Tampere-talo", "Nekalantie", "--mode", mode, timing, "2022-01-12T\(time)"],
                         file: file, line: line)
    }

    /// `plan new Lielahti Tampere-talo Nekalantie --mode transit --at 2022-01-12T10:20`, segment 2
    /// pinned at 11:30, then segment 1 at 11:20: its bus 9 gets to Tampere-talo at 11:54, so bus
    /// 14 on segment 2 (11:37) is missed on foot, and no later one runs that morning.
    func planWhoseSecondPinIsMissed(_ harness: DaemonHarness) throws -> (id: String, plan: JSONValue) {
        let created = try lielahtiTampereTaloNekalantie(harness, mode: "transit", "--at", "10:20")
        let plan = try id(created)
        _ = try harness.json(["plan", "pin", plan, "2", "11:30"])
        return (plan, try harness.json(["plan", "pin", plan, "1", "11:20"]))
    }

    /// `plan new Keskustori Hervanta TAYS --mode transit --at 2022-01-12T08:00`, its ride pinned at
    /// 09:00 (bus 6), then `plan insert … Kauppiaankatu --after 1` (or `place`: Solja in trial 53),
    /// 10 km west: the pinned ride is reached from its own stop by a 10 km walk, and missed.
    func planWithAFarPlaceInsertedBeforeAPinnedRide(_ harness: DaemonHarness, place: String = "Kauppiaankatu") throws
        -> (id: String, plan: JSONValue) {
        let created = try harness.json(["plan", "new", "Keskustori", "Hervanta", "TAYS", "--mode", "transit",
                                        "--at", "2022-01-12T08:00"])
        let plan = try id(created)
        let ride = try XCTUnwrap(transitSegments(created).first, "\(created)")
        _ = try harness.json(["plan", "pin", plan, String(ride + 1), "09:00"])
        return (plan, try harness.json(["plan", "insert", plan, place, "--after", "1"]))
    }

    /// `plan new Keskustori Hervanta TAYS --mode transit --at 2022-01-12T08:00`, its first ride
    /// pinned at its own departure (bus 6 at 08:14), then `plan time … --at 09:20`: the start
    /// holds, the pin is missed and the next bus 6 the traveller can catch is proposed; the ride
    /// to TAYS goes on from the proposal's arrival, more than 90 minutes after 08:14 (trial 51).
    func planWhoseFirstRideIsMissedByALaterStart(_ harness: DaemonHarness) throws -> (id: String, plan: JSONValue) {
        let created = try harness.json(["plan", "new", "Keskustori", "Hervanta", "TAYS", "--mode", "transit",
                                        "--at", "2022-01-12T08:00"])
        let plan = try id(created)
        let ride = try XCTUnwrap(transitSegments(created).first, "\(created)")
        let departure = try XCTUnwrap(segments(created)[ride]["leg"]?["rides"]?.arrayValue?.first?["departure"]?.stringValue, "\(created)")
        _ = try harness.json(["plan", "pin", plan, String(ride + 1), String(departure.dropFirst(11).prefix(5))])
        return (plan, try harness.json(["plan", "time", plan, "--at", "2022-01-12T09:20"]))
    }

    /// `plan new Lielahti Tampere-talo Nekalantie --mode transit --arrive-by 2022-01-12T10:30`,
    /// segment 2 pinned at 10:40, then segment 1 at 10:20 (it gets to Tampere-talo at 10:54):
    /// segment 2 arrives late, and segment 1's pin arrives after segment 2's proposal leaves.
    func planWithTwoLatePins(_ harness: DaemonHarness) throws -> (id: String, plan: JSONValue) {
        let created = try lielahtiTampereTaloNekalantie(harness, mode: "transit", "--arrive-by", "10:30")
        let plan = try id(created)
        _ = try harness.json(["plan", "pin", plan, "2", "10:40"])
        return (plan, try harness.json(["plan", "pin", plan, "1", "10:20"]))
    }

    /// `plan new Keskustori Hervanta TAYS --mode transit --arrive-by 2022-01-12T10:00`: the
    /// arrive-by plan whose pins the late-pin tests make late.
    func planToTAYSArrivingBy10(_ harness: DaemonHarness) throws -> (id: String, plan: JSONValue) {
        let created = try harness.json(["plan", "new", "Keskustori", "Hervanta", "TAYS", "--mode", "transit",
                                        "--arrive-by", "2022-01-12T10:00"])
        return (try id(created), created)
    }
}
