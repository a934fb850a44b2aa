import Foundation
import TestSupport
import WireProtocol
import XCTest

/// Issue 39 item 2, "every missed pin gets one": a pin that can no longer be caught when no
/// ride of any line can be caught instead gets an answer saying so ("no later bus B1 today; the
/// last left 23:12"), stored with the plan, on the wire and in `plan show`; accepting it is a
/// `conflict` (nothing to accept), dismissing it works. And the arrive-by mirror: a pin the legs
/// after it make late gets the latest ride that still arrives, named by line and time, or "no
/// earlier ride arrives by …". On a small written region whose one bus line B1 runs on one day
/// only (2022-06-01), from the south-west corner to the north-east corner in 20 minutes.
final class NoCatchableRideTests: SharedDaemonTestCase {
    static let region = SmallRegion(name: "town", latitude: 61.5, longitude: 23.76, spacing: 500)
    /// The bus stop at the south-west corner; the destination is one block (500 m) west of the
    /// north-east stop, so a walk follows the ride.
    static let from = SmallRegion.text(region.stopPoint(row: 0, column: 0))
    static let to = SmallRegion.text(region.stopPoint(row: 8, column: 7))

    override class func makeSharedDaemon() throws -> DaemonHarness {
        let harness = try DaemonHarness()
        try harness.start(extraArguments: ["--clock-start", "2022-06-01T06:00:00+03:00"])
        var feed = MiniFeed()
        feed.zone = "Europe/Helsinki"
        feed.calendar = "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
            + "ALL,1,1,1,1,1,1,1,20220601,20220601\n"
        let (fromLatitude, fromLongitude) = region.stopPoint(row: 0, column: 0)
        let (toLatitude, toLongitude) = region.stopPoint(row: 8, column: 8)
        feed.stops = [("S1", "Aalto", fromLatitude, fromLongitude), ("S2", "Castle", toLatitude, toLongitude)]
        feed.routes = [("R1", "B1", 3)]
        for (trip, departure, arrival) in [("T1", "07:30:00", "07:50:00"), ("T2", "07:45:00", "08:05:00"), ("T3", "08:00:00", "08:20:00"),
                                           ("T4", "22:40:00", "23:00:00"), ("T5", "23:12:00", "23:32:00")] {
            feed.trip(trip, route: "R1", [("S1", departure), ("S2", arrival)])
        }
        let imported = try harness.umctl(["region", "import", region.name, "--osm", try region.writeOSM(in: harness.directory).path,
                                          "--gtfs", try region.writeZip(feed.files, in: harness.directory, fileName: "town.zip").path])
        guard imported.status == 0 else { throw NSError(domain: "import", code: 1, userInfo: [NSLocalizedDescriptionKey: imported.stderr]) }
        return harness
    }

    /// "08:15" of "2022-06-01T08:15:00+03:00".
    func clock(_ iso: String?) -> String { iso.map { String($0.dropFirst(11).prefix(5)) } ?? "?" }

    /// A new transit plan with its ride pinned: the plan's ID and the ride's segment number.
    func pinnedPlan(_ time: [String]) throws -> (id: String, segment: Int) {
        let created = try harness.json(["plan", "new", Self.from, Self.to, "--mode", "transit"] + time)
        let id = String(Int64(try XCTUnwrap(created["id"]?.numberValue)))
        let segment = try XCTUnwrap(created["segments"]?.arrayValue?.firstIndex { $0["mode"] == .string("transit") }, "\(created)") + 1
        let departure = clock(created["segments"]?.arrayValue?[segment - 1]["leg"]?["departure"]?.stringValue)
        let pinned = try harness.json(["plan", "pin", id, String(segment), departure])
        XCTAssertEqual(pinned["pinned_segment"], .number(Double(segment)), "\(pinned)")
        return (id, segment)
    }

    func testAPinMissedAfterTheLastBusSaysNoLaterRideTodayAndCanOnlyBeDismissed() throws {
        let (id, segment) = try pinnedPlan(["--at", "2022-06-01T23:00"])
        let before = try harness.json(["plan", "show", id])
        XCTAssertEqual(clock(before["segments"]?.arrayValue?[segment - 1]["leg"]?["rides"]?.arrayValue?.first?["departure"]?.stringValue), "23:12",
                       "\(before)")

        // At the stop at 23:20: the 23:12 is gone and nothing runs later that day.
        let retimed = try harness.json(["plan", "time", id, "--at", "23:20"])
        XCTAssertEqual(retimed["segments"]?.arrayValue?[segment - 1]["missed_connection"], .bool(true), "\(retimed)")
        let answer = try XCTUnwrap(retimed["pending"]?.arrayValue?.first, "a missed pin with nothing later gets an answer: \(retimed)")
        XCTAssertEqual(answer["segment"], .number(Double(segment)))
        XCTAssertEqual(answer["latest"], .null, "nothing to propose: \(answer)")
        XCTAssertEqual(answer["no_catchable_ride"]?["kind"], .string("no_later_ride"), "\(answer)")
        XCTAssertEqual(clock(answer["no_catchable_ride"]?["time"]?.stringValue), "23:20", "from when the traveller is there: \(answer)")

        let shown = try harness.umctl(["plan", "show", id])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("no later bus B1 today; the last left 23:12"), "names the line and its last departure: \(shown.stdout)")
        XCTAssertTrue(shown.stdout.contains("umctl plan dismiss \(id) \(segment)"), shown.stdout)

