import Foundation
import Glibc
import Planner
@testable import Streets
import Synchronization
import XCTest

/// Importing OSM extracts as regions: manifest, skipping, atomic switch, failures, extra steps.
final class RegionImportTests: XCTestCase {
    func entries(_ dataDirectory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dataDirectory.appendingPathComponent("regions").path).sorted()
    }

    func testImportRecordsSourcesExtentTimeZoneAndCounts() throws {
        let fixture = try TampereFixture.shared()
        let manifest = fixture.manifest
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: TampereFixture.osmFile.path)[.size] as? NSNumber)
        XCTAssertEqual(manifest.sources.map(\.role), ["osm"])
        XCTAssertEqual(manifest.sources.first?.size, size.int64Value)
        XCTAssertEqual(manifest.sources.first?.sha256.count, 64)
        XCTAssertTrue(manifest.boundingBox.contains(TampereFixture.keskustori))
        XCTAssertTrue(manifest.boundingBox.contains(TampereFixture.hervanta))
        XCTAssertFalse(manifest.boundingBox.contains(Coordinate(latitude: 60.17, longitude: 24.94)), "Helsinki is not in the extract")
        XCTAssertEqual(manifest.timeZone, "Europe/Helsinki")
        for key in ["osm_nodes", "osm_ways", "routing_nodes", "routing_segments", "places", "streets", "pois"] {
            XCTAssertGreaterThan(manifest.counts[key] ?? 0, 0, key)
        }
        let catalog = RegionCatalog(dataDirectory: fixture.dataDirectory)
        XCTAssertEqual(try catalog.regions().map(\.name), ["tampere"])
        XCTAssertEqual(try catalog.region(named: "tampere"), manifest)
        for file in ["nodes.mem", "segments.mem", "ways.mem", "places.sqlite", "manifest.json"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: catalog.directory(of: "tampere").appendingPathComponent(file).path), file)
        }
    }

    func testReimportingIdenticalSourcesIsSkippedUnlessForced() throws {
        let dataDirectory = try TampereFixture.temporaryDirectory("skip", removedAfter: self)
        let importer = RegionImporter(dataDirectory: dataDirectory)
        let first = try importer.importRegion(name: "tampere", osm: TampereFixture.osmFile) { _ in }
        XCTAssertFalse(first.skipped)
        let versionsBefore = try entries(dataDirectory)
        let again = try importer.importRegion(name: "tampere", osm: TampereFixture.osmFile) { _ in }
        XCTAssertTrue(again.skipped)
        XCTAssertEqual(again.manifest, first.manifest)
        XCTAssertEqual(try entries(dataDirectory), versionsBefore, "a skipped import touches nothing")
        let forced = try importer.importRegion(name: "tampere", osm: TampereFixture.osmFile, force: true) { _ in }
        XCTAssertFalse(forced.skipped)
        XCTAssertGreaterThan(forced.manifest.importedAt, first.manifest.importedAt.addingTimeInterval(-1))
        let after = try entries(dataDirectory)
        XCTAssertEqual(after.count, versionsBefore.count, "the old version is deleted after the switch: \(after)")
        XCTAssertNotEqual(after, versionsBefore, "a forced import makes a new version")

        try RegionCatalog(dataDirectory: dataDirectory).remove(named: "tampere")
        XCTAssertEqual(try RegionCatalog(dataDirectory: dataDirectory).regions(), [])
        XCTAssertEqual(try entries(dataDirectory), [], "nothing is left, the lock file included")
    }

    /// A source named by a path that is a named pipe is refused at once (reading it would wait
    /// for a writer that may never come).
    func testASourceThatIsNotARegularFileIsRefusedWithoutReadingIt() throws {
        let dataDirectory = try TampereFixture.temporaryDirectory("fifo", removedAfter: self)
        let pipe = dataDirectory.appendingPathComponent("streets.osm")
        XCTAssertEqual(mkfifo(pipe.path, 0o600), 0)
        let importer = RegionImporter(dataDirectory: dataDirectory.appendingPathComponent("data"))
        XCTAssertThrowsError(try importer.importRegion(name: "piped", osm: pipe) { _ in }) { error in
            XCTAssertEqual((error as? StreetsError)?.code, "import_failed")
            XCTAssertTrue("\(error)".contains("\(pipe.path) is not a regular file"), "\(error)")
        }
    }

    func testTruncatedPbfImportFailsAndLeavesThePreviousRegionWorking() async throws {
        let dataDirectory = try TampereFixture.temporaryDirectory("truncated", removedAfter: self)
        let importer = RegionImporter(dataDirectory: dataDirectory)
        let good = try importer.importRegion(name: "tampere", osm: TampereFixture.osmFile) { _ in }
        let before = try entries(dataDirectory)

        let truncated = try TampereFixture.temporaryDirectory("truncated-source", removedAfter: self).appendingPathComponent("tampere.osm.pbf")
        let whole = try Data(contentsOf: TampereFixture.osmFile)
        try whole.prefix(whole.count / 3).write(to: truncated)
        XCTAssertThrowsError(try importer.importRegion(name: "tampere", osm: truncated, force: true) { _ in }) { error in
            XCTAssertEqual((error as? StreetsError)?.code, "import_failed", "\(error)")
            XCTAssertFalse("\(error)".contains(RegionCatalog(dataDirectory: dataDirectory).regionsDirectory.path),
                           "no path of the import's own: \(error)")
            XCTAssertNil("\(error)".range(of: "0x[0-9a-f]{6,}", options: .regularExpression), "no pointer values: \(error)")
        }
        let catalog = RegionCatalog(dataDirectory: dataDirectory)
        XCTAssertEqual(try catalog.region(named: "tampere"), good.manifest)
        XCTAssertEqual(try entries(dataDirectory), before, "the failed version was removed")
        let router = try StreetRouter(regions: try catalog.regions(), dataDirectory: dataDirectory, workers: 1)
        defer { router.shutdown() }
        let leg = try await router.leg(from: TampereFixture.keskustori, to: TampereFixture.railwayStation, mode: .walk)
        XCTAssertGreaterThan(try XCTUnwrap(leg.distance), 0)
        XCTAssertFalse(try PlaceIndex(regionDirectory: catalog.directory(of: "tampere")).search("keskus", limit: 3).isEmpty)
    }

    func testPlanetsplittersWordsLoseTheStagingPathAndPointerValues() {
        let staging = URL(fileURLWithPath: "/data/regions/.tampere.1795993326-d303ca47")
        XCTAssertEqual(RegionImporter.readable(
            "Cannot open file '/data/regions/.tampere.1795993326-d303ca47/nodesx.0x558171109190.tmp' for writing [No space left on device].",
            workingIn: staging), "Cannot open file 'nodesx.tmp' for writing [No space left on device].")
        XCTAssertEqual(RegionImporter.readable("cannot write to /data/regions/.tampere.1795993326-d303ca47", workingIn: staging),
                       "cannot write to the region's new version")
    }

    func testAdditionalStepRunsInTheStagingDirectoryBeforeTheSwitch() throws {
        let dataDirectory = try TampereFixture.temporaryDirectory("steps", removedAfter: self)
        let feed = try TampereFixture.temporaryDirectory("feed", removedAfter: self).appendingPathComponent("feed.txt")
        try Data("stops".utf8).write(to: feed)
        let catalog = RegionCatalog(dataDirectory: dataDirectory)
        let stagingSeen = Mutex<URL?>(nil)
        let step = RegionImportStep(name: "transit timetable", sources: [feed]) { staging, progress in
            stagingSeen.withLock { $0 = staging }
            XCTAssertFalse(FileManager.default.fileExists(atPath: catalog.directory(of: "tampere").path),
                           "the region is not live while steps run")
            progress(RegionImportProgress(phase: "transit timetable", fraction: 0.5, detail: "stops"))
            try Data("timetable".utf8).write(to: staging.appendingPathComponent("timetable.txt"))
            try PlaceIndex.addStops([IndexedStop(id: "0001", name: "Keskustori", coordinate: TampereFixture.keskustori,
                                                 modes: ["tram"])], toRegionDirectory: staging)
            return RegionImportStep.Outcome(providesTransit: true)
        }
        let updates = Mutex<[String]>([])
        let result = try RegionImporter(dataDirectory: dataDirectory)
            .importRegion(name: "tampere", osm: TampereFixture.osmFile, additionalSteps: [step]) { progress in
                updates.withLock { $0.append("\(progress.phase) \(progress.fraction.map { "\($0)" } ?? "") \(progress.detail)") }
            }
        // The streets' parts run at once and interleave; a step made with `run:` starts its work once both are built.
        let seen = updates.withLock { $0 }
        XCTAssertTrue(seen.first?.hasPrefix("checking sources") == true, "\(seen)")
        XCTAssertTrue(seen.suffix(3).allSatisfy { $0.hasPrefix("time zone") || $0.hasPrefix("switching") }, "\(seen)")
        let stepWork = try XCTUnwrap(seen.firstIndex(of: "transit timetable 0.5 stops"), "\(seen)")
        for built in ["building routing database 1.0", "indexing places 1.0"] {
            XCTAssertLessThan(try XCTUnwrap(seen.firstIndex { $0.hasPrefix(built) }, built), stepWork, "\(seen)")
        }
        let live = catalog.directory(of: "tampere")
        XCTAssertEqual(try String(contentsOf: live.appendingPathComponent("timetable.txt"), encoding: .utf8), "timetable")
        XCTAssertEqual(stagingSeen.withLock { $0?.lastPathComponent }, try FileManager.default.destinationOfSymbolicLink(atPath: live.path))
        XCTAssertEqual(result.manifest.steps, ["transit timetable"])
        XCTAssertEqual(result.manifest.sources.map(\.role), ["osm", "transit timetable"])
        XCTAssertEqual(result.manifest.counts["stops"], 1)
        XCTAssertTrue(result.manifest.hasTransit, "recorded from the step's outcome")

        // A changed feed is not skipped; a failing step leaves the previous version live.
        try Data("stops v2".utf8).write(to: feed)
        let failing = RegionImportStep(name: "transit timetable", sources: [feed]) { _, _ in
            throw CocoaError(.fileReadCorruptFile)
        }
        XCTAssertThrowsError(try RegionImporter(dataDirectory: dataDirectory)
            .importRegion(name: "tampere", osm: TampereFixture.osmFile, additionalSteps: [failing]) { _ in }) { error in
            guard case .importFailed(let phase, _) = error as? StreetsError else { return XCTFail("\(error)") }
            XCTAssertEqual(phase, "transit timetable")
        }
        XCTAssertEqual(try catalog.region(named: "tampere"), result.manifest)
        XCTAssertTrue(FileManager.default.fileExists(atPath: live.appendingPathComponent("timetable.txt").path))
    }

    func testBadInputIsRejectedBeforeAnythingIsWritten() throws {
        let dataDirectory = try TampereFixture.temporaryDirectory("bad", removedAfter: self)
        let importer = RegionImporter(dataDirectory: dataDirectory)
        for name in ["", "Tampere", "../etc", ".hidden", "a b"] {
            XCTAssertThrowsError(try importer.importRegion(name: name, osm: TampereFixture.osmFile) { _ in }) { error in
                XCTAssertEqual((error as? StreetsError)?.code, "invalid_region_name", name)
            }
        }
        XCTAssertThrowsError(try importer.importRegion(name: "x", osm: URL(fileURLWithPath: "/nonexistent/x.osm.pbf")) { _ in }) {
            XCTAssertEqual(($0 as? StreetsError)?.code, "source_not_found")
        }
        XCTAssertThrowsError(try importer.importRegion(name: "x", osm: TampereFixture.dataFolder.appendingPathComponent("tampere.zip")) { _ in }) {
            XCTAssertEqual(($0 as? StreetsError)?.code, "unsupported_source_format")
        }
        XCTAssertThrowsError(try importer.importRegion(name: "x", osm: TampereFixture.osmFile, timeZone: "Mars/Olympus") { _ in }) {
            XCTAssertEqual(($0 as? StreetsError)?.code, "invalid_time_zone")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dataDirectory.appendingPathComponent("regions").path))
    }

    func testAnImportWhoseZoneNothingDecidesFailsAskingForTimeZoneAndLeavesNoRegion() throws {
        let dataDirectory = try TampereFixture.temporaryDirectory("undecided", removedAfter: self)
        // A zone table whose only location is in Antarctica: nothing within reach of Tampere.
        let table = dataDirectory.appendingPathComponent("zone.tab")
        try Data("# test\nAQ\t-7750+16636\tAntarctica/McMurdo\n".utf8).write(to: table)
        XCTAssertThrowsError(try RegionImporter(dataDirectory: dataDirectory).importRegion(
            name: "tampere", osm: TampereFixture.osmFile, zoneTable: { try RegionTimeZones(file: table.path) }) { _ in }) { error in
            XCTAssertEqual((error as? StreetsError)?.code, "time_zone_undecided")
            XCTAssertTrue("\(error)".contains("--time-zone"), "\(error)")
        }
        XCTAssertNil(try RegionCatalog(dataDirectory: dataDirectory).region(named: "tampere"))
    }

    func testAZoneGivenAsAnAbbreviationOrOffsetIsRejectedAsNotIANA() throws {
        let importer = RegionImporter(dataDirectory: try TampereFixture.temporaryDirectory("zone", removedAfter: self))
        for zone in ["GMT+0200", "EST5", "/etc/passwd", "../zone.tab"] {
            XCTAssertThrowsError(try importer.importRegion(name: "x", osm: TampereFixture.osmFile, timeZone: zone) { _ in }) {
                XCTAssertEqual(($0 as? StreetsError)?.code, "invalid_time_zone", zone)
            }
        }
    }
}
