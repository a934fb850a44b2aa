import Foundation
import Transit
import WireProtocol
import XCTest

/// Issue 39 (trial 48, F9) on a written region: one bus passes two stops near the origin, and an
/// option of `plan alternatives` with fewer transfers than the answer (built by the engine's
/// forward rounds, which board a vehicle at the first stop they catch it at) walked to the
/// farther one. The region "riverside" around (61.2, 24.0), in metres east and north of its
/// origin O: a street from O 5 km east, another 1 km west; bus 6 calls at FAR
/// (400 m west of O), a minute later at NEAR (140 m east), at X (2 km) and, slowly, at D (the
/// destination, 5 km) at 08:40; bus 19 from X gets to D 15 minutes earlier, so the answer from
/// after 07:57 changes at X, and the direct bus is an option beside it. An earlier bus 6, fast,
/// is the plan's own answer (from 07:50), so the options are asked from when it leaves.
final class OptionsBoardTheNearerStopWrittenRegionTests: SharedDaemonTestCase {
    static let grid = MetricGrid(latitude: 61.2, longitude: 24.0)
    static func point(east: Double, north: Double) -> (Double, Double) { grid.point(east: east, north: north) }
    static func text(_ point: (Double, Double)) -> String { MetricGrid.text(point) }
    static let origin = text(point(east: 0, north: 0)), destination = text(point(east: 5_000, north: 0))

    /// Two streets from O: east to D, and west past FAR.
    static func writeOSM(in directory: URL) throws -> URL {
        var document = OSMDocument()
        let nodes = [0.0, 140, 1_000, 2_000, 3_000, 4_000, 5_000, -400, -1_000]
        for (k, east) in nodes.enumerated() {
            let (lat, lon) = point(east: east, north: 0)
            document.node(k + 1, latitude: lat, longitude: lon)
        }
        document.way(100, Array(1...7), tags: [("highway", "residential"), ("name", "Riverside East Road")])
        document.way(101, [1, 8, 9], tags: [("highway", "residential"), ("name", "Riverside West Road")])
        return try document.write(to: directory.appendingPathComponent("riverside.osm"))
    }

    static func writeFeed(in directory: URL) throws -> URL {
        var feed = MiniFeed()
        feed.zone = "Europe/Helsinki"
        let far = point(east: -400, north: 5), near = point(east: 140, north: 5), x = point(east: 2_000, north: 5)
        let d = point(east: 5_000, north: 5)
        feed.stops = [("FAR", "Riverside West", far.0, far.1), ("NEAR", "Riverside East", near.0, near.1),
                      ("X", "Riverside Bridge", x.0, x.1), ("D", "Riverside End", d.0, d.1)]
        feed.routes = [("R6", "6", 3), ("R19", "19", 3)]
        feed.trip("early", route: "R6", [("FAR", "07:58:00"), ("NEAR", "07:59:00"), ("X", "08:02:00"), ("D", "08:20:00")])
        feed.trip("six", route: "R6", [("FAR", "08:08:00"), ("NEAR", "08:09:00"), ("X", "08:15:00"), ("D", "08:40:00")])
        feed.trip("nineteen", route: "R19", [("X", "08:17:00"), ("D", "08:25:00")])
        let url = directory.appendingPathComponent("riverside.zip")
        try GTFSZip.write(feed.files, to: url)
        return url
    }

    override class func makeSharedDaemon() throws -> DaemonHarness {
        let harness = try DaemonHarness(regionsFrom: try TampereRegion.dataDirectory())
        try harness.start()
        try harness.importWrittenRegion("riverside", osm: try writeOSM(in: harness.directory), gtfs: try writeFeed(in: harness.directory))
        return harness
    }

    func testEveryOptionBoardsTheBusAtTheStopOfItsTripNearestTheOrigin() throws {
        let plan = try harness.json(["plan", "new", Self.origin, Self.destination, "--mode", "transit", "--at", "2022-01-12T07:50"])
        let id = try id(plan)
        // The ride from the door itself (its walk to the stop inside the leg), as a user merges it.
        let merged = try harness.json(["plan", "mode", id, "1", "transit"])
        let segment = try XCTUnwrap(transitSegments(merged).first, "\(merged)")
        let options = try XCTUnwrap(harness.json(["plan", "alternatives", id, String(segment + 1), "--count", "4"])["options"]?
            .arrayValue, "options")
        let trips = options.map { ($0["rides"]?.arrayValue ?? []).compactMap { $0["trip_id"]?.stringValue } }
        XCTAssertTrue(trips.contains(["six"]), "the direct bus is an option: \(trips)")
        XCTAssertTrue(trips.contains(["six", "nineteen"]), "the change at X is one: \(trips)")
        for option in options {
            let ride = option["rides"]?.arrayValue?.first
            XCTAssertEqual(ride?["from"]?.stringValue, "Riverside East",
                           "option leaving \(option["departure"]?.stringValue ?? "?") on \(ride?["trip_id"]?.stringValue ?? "?")")
        }
        let direct = try XCTUnwrap(options.first { $0["rides"]?.arrayValue?.compactMap { $0["trip_id"]?.stringValue } == ["six"] })
        XCTAssertGreaterThanOrEqual(direct["departure"]?.stringValue ?? "", "2022-01-12T08:06:00+02:00",
                                    "it leaves for the 08:09 call 140 m away, not the 08:08 one 400 m away")
    }
}
