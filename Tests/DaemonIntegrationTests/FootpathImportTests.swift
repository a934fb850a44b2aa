import Daemon
import Foundation
import Planner
import Streets
import Transit
import WireProtocol
import XCTest

/// Footpaths between stops timed on the streets when the daemon imports a region with GTFS
/// (issue 6: tram↔bus changes in Tampere), with a straight line where the streets cannot answer.
final class FootpathImportTests: XCTestCase {
    private func tampereDirectory() throws -> URL {
        try TampereRegion.dataDirectory().appendingPathComponent("regions/tampere")
    }

    func testTampereImportThroughTheDaemonTimesAlmostEveryFootpathOnTheStreets() throws {
        let region = try tampereDirectory()
        let report = try XCTUnwrap(try GTFSImporter.lastReport(regionDirectory: region))
        XCTAssertGreaterThan(report.footpaths, 1_000)
        XCTAssertEqual(report.streetTimedFootpaths + report.straightLineFootpaths, report.footpaths)
        XCTAssertGreaterThan(report.streetTimedFootpaths, report.footpaths * 9 / 10,
                             "street-timed \(report.streetTimedFootpaths) of \(report.footpaths)")
        XCTAssertTrue(report.summary.contains("\(report.streetTimedFootpaths) timed on the streets"), report.summary)

        // No footpath is quicker than the straight line at the street router's 5 km/h (less 3 %:
        // Routino measures distances on a flatter earth than our haversine, about 1 % shorter).
        let router = try TransitRouter(regionDirectory: region)
        var checked = 0
        for stop in router.stops {
            for path in router.footpaths(from: stop.id) {
                let floor = stop.coordinate.distance(to: path.stop.coordinate) / (5 / 3.6) * 0.97
                XCTAssertGreaterThanOrEqual(Double(path.walkSeconds), floor, "\(stop.id)→\(path.stop.id)")
                checked += 1
            }
        }
        XCTAssertEqual(checked, report.footpaths)
    }

    /// Issue 26: the daemon's import reads the feed beside planetsplitter and the place index,
    /// and times the footpaths as soon as the routing database is there. The region it makes
    /// is the one the step makes when run alone, after the streets are complete: the same
    /// footpaths with the same times, the same counts, the same stops in the place index.
    func testTheTimetableStepRunBesideTheStreetsGivesTheSameRegionAsTheStepRunAfterThem() throws {
        let region = try tampereDirectory().resolvingSymlinksInPath()
        let manifest = try XCTUnwrap(try RegionCatalog(dataDirectory: try TampereRegion.dataDirectory()).region(named: "tampere"))
        let work = try DaemonHarness.temporaryDirectory()
        addTeardownBlock { try? FileManager.default.removeItem(at: work) }
        let staging = work.appendingPathComponent("staging")
        try FileManager.default.copyItem(at: region, to: staging)
        for file in ["transit.sqlite", "transit.sqlite-wal", "transit.sqlite-shm"] {
            try? FileManager.default.removeItem(at: staging.appendingPathComponent(file))
        }
        try PlaceIndex.removeStops(fromRegionDirectory: staging)
        let feed = DaemonHarness.tampereFolder.appendingPathComponent("tampere.zip")
        let outcome = try TransitEngine.importStep(feeds: [feed], walkWorkers: 2).run(stagingDirectory: staging) { _ in }

        let atOnce = try XCTUnwrap(try GTFSImporter.lastReport(regionDirectory: region))
        let after = try XCTUnwrap(try GTFSImporter.lastReport(regionDirectory: staging))
        XCTAssertGreaterThan(atOnce.footpaths, 1_000)
        XCTAssertEqual(after.footpaths, atOnce.footpaths)
        XCTAssertEqual(after.streetTimedFootpaths, atOnce.streetTimedFootpaths)
        XCTAssertEqual(after.straightLineFootpaths, atOnce.straightLineFootpaths)
        for key in [TransitEngine.stopsBeyondStreets, TransitEngine.straightLineFootpaths] {
            XCTAssertEqual(outcome.counts[key], manifest.counts[key], key)
        }
        XCTAssertEqual(try PlaceIndex(regionDirectory: staging).counts(), try PlaceIndex(regionDirectory: region).counts())
        let routerAtOnce = try TransitRouter(regionDirectory: region), routerAfter = try TransitRouter(regionDirectory: staging)
        XCTAssertEqual(routerAfter.stops.map(\.id), routerAtOnce.stops.map(\.id))
        for stop in routerAtOnce.stops {
            XCTAssertEqual(routerAfter.footpaths(from: stop.id).map { "\($0.stop.id) \($0.walkSeconds)" },
                           routerAtOnce.footpaths(from: stop.id).map { "\($0.stop.id) \($0.walkSeconds)" }, stop.id)
        }
    }

