import Daemon
import Foundation
import Glibc
import Planner
import SQLite
import Streets
import Synchronization
import Transit

/// `usefulmap-bench streets`: region import (time, memory), walk and car route latency over
/// 1,000 seeded random pairs inside Tampere, worker-pool throughput, and place search latency.
func runStreetsSuite() async throws -> SuiteReport {
    var report = SuiteReport(suite: "streets")
    let dataDirectory = try benchDataDirectory("streets")
    defer { try? FileManager.default.removeItem(at: dataDirectory) }

    let result = try importTampereStreets(into: dataDirectory, report: &report)
    report.add("import peak memory (this process)", peakMemoryMiB(), unit: "MiB")
    var children = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &children)
    report.add("import peak memory (planetsplitter)", Double(children.ru_maxrss) / 1024, unit: "MiB")
    let manifest = result.manifest
    report.notes["osm"] = "\(manifest.counts["osm_nodes"] ?? 0) nodes, \(manifest.counts["osm_ways"] ?? 0) ways"
    report.notes["places"] = "\(manifest.counts["streets"] ?? 0) streets, \(manifest.counts["pois"] ?? 0) pois"

    // Footpaths between the Nysse stops timed on these streets: the daemon's GTFS import step
    // (timetable + stop index) run on the region directory, as on an import's staging copy.
    let feed = sharedDirectory().appendingPathComponent("data/tampere/tampere.zip")
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let footpathRegion = RegionCatalog(dataDirectory: dataDirectory).directory(of: "tampere").resolvingSymlinksInPath()
    let (_, gtfsSeconds) = try time {
        try TransitEngine.importStep(feeds: [feed], walkWorkers: cores).run(stagingDirectory: footpathRegion) { _ in }
    }
    report.add("GTFS import step, footpaths timed on the streets (\(cores) workers)", gtfsSeconds * 1000, unit: "ms")
    if let gtfs = try GTFSImporter.lastReport(regionDirectory: footpathRegion) {
        report.notes["footpaths"] = "\(gtfs.footpaths) footpaths: \(gtfs.streetTimedFootpaths) timed on the streets, \(gtfs.straightLineFootpaths) straight-line"
    }
    let (_, straightSeconds) = try time {
        try GTFSImporter().importFeeds([feed], intoRegionDirectory: footpathRegion, walking: StraightLineWalking())
    }
    report.add("GTFS import, footpaths as straight lines (for comparison)", straightSeconds * 1000, unit: "ms")

    // Seeded random pairs of street points inside the city (uniform points in the extent would
    // often fall in a lake): each point is a named street's anchor, moved up to ~100 m.
    var generator = SeededGenerator(seed: 4)
    let regionDirectory = RegionCatalog(dataDirectory: dataDirectory).directory(of: "tampere")
    let streets = try Database(path: regionDirectory.appendingPathComponent("places.sqlite").path, mode: .readOnly)
        .query("SELECT latitude, longitude FROM place WHERE kind = 'street' AND latitude BETWEEN 61.43 AND 61.53 AND longitude BETWEEN 23.64 AND 23.90 ORDER BY id") {
            Coordinate(latitude: $0.double(0), longitude: $0.double(1))
        }
    func randomPoint() -> Coordinate {
        let anchor = streets.randomElement(using: &generator) ?? Coordinate(latitude: 61.4978, longitude: 23.7610)
        return Coordinate(latitude: anchor.latitude + Double.random(in: -0.0009...0.0009, using: &generator),
                          longitude: anchor.longitude + Double.random(in: -0.0018...0.0018, using: &generator))
    }
    let pairs = (0..<1_000).map { _ in (randomPoint(), randomPoint()) }
    report.notes["cores"] = "\(cores)"
    let router = try StreetRouter(regions: [manifest], dataDirectory: dataDirectory, workers: cores)
    defer { router.shutdown() }
    _ = try? await router.leg(from: pairs[0].0, to: pairs[0].1, mode: .walk) // start a worker

    for mode in [TravelMode.walk, .car] {
        var latencies: [Double] = []
        var failures = 0
        var metres = 0.0
        for (from, to) in pairs {
            let (leg, seconds) = await timeAsync { try? await router.leg(from: from, to: to, mode: mode) }
            latencies.append(seconds)
            if let leg { metres += leg.distance ?? 0 } else { failures += 1 }
        }
        report.addLatencies("\(mode.rawValue) route (sequential)", latencies)
        report.notes["\(mode.rawValue) routes"] = String(format: "%d answered (mean %.1f km), %d errors (no road within 1 km / no route)",
                                                          pairs.count - failures, metres / 1000 / Double(max(1, pairs.count - failures)), failures)
    }

    // Throughput: all pairs in flight through the pool, one worker vs one per core.
    for workers in Set([1, cores]).sorted() {
        let pool = try StreetRouter(regions: [manifest], dataDirectory: dataDirectory, workers: workers)
        _ = try? await pool.leg(from: pairs[0].0, to: pairs[0].1, mode: .car)
        let (_, seconds) = await timeAsync {
            await withTaskGroup(of: Void.self) { group in
                for (index, pair) in pairs.enumerated() {
                    group.addTask { _ = try? await pool.leg(from: pair.0, to: pair.1, mode: index.isMultiple(of: 2) ? .walk : .car) }
                }
            }
        }
        pool.shutdown()
        report.add("throughput \(workers) worker(s), walk+car", Double(pairs.count) / seconds, unit: "routes/s")
    }

    // Search: prefixes of real names (3 letters up to the whole name), near a random point.
    let index = try PlaceIndex(regionDirectory: regionDirectory)
    let names = try ["a", "e", "i", "k", "m", "p", "s", "t", "v"].flatMap { try index.search($0, limit: 200).map(\.name) }
    var searchLatencies: [Double] = []
    for _ in 0..<1_000 {
        guard let name = names.randomElement(using: &generator) else { break }
        let length = Int.random(in: min(3, name.count)...name.count, using: &generator)
        let text = String(name.prefix(length))
        let near = randomPoint()
        let (_, seconds) = time { try? index.search(text, near: near, kinds: nil, limit: 10) }
        searchLatencies.append(seconds)
    }
    report.addLatencies("place search (prefix, near)", searchLatencies)
    return report
}

