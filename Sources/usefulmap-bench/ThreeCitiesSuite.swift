import Foundation
import Glibc
import Planner
import WireProtocol

/// `usefulmap-bench three-cities [--queries=N]` (issue 43, "a three-city daemon in ≤ 80 MB"):
/// three copies of Tampere 28 km apart (`SyntheticCountry` with `separateRegions`; needs the
/// `osmium` command) imported as three regions of one `usefulmapd`, each with its own streets
/// and feed. Reports the daemon's RSS after each import and after N compares in each region
/// (every region's engines opened), and its peak.
func runThreeCitiesSuite() async throws -> SuiteReport {
    var report = SuiteReport(suite: "three-cities")
    let queries = max(1, Int(benchOption("queries") ?? "") ?? 20)
    let tampere = sharedDirectory().appendingPathComponent("data/tampere")
    let work = try benchDataDirectory("three-cities")
    defer { try? FileManager.default.removeItem(at: work) }
    let (cities, buildSeconds) = try time {
        try SyntheticCountry(from: tampere, in: work.appendingPathComponent("files"), copies: 3, separateRegions: true)
    }
    report.add("writing the cities' files (osmium, zip)", buildSeconds, unit: "s")

    let daemon = try BenchDaemon()
    defer { daemon.stop() }
    let client = try WireClient(socketPath: daemon.socketPath)
    report.add("daemon RSS before the imports", daemon.residentMiB ?? 0, unit: "MiB")
    for copy in 0..<cities.copies {
        let seconds = try await timeAsync {
            try await client.call(Endpoints.regionImport, Params.RegionImport(name: "city-\(copy + 1)", osm: cities.osm[copy].path,
                                                                            gtfs: [cities.feeds[copy].path]))
        }.1
        report.add("region import of city \(copy + 1)", seconds, unit: "s")
        report.add("daemon RSS after importing city \(copy + 1)", daemon.residentMiB ?? 0, unit: "MiB")
    }

    let at = "2022-01-12T08:00"
    var generator = SeededGenerator(seed: 3)
    /// A point in central Tampere (as the country suite's), moved into `copy`.
    func point(copy: Int) -> String {
        let base = Coordinate(latitude: 61.470 + Double(generator.next() % 4000) / 100_000,
                              longitude: 23.700 + Double(generator.next() % 12000) / 100_000)
        let moved = SyntheticCountry.shifted(base, copy: copy)
        return String(format: "%.5f,%.5f", moved.latitude, moved.longitude)
    }
    var latencies: [Double] = []
    var transitAnswers = 0
    for copy in 0..<cities.copies {
        for _ in 0..<queries {
            let (answer, seconds) = try await timeAsync {
                try await client.call(Endpoints.compare, Params.Compare(from: point(copy: copy), to: point(copy: copy), at: at))
            }
            latencies.append(seconds)
            transitAnswers += answer.options.filter { $0.mode == .transit && $0.error == nil }.count
        }
        report.add("daemon RSS after the compares in city \(copy + 1)", daemon.residentMiB ?? 0, unit: "MiB")
    }
    report.addLatencies("compare in one city, in process", latencies)
    report.notes["compares"] = "\(queries) seeded pairs in each city at \(at): \(transitAnswers) transit answers"
    report.add("daemon RSS after the compares (bar 80 MB)", daemon.residentMiB ?? 0, unit: "MiB")
    report.add("daemon peak RSS (VmHWM)", daemon.peakMiB ?? 0, unit: "MiB")
    if let pid = daemon.processIdentifier, let map = ResidentMemoryMap(pid: pid) { report.notes["daemon memory at the end"] = map.summary }
    var load = [Double](repeating: 0, count: 3)
    if getloadavg(&load, 3) == 3 { report.notes["load average at the end"] = String(format: "%.1f %.1f %.1f", load[0], load[1], load[2]) }
    return report
}
