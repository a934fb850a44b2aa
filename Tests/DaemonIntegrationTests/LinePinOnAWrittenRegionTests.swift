import Foundation
import Transit
import WireProtocol
import XCTest

/// Trial 60 F1 on a written region: line 1 leaves O with line 2 every ten minutes and arrives at
/// D later, so every ride of line 1 is dominated and `plan alternatives` lists none; `plan pin
/// --line 1` takes line 1's next ride the traveller can catch all the same (it found none:
/// `no_leg_to_pin`). The region "lineside" around (61.3, 24.1), in metres east of its origin: a
/// street 5 km east; stop O 140 m along it, stop D at its end.
final class LinePinOnAWrittenRegionTests: SharedDaemonTestCase {
    static let grid = MetricGrid(latitude: 61.3, longitude: 24.1)
    static func point(east: Double, north: Double) -> (Double, Double) { grid.point(east: east, north: north) }
    static let origin = MetricGrid.text(point(east: 0, north: 0)), destination = MetricGrid.text(point(east: 5_000, north: 0))

    static func writeOSM(in directory: URL) throws -> URL {
        var document = OSMDocument()
        for (k, east) in [0.0, 140, 1_000, 2_000, 3_000, 4_000, 5_000].enumerated() {
            let (lat, lon) = point(east: east, north: 0)
            document.node(k + 1, latitude: lat, longitude: lon)
        }
        document.way(100, Array(1...7), tags: [("highway", "residential"), ("name", "Lineside Road")])
        return try document.write(to: directory.appendingPathComponent("lineside.osm"))
    }

    static func writeFeed(in directory: URL) throws -> URL {
        var feed = MiniFeed()
        feed.zone = "Europe/Helsinki"
        let o = point(east: 140, north: 5), d = point(east: 5_000, north: 5)
        feed.stops = [("O", "Lineside Start", o.0, o.1), ("D", "Lineside End", d.0, d.1)]
        feed.routes = [("R1", "1", 3), ("R2", "2", 3)]
        // Line 1 takes 40 minutes, line 2 15, leaving together.
        for (k, (leaves, slow, fast)) in [("08:10", "08:50", "08:25"), ("08:20", "09:00", "08:35"), ("08:30", "09:10", "08:45")].enumerated() {
            feed.trip("slow\(k + 1)", route: "R1", [("O", "\(leaves):00"), ("D", "\(slow):00")])
            feed.trip("fast\(k + 1)", route: "R2", [("O", "\(leaves):00"), ("D", "\(fast):00")])
        }
        let url = directory.appendingPathComponent("lineside.zip")
        try GTFSZip.write(feed.files, to: url)
        return url
    }

    override class func makeSharedDaemon() throws -> DaemonHarness {
        let harness = try DaemonHarness(regionsFrom: try TampereRegion.dataDirectory())
        try harness.start()
        try harness.importWrittenRegion("lineside", osm: try writeOSM(in: harness.directory), gtfs: try writeFeed(in: harness.directory))
        return harness
    }

    private func trips(_ leg: JSONValue?) -> [String] {
        (leg?["rides"]?.arrayValue ?? []).compactMap { $0["trip_id"]?.stringValue }
    }

    /// The plan from O at 08:05, merged into one ride from the door, and its transit segment.
    private func plan() throws -> (id: String, segment: Int) {
        let created = try harness.json(["plan", "new", Self.origin, Self.destination, "--mode", "transit", "--at", "2022-01-12T08:05"])
        let id = try id(created)
        let merged = try harness.json(["plan", "mode", id, "1", "transit"])
        return (id, try XCTUnwrap(transitSegments(merged).first, "\(merged)"))
    }

    func testPinningADominatedLineTakesItsFirstRideTheTravellerCanCatch() throws {
        let (id, segment) = try plan()
        let options = try XCTUnwrap(harness.json(["plan", "alternatives", id, String(segment + 1)])["options"]?.arrayValue, "options")
        XCTAssertFalse(options.contains { trips($0).contains { $0.hasPrefix("slow") } }, "line 1 is dominated: \(options)")
        let pinned = try harness.json(["plan", "pin", id, String(segment + 1), "--line", "1"])
        XCTAssertEqual(trips(segments(pinned).dropFirst(segment).first?["leg"]), ["slow1"], "\(pinned)")
    }

    func testPinningADominatedLineAtAMinuteTakesItsRideThenWithoutSayingNoneLeaves() throws {
        let (id, segment) = try plan()
        let pinned = try harness.json(["plan", "pin", id, String(segment + 1), "--line", "1", "--at", "08:20"])
        XCTAssertEqual(trips(segments(pinned).dropFirst(segment).first?["leg"]), ["slow2"], "\(pinned)")
        XCTAssertNil(pinned["mode_notes"], "a ride of line 1 leaves at 08:20: \(pinned)")
    }
}