/// A fresh directory for a suite's data, under the temporary directory.
func benchDataDirectory(_ suite: String) throws -> URL {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("usefulmap-bench-\(suite)-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}

/// Imports Tampere's streets (routing database and place index) into `dataDirectory`,
/// reporting the import's wall time and the time of each phase.
func importTampereStreets(into dataDirectory: URL, report: inout SuiteReport) throws -> RegionImportResult {
    let osm = sharedDirectory().appendingPathComponent("data/tampere/tampere.osm.pbf")
    let phases = PhaseClock()
    let (result, seconds) = try time {
        try RegionImporter(dataDirectory: dataDirectory).importRegion(name: "tampere", osm: osm) { phases.enter($0.phase) }
    }
    phases.enter("done")
    report.notes["import phases"] = phases.summary()
    report.add("import (routing db + places)", seconds * 1000, unit: "ms")
    return result
}

/// Wall time spent in each import phase, from the progress callback.
final class PhaseClock: Sendable {
    private struct Phases {
        var current: (name: String, start: Double)?
        var spent: [(String, Double)] = []
    }

    private let phases = Mutex(Phases())

    func enter(_ phase: String) {
        let now = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
        phases.withLock { phases in
            if let current = phases.current, current.name == phase { return }
            if let current = phases.current { phases.spent.append((current.name, now - current.start)) }
            phases.current = (phase, now)
        }
    }

    func summary() -> String {
        phases.withLock { $0.spent.map { String(format: "%@ %.0f ms", $0.0, $0.1 * 1000) }.joined(separator: ", ") }
    }
}