    func testTheRegionDocumentShowsHowManyFootpathsAreStraightLines() throws {
        let data = try TampereRegion.dataDirectory()
        let report = try XCTUnwrap(try GTFSImporter.lastReport(regionDirectory: try tampereDirectory()))
        let manifest = try XCTUnwrap(try RegionCatalog(dataDirectory: data).region(named: "tampere"))
        let document = WireDocuments.region(manifest, report: report, day: Date(), now: Date())
        XCTAssertEqual(document.straightLineFootpaths, report.straightLineFootpaths > 0 ? report.straightLineFootpaths : nil)
        var none = report
        none.straightLineFootpaths = 0
        XCTAssertNil(WireDocuments.region(manifest, report: none, day: Date(), now: Date()).straightLineFootpaths,
                     "null when every footpath follows the streets")
        XCTAssertNil(WireDocuments.region(manifest, report: nil, day: Date(), now: Date()).straightLineFootpaths)
    }

    func testTramToBusChangeAtKeskustoriIsTimedAlongTheStreetsNotTheStraightLine() throws {
        let region = try tampereDirectory()
        let router = try TransitRouter(regionDirectory: region)
        // Keskustori A (tram stop, 0805) to Keskustori H (bus stop, 0001), about 135 m apart.
        let tram = try XCTUnwrap(router.stops.first { $0.id == "0805" })
        let bus = try XCTUnwrap(router.stops.first { $0.id == "0001" })
        XCTAssertTrue(tram.modes.contains("tram"), "\(tram.modes)")
        XCTAssertTrue(bus.modes.contains("bus"), "\(bus.modes)")
        let path = try XCTUnwrap(router.footpaths(from: tram.id).first { $0.stop.id == bus.id }, "footpath 0805→0001")

        let timer = try StreetWalkTimer(regionDirectory: region, workers: 1)
        defer { timer.shutdown() }
        let streets = try XCTUnwrap(try timer.walkingSeconds(pairs: [(tram.coordinate, bus.coordinate)], pace: .normal).first ?? nil)
        let straight = try XCTUnwrap(StraightLineWalking().walkingSeconds(from: tram.coordinate, to: bus.coordinate, pace: .normal))
        XCTAssertEqual(path.walkSeconds, Int(streets.rounded(.up)), "the stored footpath is the street router's walk")
        XCTAssertNotEqual(path.walkSeconds, Int(straight.rounded(.up)), "not the straight-line estimate")
        XCTAssertGreaterThanOrEqual(Double(path.walkSeconds), tram.coordinate.distance(to: bus.coordinate) / (5 / 3.6))
    }

