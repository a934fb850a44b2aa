import Foundation
import TestSupport
import WireProtocol
import XCTest

/// `PinnedRideBoardsItsTripsNearestStopTests` on a small written region: bus B6 calls at Station
/// and, 6 minutes later, at Park (900 m east) on its way to Campus; bus B2 runs from Hill to
/// Park. A plan from next to Station to Campus with B6 pinned at Station; Hill inserted before
/// it, the ride from Hill comes to Park, and must not walk 900 m on to Station for the bus that
/// calls at Park itself.
final class PinnedRideBoardsItsTripsNearestStopOnAWrittenFeedTests: SharedDaemonTestCase {
    static let region = SmallRegion(name: "pintown", latitude: 61.5, longitude: 23.76, spacing: 300)
    static let origin = SmallRegion.text(region.point(row: 1, column: 0))
    static let hill = SmallRegion.text(region.point(row: 6, column: 3))
    static let destination = SmallRegion.text(region.point(row: 8, column: 7))
    /// 300 m north of Park, 2.5 km from Campus.
    static let nearPark = SmallRegion.text(region.point(row: 1, column: 3))

    override class func makeSharedDaemon() throws -> DaemonHarness {
        let harness = try DaemonHarness()
        try harness.start(extraArguments: ["--clock-start", "2022-06-01T07:00:00+03:00"])
        var feed = MiniFeed()
        feed.zone = "Europe/Helsinki"
        feed.calendar = "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
            + "ALL,1,1,1,1,1,1,1,20220601,20220601\n"
        func stop(_ id: String, _ name: String, _ row: Double, _ column: Double) -> (id: String, name: String, lat: Double, lon: Double) {
            let (latitude, longitude) = region.stopPoint(row: row, column: column)
            return (id, name, latitude, longitude)
        }
        feed.stops = [stop("ST", "Station", 0, 0), stop("PA", "Park", 0, 3), stop("CA", "Campus", 8, 8), stop("HI", "Hill", 6, 3)]
        feed.routes = [("R6", "B6", 3), ("R2", "B2", 3)]
        func time(_ minutes: Int) -> String { String(format: "%02d:%02d:00", minutes / 60, minutes % 60) }
        for start in stride(from: 7 * 60, through: 10 * 60, by: 20) {
            feed.trip("B6-\(start)", route: "R6", [("ST", time(start)), ("PA", time(start + 6)), ("CA", time(start + 25))])
            feed.trip("B2-\(start)", route: "R2", [("HI", time(start + 5)), ("PA", time(start + 13))])
        }
        let imported = try harness.umctl(["region", "import", region.name, "--osm", try region.writeOSM(in: harness.directory).path,
                                          "--gtfs", try region.writeZip(feed.files, in: harness.directory, fileName: "pintown.zip").path])
        guard imported.status == 0 else { throw NSError(domain: "import", code: 1, userInfo: [NSLocalizedDescriptionKey: imported.stderr]) }
        return harness
    }

