import Foundation
import Transit
import WireProtocol
import XCTest

/// The proposal rule (docs/planner.md) away from Tampere: a written region in São Paulo (UTC−3)
/// and a GTFS-Realtime feed cancelling two trips of one line. Bus 7 leaves A (by the origin O)
/// every quarter of an hour from 08:00 and is at B (by the destination D, 3 km east along the
/// one street) 8 minutes later. A pinned ride that is cancelled gets the best ride the traveller
/// can still catch: depart-at, the next one not cancelled that leaves after they can be at A
/// (never one already gone); arrive-by, the latest one not cancelled that still arrives in time
/// (never the next, which arrives late).
final class CancelledPinProposalsElsewhereTests: SharedDaemonTestCase {
    static let grid = MetricGrid(latitude: -23.5505, longitude: -46.6333)
    static func text(east: Double, north: Double = 0) -> String { MetricGrid.text(grid.point(east: east, north: north)) }
    static let origin = text(east: 0), destination = text(east: 3_000)
    /// 07:30 on 2 March 2022 in São Paulo, the daemon's clock start.
    static let start = Date(timeIntervalSince1970: 1_646_217_000)
    static let departures = ["08:00", "08:15", "08:30", "08:45", "09:00"]

    static func writeOSM(in directory: URL) throws -> URL {
        var document = OSMDocument()
        let easts = stride(from: 0.0, through: 3_000, by: 250).map { $0 }
        for (k, east) in easts.enumerated() {
            let (lat, lon) = grid.point(east: east, north: 0)
            document.node(k + 1, latitude: lat, longitude: lon)
        }
        document.way(100, Array(1...easts.count), tags: [("highway", "residential"), ("name", "Rua do Mar")])
        return try document.write(to: directory.appendingPathComponent("vilamar.osm"))
    }

    /// Bus 7 leaving A at each of `departures` (HH:MM), 8 minutes to B; trips "T" + HHMM.
    static func writeFeed(in directory: URL, departures: [String] = departures) throws -> URL {
        var feed = MiniFeed()
        feed.zone = "America/Sao_Paulo"
        let a = grid.point(east: 60, north: 5), b = grid.point(east: 2_940, north: 5)
        feed.stops = [("A", "Praça do Mar", a.0, a.1), ("B", "Estação do Mar", b.0, b.1)]
        feed.routes = [("R7", "7", 3)]
        for departure in departures {
            let minutes = Int(departure.prefix(2))! * 60 + Int(departure.suffix(2))! + 8
            feed.trip("T\(departure.replacingOccurrences(of: ":", with: ""))", route: "R7",
                      [("A", "\(departure):00"), ("B", String(format: "%02d:%02d:00", minutes / 60, minutes % 60))])
        }
        let url = directory.appendingPathComponent("vilamar.zip")
        try GTFSZip.write(feed.files, to: url)
        return url
    }

    override class func makeSharedDaemon() throws -> DaemonHarness {
        let harness = try DaemonHarness()
        try harness.start(extraArguments: ["--clock-start", "2022-03-02T07:30:00-03:00"])
        try harness.importWrittenRegion("vilamar", osm: try writeOSM(in: harness.directory), gtfs: try writeFeed(in: harness.directory))
        return harness
    }

    /// The plan's transit segment (from 1) and its ride.
    func pinnedRide(_ plan: JSONValue) throws -> (segment: Int, ride: JSONValue) {
        let all = segments(plan)
        let index = try XCTUnwrap(all.firstIndex { $0["leg"]?["rides"]?.arrayValue?.isEmpty == false }, "a ride: \(plan)")
        return (index + 1, try XCTUnwrap(all[index]["leg"]?["rides"]?.arrayValue?.first))
    }

    func testACancelledPinGetsTheBestRideStillCatchableInEitherDirection() throws {
        let harness = try harness
        let leaving = try harness.json(["plan", "new", Self.origin, Self.destination, "--mode", "transit", "--at", "2022-03-02T08:10"])
        let arriving = try harness.json(["plan", "new", Self.origin, Self.destination, "--mode", "transit",
                                         "--arrive-by", "2022-03-02T08:50"])
        let (leavingID, arrivingID) = (try id(leaving), try id(arriving))
        let early = try pinnedRide(leaving), late = try pinnedRide(arriving)
        XCTAssertEqual(early.ride["trip_id"], .string("T0815"), "from 08:10 the 08:15: \(early.ride)")
        XCTAssertEqual(late.ride["trip_id"], .string("T0830"), "by 08:50 the 08:30 (the 08:45 arrives 08:53): \(late.ride)")
        XCTAssertEqual(early.ride["departure"], .string("2022-03-02T08:15:00-03:00"))
        _ = try harness.json(["plan", "pin", leavingID, String(early.segment), "08:15"])
        _ = try harness.json(["plan", "pin", arrivingID, String(late.segment), "08:30"])

        // Both pinned trips cancelled: the 08:15 and the 08:30.
        let uptime = try XCTUnwrap(harness.json(["status"])["uptime_s"]?.numberValue)
        let cancelled = ["T0815", "T0830"].map { (trip: String) in
            RealtimeTripUpdate(entityID: "cancel-" + trip, trip: RealtimeTripDescriptor(tripID: trip, startDate: "20220302", relationship: .canceled))
        }
        let file = harness.directory.appendingPathComponent("vilamar-live.pb")
        try RealtimeFeed(timestamp: Self.start.addingTimeInterval(uptime), tripUpdates: cancelled).encoded().write(to: file)
        let set = try harness.umctl(["region", "set", "vilamar", "--realtime", file.path])
        XCTAssertEqual(set.status, 0, set.stderr)

        func proposal(_ id: String) throws -> JSONValue {
            for _ in 0..<600 {
                if let latest = try harness.json(["plan", "show", id])["pending"]?.arrayValue?.first?["latest"] { return latest }
                usleep(100_000)
            }
            throw HarnessError("plan \(id) never got a proposal\n\(harness.log.suffix(2000))")
        }
        // Depart-at: the next one not cancelled after the traveller can be at A (not the 08:00, gone).
        let next = try proposal(leavingID)
        XCTAssertEqual(next["rides"]?.arrayValue?.first?["trip_id"], .string("T0845"), "\(next)")
        // Arrive-by: the latest one not cancelled that arrives by 08:50 (not the 08:45, arriving 08:53).
        let before = try proposal(arrivingID)
        XCTAssertEqual(before["rides"]?.arrayValue?.first?["trip_id"], .string("T0800"), "\(before)")
        XCTAssertLessThanOrEqual(try XCTUnwrap(date(before["arrival"])), try XCTUnwrap(date(.string("2022-03-02T08:50:00-03:00"))))

        // Named by line and time, in the region's own time.
        let shown = try harness.umctl(["plan", "show", leavingID])
        XCTAssertTrue(shown.stdout.contains("bus 7 at 08:45 instead of the cancelled 08:15"), shown.stdout)
        let shownBefore = try harness.umctl(["plan", "show", arrivingID])
        XCTAssertTrue(shownBefore.stdout.contains("bus 7 at 08:00 instead of the cancelled 08:30"), shownBefore.stdout)
    }
}
