import Foundation
import TestSupport
import WireProtocol
import XCTest

/// The user's decisions across features, in one sitting: a chosen departure, a stay, a moved
/// place and a refine, then the region imported again from the same files and the daemon
/// restarted. Each feature has its own tests; this one holds what they must keep together: the
/// chosen ride stays the chosen ride through every later edit, the re-import and the restart,
/// and the plan after the restart is the plan before it.
final class DecisionsSurviveReimportAndRestartTests: XCTestCase {
    /// A written town with line 5 from A (south-west) to B (north-east) every 10 minutes from
    /// 08:00 to 09:50, a ten-minute ride; C and D are street corners off the line.
    static let region = SmallRegion(name: "lahti", latitude: 60.9827, longitude: 25.6612)
    static let clockStart = "2022-01-12T07:30:00+02:00"

    static func point(_ row: Double, _ column: Double) -> String { SmallRegion.text(region.stopPoint(row: row, column: column)) }
    static let a = point(0, 0), b = point(8, 8), c = point(8, 5), d = point(6, 5)

    static func feed(in directory: URL) throws -> URL {
        var feed = MiniFeed()
        feed.zone = "Europe/Helsinki"
        let (aLat, aLon) = region.stopPoint(row: 0, column: 0), (bLat, bLon) = region.stopPoint(row: 8, column: 8)
        feed.stops = [("A", "Stop A", aLat, aLon), ("B", "Stop B", bLat, bLon)]
        feed.routes = [("R", "5", 3)]
        for run in 0..<12 {
            let leaves = 8 * 60 + run * 10
            func clock(_ minutes: Int) -> String { String(format: "%02d:%02d:00", minutes / 60, minutes % 60) }
            feed.trip("T\(run)", route: "R", [("A", clock(leaves)), ("B", clock(leaves + 10))])
        }
        return try region.writeZip(feed.files, in: directory, fileName: "lahti.zip")
    }

    private func firstRide(_ plan: JSONValue) -> JSONValue? { segments(plan).first?["leg"]?["rides"]?.arrayValue?.first }

    func testAChosenDepartureIsKeptThroughAStayAMoveARefineAReimportAndARestart() throws {
        let harness = try startDaemon(extraArguments: ["--clock-start", Self.clockStart])
        let osm = try Self.region.writeOSM(in: harness.directory).path, gtfs = try Self.feed(in: harness.directory).path
        let imported = try harness.umctl(["region", "import", Self.region.name, "--osm", osm, "--gtfs", gtfs])
        XCTAssertEqual(imported.status, 0, imported.stderr)

        let created = try harness.json(["plan", "new", Self.a, Self.b, Self.c, "--mode", "walk", "--at", "2022-01-12T07:55"])
        let id = String(Int64(try XCTUnwrap(created["id"]?.numberValue, "\(created)")))
        _ = try harness.json(["plan", "mode", id, "1", "transit"])
        let options = try harness.json(["plan", "alternatives", id, "1"])["options"]?.arrayValue ?? []
        XCTAssertGreaterThanOrEqual(options.count, 3, "\(options)")
        let third = try XCTUnwrap(options.dropFirst(2).first?["rides"]?.arrayValue?.first, "\(options)")
        let chosenTrip = try XCTUnwrap(third["trip_id"]?.stringValue, "\(third)")
        let chosen = try harness.json(["plan", "choose", id, "1", "3"])
        XCTAssertEqual(firstRide(chosen)?["trip_id"]?.stringValue, chosenTrip, "\(chosen)")

        // Later edits elsewhere in the plan leave the chosen ride alone.
        let stayed = try harness.json(["plan", "stay", id, "2", "15m"])
        XCTAssertEqual(firstRide(stayed)?["trip_id"]?.stringValue, chosenTrip, "after a stay at B: \(stayed)")
        let moved = try harness.json(["plan", "move", id, "3", Self.d])
        XCTAssertEqual(firstRide(moved)?["trip_id"]?.stringValue, chosenTrip, "after moving C: \(moved)")
        let refined = try harness.json(["plan", "refine", id])
        XCTAssertEqual(firstRide(refined)?["trip_id"]?.stringValue, chosenTrip, "after a refine: \(refined)")
        XCTAssertEqual(segments(refined).first?["locked"], .bool(true), "\(refined)")
        XCTAssertTrue(segments(refined).allSatisfy { $0["leg"] != .null }, "every segment has its leg: \(refined)")

        // The same files imported again: the same trip is found again, and nothing is proposed.
        let again = try harness.umctl(["region", "import", Self.region.name, "--osm", osm, "--gtfs", gtfs])
        XCTAssertEqual(again.status, 0, again.stderr)
        let reimported = try harness.json(["plan", "refresh", id])
        XCTAssertEqual(firstRide(reimported)?["trip_id"]?.stringValue, chosenTrip, "after the re-import: \(reimported)")
        XCTAssertEqual(firstRide(reimported)?["departure"], firstRide(refined)?["departure"])
        XCTAssertEqual(reimported["pending"]?.arrayValue ?? [], [], "nothing to propose on the same timetable: \(reimported)")

        let before = try harness.json(["plan", "show", id])
        XCTAssertEqual(harness.stop(), 0, harness.log)
        try harness.start(extraArguments: ["--clock-start", Self.clockStart])
        let after = try harness.json(["plan", "show", id])
        XCTAssertEqual(after, before, "the plan after a restart is the plan before it")
    }
}