    func testAPlaceInsertedBeforeAPinnedBusBoardsItWhereTheRideBeforeComesToNotAFartherStopOfItsTrip() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", Self.origin, Self.destination, "--mode", "transit", "--at", "2022-06-01T07:50"])
        let id = String(Int64(try XCTUnwrap(created["id"]?.numberValue)))
        let segments = created["segments"]?.arrayValue ?? []
        guard segments.count == 3, segments[1]["leg"]?["rides"]?.arrayValue?.first?["from"] == .string("Station") else {
            return XCTFail("walk to Station, B6, walk: \(created)")
        }
        let pinned = try harness.json(["plan", "pin", id, "2", "09:00"])
        let bus = try XCTUnwrap(pinned["segments"]?.arrayValue?[1]["leg"]?["rides"]?.arrayValue?.first, "\(pinned)")
        XCTAssertEqual(bus["trip_id"], .string("B6-540"), "\(bus)")
        let inserted = try harness.json(["plan", "insert", id, Self.hill, "--after", "1"])
        let nodes = inserted["nodes"]?.arrayValue ?? [], legs = inserted["segments"]?.arrayValue ?? []
        let chain = nodes.map { $0["name"]?.stringValue ?? "?" }.joined(separator: " → ")
        guard let segment = inserted["pinned_segments"]?.arrayValue?.first?.numberValue.map({ Int($0) - 1 }),
              segment >= 2, nodes[1]["name"]?.stringValue?.contains("Hill") == true else {
            return XCTFail("Hill before the pinned bus: \(chain)")
        }
        let ride = try XCTUnwrap(legs[segment]["leg"]?["rides"]?.arrayValue?.first, chain)
        XCTAssertEqual(ride["trip_id"], bus["trip_id"], "the same bus: \(chain)")
        XCTAssertEqual(ride["from"], .string("Park"), "boards where the ride before comes to: \(chain)")
        XCTAssertEqual(nodes[segment]["name"], .string("Park"), chain)
        XCTAssertNotEqual(legs[segment]["missed_connection"], .bool(true), chain)
        // The way to it from Hill: B2 to Park, no walk on to Station.
        let before = try XCTUnwrap(legs[segment - 1]["leg"], chain)
        let walked = before["mode"] == .string("walk") ? before["distance_m"]?.numberValue ?? 0
            : (before["walks"]?.arrayValue ?? []).filter { $0["kind"] == .string("egress") }.compactMap { $0["distance_m"]?.numberValue }.reduce(0, +)
        XCTAssertLessThan(walked, 100, "walks \(Int(walked)) m on to \(nodes[segment]["name"]?.stringValue ?? "?"): \(chain)")
        XCTAssertEqual(inserted["pins"]?.arrayValue?.first?["departure"], ride["departure"], "the pin names the stop boarded")
    }

    /// The mirror: a place next to Park inserted after the pinned bus's stop at Campus. The bus
    /// passed Park on its way: it is left there, not ridden on to Campus to walk 2.5 km back.
    func testAPlaceInsertedAfterAPinnedBusLeavesItAtTheStopOfItsTripNearestThePlace() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", Self.origin, Self.destination, "--mode", "transit", "--at", "2022-06-01T07:50"])
        let id = String(Int64(try XCTUnwrap(created["id"]?.numberValue)))
        let stop = try XCTUnwrap(created["nodes"]?.arrayValue?.firstIndex { $0["name"] == .string("Campus") }, "\(created)")
        let pinned = try harness.json(["plan", "pin", id, "2", "09:00"])
        let bus = try XCTUnwrap(pinned["segments"]?.arrayValue?[1]["leg"]?["rides"]?.arrayValue?.first, "\(pinned)")
        let inserted = try harness.json(["plan", "insert", id, Self.nearPark, "--after", String(stop + 1)])
        let nodes = inserted["nodes"]?.arrayValue ?? [], legs = inserted["segments"]?.arrayValue ?? []
        let chain = nodes.map { $0["name"]?.stringValue ?? "?" }.joined(separator: " → ")
        guard let segment = inserted["pinned_segments"]?.arrayValue?.first?.numberValue.map({ Int($0) - 1 }),
              segment + 2 < nodes.count else { return XCTFail("a place after the pinned bus: \(chain)") }
        let ride = try XCTUnwrap(legs[segment]["leg"]?["rides"]?.arrayValue?.last, chain)
        XCTAssertEqual(ride["trip_id"], bus["trip_id"], "the same bus: \(chain)")
        XCTAssertEqual(ride["to"], .string("Park"), "leaves it nearest the place after it: \(chain)")
        XCTAssertEqual(nodes[segment + 1]["name"], .string("Park"), chain)
        XCTAssertEqual(inserted["pending"]?.arrayValue ?? [], [], chain)
        XCTAssertLessThan(legs[segment + 1]["leg"]?["distance_m"]?.numberValue ?? .infinity, 600, "the walk on from Park: \(chain)")
    }
}