        // Nothing to accept: a conflict that changes nothing.
        let generation = try harness.json(["plan", "show", id])["generation"]
        let accepted = try harness.umctl(["plan", "accept", id, String(segment)])
        XCTAssertNotEqual(accepted.status, 0, accepted.stdout)
        XCTAssertTrue(accepted.stderr.contains("nothing to accept"), accepted.stderr)
        let unchanged = try harness.json(["plan", "show", id])
        XCTAssertEqual(unchanged["generation"], generation, "a refused accept changes nothing")
        XCTAssertEqual(unchanged["pending"]?.arrayValue?.count, 1, "\(unchanged)")

        let dismissed = try harness.umctl(["plan", "dismiss", id, String(segment)])
        XCTAssertEqual(dismissed.status, 0, dismissed.stderr)
        let after = try harness.json(["plan", "show", id])
        XCTAssertEqual(after["pending"]?.arrayValue ?? [], [], "dismissed: \(after)")
        XCTAssertEqual(after["pinned_segment"], .number(Double(segment)), "the user's pin stays: \(after)")

        // Back in time for the bus: the pin holds and nothing is pending.
        let caught = try harness.json(["plan", "time", id, "--at", "23:00"])
        XCTAssertEqual(caught["pending"]?.arrayValue ?? [], [], "\(caught)")
        XCTAssertEqual(caught["segments"]?.arrayValue?[segment - 1]["missed_connection"], .bool(false), "\(caught)")
    }

    /// The arrive-by mirror (docs/planner.md, "Missed pinned departure"): the walk after the
    /// pinned 08:00 bus arrives after the new deadline, so the latest bus that still arrives in
    /// time is proposed, named by line and time; with a deadline no bus can make, the plan says so.
    func testAnArriveByPlanMadeLateAfterItsPinProposesTheLatestEarlierBusOrSaysNoneArrives() throws {
        let (id, segment) = try pinnedPlan(["--arrive-by", "2022-06-01T08:40"])
        let before = try harness.json(["plan", "show", id])
        XCTAssertEqual(clock(before["segments"]?.arrayValue?[segment - 1]["leg"]?["rides"]?.arrayValue?.first?["departure"]?.stringValue), "08:00",
                       "\(before)")

        // The walk after it takes about 6 minutes: arriving at 08:20, the 08:00 bus is late for 08:24.
        let late = try harness.json(["plan", "time", id, "--arrive-by", "08:24"])
        XCTAssertEqual(late["segments"]?.arrayValue?[segment - 1]["missed_connection"], .bool(true), "\(late)")
        let proposal = try XCTUnwrap(late["pending"]?.arrayValue?.first, "a late pin gets a proposal: \(late)")
        let ride = try XCTUnwrap(proposal["latest"]?["rides"]?.arrayValue?.first, "\(proposal)")
        XCTAssertEqual(ride["line"], .string("B1"))
        XCTAssertEqual(clock(ride["departure"]?.stringValue), "07:45", "the latest bus that still arrives by 08:24: \(proposal)")
        let shown = try harness.umctl(["plan", "show", id])
        XCTAssertTrue(shown.stdout.contains("bus B1 at 07:45 instead of the late 08:00"), shown.stdout)

        // Must be at the stop by about 07:46: the first bus arrives 07:50.
        let none = try harness.json(["plan", "time", id, "--arrive-by", "07:52"])
        let answer = try XCTUnwrap(none["pending"]?.arrayValue?.first, "a late pin with nothing earlier gets an answer: \(none)")
        XCTAssertEqual(answer["latest"], .null, "\(answer)")
        XCTAssertEqual(answer["no_catchable_ride"]?["kind"], .string("no_earlier_ride"), "\(answer)")
        let by = clock(answer["no_catchable_ride"]?["time"]?.stringValue)
        XCTAssertTrue(by >= "07:44" && by <= "07:47", "when the bus must be at Castle: \(answer)")
        XCTAssertTrue(try harness.umctl(["plan", "show", id]).stdout.contains("no earlier ride arrives by \(by)"))
        let accepted = try harness.umctl(["plan", "accept", id, String(segment)])
        XCTAssertTrue(accepted.stderr.contains("proposes no ride (none can be caught): nothing to accept"), accepted.stderr)
    }
}
