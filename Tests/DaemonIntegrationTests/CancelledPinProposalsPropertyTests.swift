import Foundation
import Transit
import WireProtocol
import XCTest

/// The proposal rule over seeded cases, on the written São Paulo region of
/// `CancelledPinProposalsElsewhereTests` with bus 7 every quarter of an hour from 07:45 to 10:00:
/// plans leaving (or arriving by) random minutes, each one's ride pinned; one feed cancels every
/// pinned trip and random others. Each proposal is the one the timetable gives by hand: the first
/// trip not cancelled that leaves A once the traveller is there (the walk from O takes under a
/// minute), or the last not cancelled that is at B a minute before the deadline; none when none is.
/// Minutes within two of a departure (or an arrival) are not drawn: the walks' seconds decide nothing.
final class CancelledPinProposalsPropertyTests: SharedDaemonTestCase {
    typealias Region = CancelledPinProposalsElsewhereTests
    static let departures = stride(from: 7 * 60 + 45, through: 10 * 60, by: 15).map { String(format: "%02d:%02d", $0 / 60, $0 % 60) }

    override class func makeSharedDaemon() throws -> DaemonHarness {
        let harness = try DaemonHarness()
        try harness.start(extraArguments: ["--clock-start", "2022-03-02T07:30:00-03:00"])
        try harness.importWrittenRegion("vilamar", osm: try Region.writeOSM(in: harness.directory),
                                        gtfs: try Region.writeFeed(in: harness.directory, departures: departures))
        return harness
    }

    func testEveryCancelledPinGetsTheRideTheTimetableGivesByHand() throws {
        let harness = try harness
        var random = SeededRandom(seed: 60_039)
        let trips = Self.departures.map { "T" + $0.replacingOccurrences(of: ":", with: "") }
        let leaves = Self.departures.map { Int($0.prefix(2))! * 60 + Int($0.suffix(2))! }
        var plans: [(id: String, segment: Int, arriveBy: Bool, minute: Int, pinned: Int)] = []
        var cancelled: Set<Int> = []
        for round in 0..<10 {
            let arriveBy = round % 2 == 1
            var minute = 0
            repeat { minute = Int.random(in: arriveBy ? 8 * 60 + 10...9 * 60 + 50 : 7 * 60 + 40...9 * 60 + 40, using: &random) }
                while [13, 14, 8, 9].contains(minute % 15)
            let time = String(format: "2022-03-02T%02d:%02d", minute / 60, minute % 60)
            let plan = try harness.json(["plan", "new", Region.origin, Region.destination, "--mode", "transit",
                                         arriveBy ? "--arrive-by" : "--at", time])
            let planID = try id(plan)
            let all = segments(plan)
            let index = try XCTUnwrap(all.firstIndex { $0["leg"]?["rides"]?.arrayValue?.isEmpty == false }, "a ride: \(plan)")
            let ride = try XCTUnwrap(all[index]["leg"]?["rides"]?.arrayValue?.first)
            let pinned = try XCTUnwrap(ride["trip_id"]?.stringValue.flatMap { trips.firstIndex(of: $0) }, "\(ride)")
            let departure = try XCTUnwrap(ride["departure"]?.stringValue, "\(ride)")
            _ = try harness.json(["plan", "pin", planID, String(index + 1), String(departure.dropFirst(11).prefix(5))])
            plans.append((planID, index + 1, arriveBy, minute, pinned))
            cancelled.insert(pinned)
        }
        for k in trips.indices where Int.random(in: 0..<3, using: &random) == 0 { cancelled.insert(k) }

        let uptime = try XCTUnwrap(harness.json(["status"])["uptime_s"]?.numberValue)
        let updates = cancelled.sorted().map { (k: Int) in
            RealtimeTripUpdate(entityID: "cancel-" + trips[k],
                               trip: RealtimeTripDescriptor(tripID: trips[k], startDate: "20220302", relationship: .canceled))
        }
        let file = harness.directory.appendingPathComponent("vilamar-cancelled.pb")
        try RealtimeFeed(timestamp: Region.start.addingTimeInterval(uptime), tripUpdates: updates).encoded().write(to: file)
        let set = try harness.umctl(["region", "set", "vilamar", "--realtime", file.path])
        XCTAssertEqual(set.status, 0, set.stderr)

        for plan in plans {
            // At A from the minute after the plan's time, or at B (8 minutes after A) a minute before it.
            let expected = plan.arriveBy ? trips.indices.last { !cancelled.contains($0) && leaves[$0] + 8 + 1 <= plan.minute }
                                         : trips.indices.first { !cancelled.contains($0) && leaves[$0] >= plan.minute + 1 }
            let context = "\(plan.arriveBy ? "by" : "at") \(plan.minute / 60):\(plan.minute % 60), pinned \(trips[plan.pinned]), "
                + "cancelled \(cancelled.sorted().map { trips[$0] })"
            var pending: JSONValue?
            for _ in 0..<300 {
                let shown = try harness.json(["plan", "show", plan.id])
                if shown["segments"]?.arrayValue?[plan.segment - 1]["leg"]?["rides"]?.arrayValue?.first?["cancelled"] == .bool(true) {
                    pending = shown["pending"]?.arrayValue?.first ?? .null
                    break
                }
                usleep(100_000)
            }
            XCTAssertNotNil(pending, "the pinned ride is shown cancelled, \(context)")
            let proposed = pending?["latest"]?["rides"]?.arrayValue?.first?["trip_id"]?.stringValue
            XCTAssertEqual(proposed, expected.map { trips[$0] }, "\(context): \(String(describing: pending))")
        }
    }
}