    func testImportStepOnAStagingCopyFallsBackToTheStraightLineForStopsWithNoRoad() throws {
        // A staging directory like the importer's: the Tampere routing database, no timetable yet.
        let work = try DaemonHarness.temporaryDirectory()
        addTeardownBlock { try? FileManager.default.removeItem(at: work) }
        let staging = work.appendingPathComponent("staging")
        try FileManager.default.copyItem(at: try tampereDirectory().resolvingSymlinksInPath(), to: staging)
        try? FileManager.default.removeItem(at: staging.appendingPathComponent("transit.sqlite"))
        // Two stops at Keskustori and two in Näsijärvi, over 1 km from any road.
        let feed = try writeFeed(in: work, stops: [
            ("K1", 61.49751, 23.76151), ("K2", 61.49764, 23.759084722),
            ("L1", 61.5550, 23.7400), ("L2", 61.5560, 23.7400),
        ])
        let outcome = try TransitEngine.importStep(feeds: [feed], walkWorkers: 2).run(stagingDirectory: staging) { _ in }
        let report = try XCTUnwrap(try GTFSImporter.lastReport(regionDirectory: staging))
        XCTAssertEqual(report.footpaths, 4, "K1↔K2 and L1↔L2")
        XCTAssertEqual(report.streetTimedFootpaths, 2)
        XCTAssertEqual(report.straightLineFootpaths, 2)
        XCTAssertEqual(outcome.counts[TransitEngine.straightLineFootpaths], 2, "the fallback is counted, not silent")
        let router = try TransitRouter(regionDirectory: staging)
        let lake = try XCTUnwrap(router.footpaths(from: "L1").first { $0.stop.id == "L2" })
        let l1 = try XCTUnwrap(router.stops.first { $0.id == "L1" }), l2 = try XCTUnwrap(router.stops.first { $0.id == "L2" })
        let straight = try XCTUnwrap(StraightLineWalking().walkingSeconds(from: l1.coordinate, to: l2.coordinate, pace: .normal))
        XCTAssertEqual(lake.walkSeconds, Int(straight.rounded(.up)))
    }

    /// When the street router cannot start on the staging directory (no routing database there),
    /// every footpath is timed as a straight line, and the step's counts say so (the import
    /// turns them into a note and `status` shows them), where before only the report's summary did.
    func testImportStepCountsTheStraightLineFootpathsWhenTheStreetRouterCannotStart() throws {
        let work = try DaemonHarness.temporaryDirectory()
        addTeardownBlock { try? FileManager.default.removeItem(at: work) }
        let staging = work.appendingPathComponent("staging")
        try FileManager.default.copyItem(at: try tampereDirectory().resolvingSymlinksInPath(), to: staging)
        try? FileManager.default.removeItem(at: staging.appendingPathComponent("transit.sqlite"))
        for file in try FileManager.default.contentsOfDirectory(atPath: staging.path) where file.hasSuffix(".mem") {
            try FileManager.default.removeItem(at: staging.appendingPathComponent(file)) // Routino's database
        }
        let feed = try writeFeed(in: work, stops: [("K1", 61.49751, 23.76151), ("K2", 61.49764, 23.759084722)])
        let outcome = try TransitEngine.importStep(feeds: [feed], walkWorkers: 1).run(stagingDirectory: staging) { _ in }
        let report = try XCTUnwrap(try GTFSImporter.lastReport(regionDirectory: staging))
        XCTAssertEqual(report.streetTimedFootpaths, 0)
        XCTAssertEqual(outcome.counts[TransitEngine.straightLineFootpaths], report.footpaths)
        XCTAssertGreaterThan(report.footpaths, 0, "K1↔K2")
    }

    /// A one-route GTFS zip calling at `stops` in order.
    private func writeFeed(in directory: URL, stops: [(id: String, lat: Double, lon: Double)]) throws -> URL {
        var feed = MiniFeed()
        feed.zone = "Europe/Helsinki"
        feed.agencyName = "Nysse"
        feed.stops = stops.map { ($0.id, "Stop \($0.id)", $0.lat, $0.lon) }
        feed.routes = [("R", "1", 3)]
        feed.trip("T", route: "R", stops.enumerated().map { ($0.element.id, "08:0\($0.offset):00") })
        let url = directory.appendingPathComponent("feed.zip")
        try GTFSZip.write(feed.files, to: url)
        return url
    }
}
