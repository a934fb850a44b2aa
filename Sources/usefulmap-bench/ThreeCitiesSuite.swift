import Foundation
import Glibc
import Planner
import Streets
import Transit
import WireProtocol

/// `usefulmap-bench three-cities [--queries=N]` (issue 43, "a three-city daemon in ≤ 80 MB"):
/// three copies of Tampere 28 km apart (`SyntheticCountry` with `separateRegions`; needs the
/// `osmium` command) imported as three regions of one `usefulmapd`, each with its own streets
/// and feed. Reports the daemon's RSS (and its anonymous and file-backed parts) after each
/// import, after the first compare and after N compares in each region (every region's engines
/// opened), and its peak; then what one city's parts take on the heap, opened in this process.
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
        report.notes["daemon after importing city \(copy + 1)"] = daemon.residentSummary
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
        for query in 0..<queries {
            let (answer, seconds) = try await timeAsync {
                try await client.call(Endpoints.compare, Params.Compare(from: point(copy: copy), to: point(copy: copy), at: at))
            }
            latencies.append(seconds)
            transitAnswers += answer.options.filter { $0.mode == .transit && $0.error == nil }.count
            if query == 0 { report.notes["daemon after the first compare in city \(copy + 1)"] = daemon.residentSummary }
        }
        report.add("daemon RSS after the compares in city \(copy + 1)", daemon.residentMiB ?? 0, unit: "MiB")
        report.notes["daemon after the compares in city \(copy + 1)"] = daemon.residentSummary
    }
    report.addLatencies("compare in one city, in process", latencies)
    report.notes["compares"] = "\(queries) seeded pairs in each city at \(at): \(transitAnswers) transit answers"
    report.add("daemon RSS after the compares (bar 80 MB)", daemon.residentMiB ?? 0, unit: "MiB")
    report.add("daemon peak RSS (VmHWM)", daemon.peakMiB ?? 0, unit: "MiB")
    if let pid = daemon.processIdentifier, let map = ResidentMemoryMap(pid: pid) { report.notes["daemon memory at the end"] = map.summary }
    if let data = daemon.dataDirectory {
        let city = RegionCatalog(dataDirectory: data).directory(of: "city-1").resolvingSymlinksInPath()
        report.notes["one city's parts on the heap (this process)"] = try regionHeapParts(city, at: SyntheticCountry.shifted(
            Coordinate(latitude: 61.4981, longitude: 23.7610), copy: 0))
    }
    var load = [Double](repeating: 0, count: 3)
    if getloadavg(&load, 3) == 3 { report.notes["load average at the end"] = String(format: "%.1f %.1f %.1f", load[0], load[1], load[2]) }
    return report
}

/// What one region's parts add to this process's anonymous memory, each opened as the daemon
/// opens it (freed pages given back between them, so only what stays is counted): the
/// timetable (`TransitRouter`), its first query (the remaining-time table of one pace, the
/// service days, the scratch), and the place index with a reverse lookup.
private func regionHeapParts(_ region: URL, at point: Coordinate) throws -> String {
    typealias Trim = @convention(c) (Int) -> Int32
    let trim = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim").map { unsafeBitCast($0, to: Trim.self) }
    func anonymousMiB(trimmed: Bool = true) -> Double {
        if trimmed { _ = trim?(0) }
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("RssAnon:") {
            return (line.split(separator: " ").compactMap { Double($0) }.first ?? 0) / 1024
        }
        return 0
    }
    let start = anonymousMiB()
    let router = try TransitRouter(regionDirectory: region)
    let loadedUntrimmed = anonymousMiB(trimmed: false)
    let loaded = anonymousMiB()
    let at = ISO8601DateFormatter().date(from: "2022-01-12T06:00:00Z") ?? Date()
    _ = try? router.leg(from: point, to: Coordinate(latitude: point.latitude + 0.02, longitude: point.longitude + 0.03),
                        timing: .departAt(at), pace: .normal)
    let queried = anonymousMiB()
    let places = try PlaceIndex(regionDirectory: region)
    _ = try? places.reverse(point)
    let indexed = anonymousMiB()
    return withExtendedLifetime((router, places)) {
        String(format: "timetable loaded +%.1f MiB (its arrays %.1f MiB; +%.1f MiB before freed pages were given back), "
                   + "first query +%.1f MiB, place index and a reverse lookup +%.1f MiB",
               loaded - start, Double(router.memoryBytes) / 1_048_576, loadedUntrimmed - start, queried - loaded, indexed - queried)
    }
}
