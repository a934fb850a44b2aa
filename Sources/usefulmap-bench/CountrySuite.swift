import Daemon
import Foundation
import Glibc
import Planner
import Streets
import Transit
import WireProtocol

/// `usefulmap-bench country [--queries=N] [--files=DIR] [--copies=N] [--import-only] [--keep-regions=DIR | --kept-regions=DIR]` (issue 43):
/// the synthetic country of `SyntheticCountry` (twelve Tampere copies 28 km apart, 13 feeds, or
/// `--copies`; needs the `osmium` command, osmium-tool, which CI does not install) imported as
/// one region through a real `usefulmapd` (`region import` with 13 `--gtfs`). Reports the
/// import's time and the daemon's peak RSS, its RSS after the import, after the first compare
/// (engines opened) and after the queries, with what holds it (`ResidentMemoryMap`); `compare`
/// with both ends in one city and from one city to another, in process and as whole `umctl
/// compare` processes (N pairs each, 40 by default); a trip over three feeds (a city's, the
/// intercity train's, another city's); `region update --feed` of one city's changed feed; and
/// the engine's depart-at p50 on the same 500 local pairs in the country and in Tampere alone
/// (imported in this process as the daemon does), with the engine's work on them (`EngineWork`),
/// and again with every pair in the country's first city and with the caches emptied before
/// each query (`addCacheStateComparisons`), with a first query's cost on new engines and the answers
/// with and without the landmarks (`addLandmarkChecks`); `--keep-regions` copies both regions and those pairs there, and
/// `--kept-regions` runs only that engine comparison on regions kept so (seconds, not minutes). `--import-only` stops after the import's
/// figures (the peak at several sizes). Environment variables reach the daemon
/// (`MALLOC_ARENA_MAX=2 usefulmap-bench country`).
func runCountrySuite() async throws -> SuiteReport {
    var report = SuiteReport(suite: "country")
    if let kept = benchOption("kept-regions").map({ URL(fileURLWithPath: $0) }) {
        return try keptEngineComparison(kept, report: report)
    }
    let queries = max(1, Int(benchOption("queries") ?? "") ?? 40)
    let copies = max(1, Int(benchOption("copies") ?? "") ?? SyntheticCountry.defaultCopies)
    let tampere = sharedDirectory().appendingPathComponent("data/tampere")
    let work = try benchDataDirectory("country")
    defer { try? FileManager.default.removeItem(at: work) }

    // `--files=DIR`: the country's files are written there and kept (for a daemon run by hand).
    let files = benchOption("files").map { URL(fileURLWithPath: $0) } ?? work.appendingPathComponent("files")
    let (country, buildSeconds) = try time { try SyntheticCountry(from: tampere, in: files, copies: copies) }
    report.add("writing the country's files (osmium, zip)", buildSeconds, unit: "s")
    let osmBytes = (try? FileManager.default.attributesOfItem(atPath: country.osm[0].path)[.size] as? Int) ?? 0
    report.notes["country"] = "\(copies) copies of Tampere \(Int(SyntheticCountry.spacingMetres / 1000)) km apart "
        + "(\(SyntheticCountry.columns) columns); streets \(String(format: "%.1f", Double(osmBytes) / 1_048_576)) MiB of .osm.pbf; "
        + "\(country.feeds.count) feeds (the cities' with colliding IDs, and the intercity train)"
    if let arenas = ProcessInfo.processInfo.environment["MALLOC_ARENA_MAX"] { report.notes["daemon environment"] = "MALLOC_ARENA_MAX=\(arenas)" }

    let daemon = try BenchDaemon()
    defer { daemon.stop() }
    let client = try WireClient(socketPath: daemon.socketPath)
    report.add("daemon RSS before the import", daemon.residentMiB ?? 0, unit: "MiB")
    let importSeconds = try await timeAsync {
        try await client.call(Endpoints.regionImport, Params.RegionImport(name: "country", osm: country.osm[0].path,
                                                                        gtfs: country.feeds.map(\.path)))
    }.1
    report.add("region import (\(copies) cities' streets, \(country.feeds.count) feeds)", importSeconds, unit: "s")
    report.add("daemon peak RSS (VmHWM) by the end of the import", daemon.peakMiB ?? 0, unit: "MiB")
    report.add("daemon RSS after the import", daemon.residentMiB ?? 0, unit: "MiB")
    func noteMemory(_ moment: String) {
        if let pid = daemon.processIdentifier, let map = ResidentMemoryMap(pid: pid) { report.notes["daemon memory \(moment)"] = map.summary }
    }
    noteMemory("after the import")
    if benchFlag("import-only") { return report }

    let at = "2022-01-12T08:00"
    var generator = SeededGenerator(seed: 43)
    /// A point in central Tampere (as the daemon suite's pairs), moved into `copy`.
    func point(copy: Int) -> String {
        let base = Coordinate(latitude: 61.470 + Double(generator.next() % 4000) / 100_000,
                              longitude: 23.700 + Double(generator.next() % 12000) / 100_000)
        let moved = SyntheticCountry.shifted(base, copy: copy)
        return String(format: "%.5f,%.5f", moved.latitude, moved.longitude)
    }
    _ = try await client.call(Endpoints.compare, Params.Compare(from: point(copy: 0), to: point(copy: 0), at: at))
    report.add("daemon RSS after the first compare (engines opened)", daemon.residentMiB ?? 0, unit: "MiB")

    var localPairs: [(String, String)] = [], cityPairs: [(String, String)] = []
    for _ in 0..<queries {
        let copy = Int(generator.next() % UInt64(copies))
        localPairs.append((point(copy: copy), point(copy: copy)))
        guard copies > 1 else { continue }
        let from = Int(generator.next() % UInt64(copies))
        let to = (from + 1 + Int(generator.next() % UInt64(copies - 1))) % copies
        cityPairs.append((point(copy: from), point(copy: to)))
    }
    let umctl = benchOption("umctl") ?? BenchDaemon.binaries.appendingPathComponent("umctl").path
    for (name, pairs) in [("local (both ends in one city)", localPairs), ("city to city", cityPairs)] where !pairs.isEmpty {
        var tooFar = 0, transitAnswers = 0
        let inProcess = try await secondsEach(pairs) { (from, to) in
            let answer = try await client.call(Endpoints.compare, Params.Compare(from: from, to: to, at: at))
            tooFar += answer.options.filter { $0.error?.code == "too_far" }.count
            transitAnswers += answer.options.filter { $0.mode == .transit && $0.error == nil }.count
        }
        report.addLatencies("compare \(name), in process", inProcess)
        let whole = try pairs.map { from, to in
            try time { try spawnAndWait([umctl, "compare", from, to, "--at", at, "--socket", daemon.socketPath]) }.1
        }
        report.addLatencies("compare \(name), whole umctl process", whole)
        report.notes["compare \(name)"] = "\(pairs.count) seeded pairs at \(at): \(transitAnswers) transit answers, "
            + "\(tooFar) modes answered too_far"
    }
    report.add("daemon RSS after the compares", daemon.residentMiB ?? 0, unit: "MiB")
    noteMemory("after the compares")

    if copies > 1 { try await addCrossFeedTrip(to: &report, client: client, at: at, copies: copies) }
    try await addOneFeedUpdate(to: &report, client: client, country: country, importSeconds: importSeconds)

    // The engine on the same local pairs in the country and in Tampere alone.
    guard let dataDirectory = daemon.dataDirectory else { throw BenchError("no data directory for the daemon") }
    let countryDirectory = RegionCatalog(dataDirectory: dataDirectory).directory(of: "country").resolvingSymlinksInPath()
    report.notes["region files"] = regionFiles(countryDirectory)
    let countryRouter = try TransitRouter(regionDirectory: countryDirectory)
    let cityData = work.appendingPathComponent("city")
    let cores = ProcessInfo.processInfo.activeProcessorCount
    _ = try RegionImporter(dataDirectory: cityData).importRegion(
        name: "tampere", osm: tampere.appendingPathComponent("tampere.osm.pbf"),
        additionalSteps: [TransitEngine.importStep(feeds: [tampere.appendingPathComponent("tampere.zip")], walkWorkers: cores)]) { _ in }
    let cityRouter = try TransitRouter(regionDirectory: RegionCatalog(dataDirectory: cityData).directory(of: "tampere")
        .resolvingSymlinksInPath())
    let cityDirectory = RegionCatalog(dataDirectory: cityData).directory(of: "tampere").resolvingSymlinksInPath()
    let pairs = try addEngineComparison(to: &report, country: countryRouter, city: cityRouter, copies: copies)
    // `--keep-regions=DIR`: both regions and the engine's pairs kept, for a profiler's driver
    // (pairs.txt: a line per pair, its ends in Tampere, then in the country, then the Unix time).
    if let keep = benchOption("keep-regions").map({ URL(fileURLWithPath: $0) }) {
        try FileManager.default.createDirectory(at: keep, withIntermediateDirectories: true)
        for (name, directory) in [("country", countryDirectory), ("tampere", cityDirectory)] {
            try? FileManager.default.removeItem(at: keep.appendingPathComponent(name))
            try FileManager.default.copyItem(at: directory, to: keep.appendingPathComponent(name))
        }
        try pairs.map { pair in
            let (from, to) = (SyntheticCountry.shifted(pair.from, copy: pair.copy), SyntheticCountry.shifted(pair.to, copy: pair.copy))
            return [pair.from.latitude, pair.from.longitude, pair.to.latitude, pair.to.longitude, from.latitude, from.longitude,
                    to.latitude, to.longitude, pair.when.timeIntervalSince1970].map { "\($0)" }.joined(separator: " ")
        }
            .joined(separator: "\n").write(to: keep.appendingPathComponent("pairs.txt"), atomically: true, encoding: .utf8)
        report.notes["regions kept"] = keep.path
    }
    report.add("daemon RSS at the end", daemon.residentMiB ?? 0, unit: "MiB")
    report.add("daemon peak RSS (VmHWM) at the end", daemon.peakMiB ?? 0, unit: "MiB")
    noteLoadAverage(&report)
    return report
}

private func noteLoadAverage(_ report: inout SuiteReport) {
    var load = [Double](repeating: 0, count: 3)
    if getloadavg(&load, 3) == 3 { report.notes["load average at the end"] = String(format: "%.1f %.1f %.1f", load[0], load[1], load[2]) }
}

/// A trip that needs three feeds: from Hervanta in city 1 to places of city 3, 56 km away
/// (two stations down the line), away from its station. No city feed reaches another city, so
/// the journey that exists rides city 1's feed to the station, the intercity train (its trips
/// are "IC-…"), then city 3's feed from its station: reports the first answer whose rides are
/// city, intercity, city in that order, with its rides, or that none was found.
private func addCrossFeedTrip(to report: inout SuiteReport, client: WireClient, at: String, copies: Int) async throws {
    let origin = Coordinate(latitude: 61.4502, longitude: 23.8510)
    let destinationCopy = min(2, copies - 1)
    let destinations = [Coordinate(latitude: 61.5135, longitude: 23.6720), Coordinate(latitude: 61.5000, longitude: 23.6480),
                        Coordinate(latitude: 61.4750, longitude: 23.7050), Coordinate(latitude: 61.4680, longitude: 23.6900),
                        Coordinate(latitude: 61.5300, longitude: 23.7800)]
    func text(_ c: Coordinate) -> String { String(format: "%.5f,%.5f", c.latitude, c.longitude) }
    var seen: [String] = []
    for destination in destinations {
        let to = SyntheticCountry.shifted(destination, copy: destinationCopy)
        let answer = try await client.call(Endpoints.compare, Params.Compare(from: text(origin), to: text(to), at: at, modes: [.transit]))
        guard let transit = answer.options.first(where: { $0.mode == .transit }) else { continue }
        let rides = transit.rides.map { "\($0.vehicle) \($0.line) \($0.from) → \($0.to) \($0.departure)–\($0.arrival)" }
        seen.append(rides.isEmpty ? (transit.error?.code ?? "no rides") : rides.joined(separator: "; "))
        let intercity = transit.rides.map { $0.tripID?.hasPrefix("IC-") ?? false }
        if let train = intercity.firstIndex(of: true), train > 0, (intercity.lastIndex(of: true) ?? train) < intercity.count - 1,
           !intercity[..<train].contains(true) {
            report.add("city → intercity → city trip over three feeds found", 1, unit: "bool")
            report.notes["trip over three feeds"] = "\(text(origin)) (city 1) → \(text(to)) (city \(destinationCopy + 1)) at \(at): "
                + rides.joined(separator: "; ")
            return
        }
    }
    report.add("city → intercity → city trip over three feeds found", 0, unit: "bool")
    report.notes["trip over three feeds"] = "none among: " + seen.joined(separator: " | ")
}

/// `region update country --feed <city 2's feed>` after that feed changed (a file added to its
/// zip: a new sha256 and new members, the same trips): only that feed is parsed, the other
/// feeds' kept parts are merged; timed beside the full import.
private func addOneFeedUpdate(to report: inout SuiteReport, client: WireClient, country: SyntheticCountry,
                              importSeconds: Double) async throws {
    guard country.feeds.count > 1 else { return }
    let feed = country.feeds[1]
    let note = feed.deletingLastPathComponent().appendingPathComponent("update-note.txt")
    try "changed for the update benchmark\n".write(to: note, atomically: true, encoding: .utf8)
    try runTool("/usr/bin/zip", ["-q", "-j", feed.path, note.path])
    let (answer, seconds) = try await timeAsync {
        try await client.call(Endpoints.regionUpdate, Params.RegionUpdate(names: ["country"], feed: feed.lastPathComponent))
    }
    report.add("region update --feed of one city (\(feed.lastPathComponent))", seconds, unit: "s")
    report.add("region update --feed / full import", seconds / max(importSeconds, 1e-9), unit: "×")
    report.notes["region update --feed"] = "rebuilt: \(answer.regions.first.map { "\($0.rebuilt)" } ?? "?")"
}

/// `--kept-regions=DIR`: the engine comparison alone, on the regions an earlier run kept
/// (`--keep-regions`), without writing or importing the country: minutes less per measurement.
private func keptEngineComparison(_ kept: URL, report: SuiteReport) throws -> SuiteReport {
    var report = report
    let country = try TransitRouter(regionDirectory: kept.appendingPathComponent("country"))
    let city = try TransitRouter(regionDirectory: kept.appendingPathComponent("tampere"))
    _ = try addEngineComparison(to: &report, country: country, city: city, copies: SyntheticCountry.defaultCopies)
    report.notes["regions"] = "kept in \(kept.path)"
    noteLoadAverage(&report)
    return report
}

/// The engine's depart-at time (and the whole query's CPU) on 500 seeded pairs inside Tampere,
/// asked alternately of Tampere alone and of the country with the pair moved into a seeded copy.
/// Returns the pairs asked (in Tampere's coordinates, with the copy each was moved into).
private func addEngineComparison(to report: inout SuiteReport, country: TransitRouter, city: TransitRouter,
                                 copies: Int) throws -> [(from: Coordinate, to: Coordinate, copy: Int, when: Date)] {
    var generator = SeededGenerator(seed: 6)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = city.timeZone
    guard let dayStart = calendar.date(from: DateComponents(year: 2022, month: 1, day: 12, hour: 6)) else {
        throw BenchError("cannot build the benchmark date")
    }
    var cityEngine: [Double] = [], countryEngine: [Double] = [], cityCPU: [Double] = [], countryCPU: [Double] = []
    var pairs = 0, failures = 0
    var cityWork = EngineWork(), countryWork = EngineWork()
    var asked: [(from: Coordinate, to: Coordinate, copy: Int, when: Date)] = []
    while pairs < 500 {
        func point() -> Coordinate {
            Coordinate(latitude: Double.random(in: 61.44...61.53, using: &generator), longitude: Double.random(in: 23.62...23.90, using: &generator))
        }
        let from = point(), to = point(), copy = Int.random(in: 0..<copies, using: &generator)
        let when = dayStart.addingTimeInterval(Double(Int.random(in: 0..<(5 * 3600), using: &generator)))
        guard !city.nearbyStops(around: from, radius: TransitRouter.defaultAccessRadius, limit: 1).isEmpty,
              !city.nearbyStops(around: to, radius: TransitRouter.defaultAccessRadius, limit: 1).isEmpty else { continue }
        pairs += 1
        let (alone, aloneCPU) = cpuTime { try? city.leg(from: from, to: to, timing: .departAt(when), pace: .normal) }
        let (inCountry, inCountryCPU) = cpuTime {
            try? country.leg(from: SyntheticCountry.shifted(from, copy: copy), to: SyntheticCountry.shifted(to, copy: copy),
                             timing: .departAt(when), pace: .normal)
        }
        guard let alone, let inCountry else { failures += 1; continue }
        asked.append((from, to, copy, when))
        // The same query again, counting the engines' work (apart: counting is not free).
        cityWork = cityWork + city.countingEngineWork { _ = try? city.leg(from: from, to: to, timing: .departAt(when), pace: .normal) }.1
        countryWork = countryWork + country.countingEngineWork {
            _ = try? country.leg(from: SyntheticCountry.shifted(from, copy: copy), to: SyntheticCountry.shifted(to, copy: copy),
                                 timing: .departAt(when), pace: .normal)
        }.1
        cityEngine.append(alone.engineSeconds)
        cityCPU.append(aloneCPU)
        countryEngine.append(inCountry.engineSeconds)
        countryCPU.append(inCountryCPU)
    }
    report.addLatencies("engine depart-at, Tampere alone", cityEngine)
    report.addLatencies("engine depart-at, in the country", countryEngine)
    report.add("engine depart-at p50, country / Tampere alone", medianRatio(countryEngine, cityEngine), unit: "×")
    report.add("whole query CPU p50, country / Tampere alone", medianRatio(countryCPU, cityCPU), unit: "×")
    addCacheStateComparisons(to: &report, country: country, city: city, pairs: asked)
    addLandmarkChecks(to: &report, country: country, pairs: asked)
    addEngineWork(to: &report, city: cityWork, country: countryWork, queries: cityEngine.count)
    report.add("timetable in memory, Tampere alone", Double(city.memoryBytes) / 1_048_576, unit: "MiB")
    report.add("timetable in memory, the country", Double(country.memoryBytes) / 1_048_576, unit: "MiB")
    report.notes["engine pairs"] = "500 seeded pairs in Tampere's extent (Wednesday 2022-01-12, 06:00–11:00), "
        + "\(failures) without a journey in either, skipped"
    return asked
}

/// The median of `a` over the median of `b`.
private func medianRatio(_ a: [Double], _ b: [Double]) -> Double {
    percentile(a.sorted(), 0.5) / max(percentile(b.sorted(), 0.5), 1e-9)
}

/// The same pairs with the country's data as warm as Tampere alone's, and with both as cold: the
/// main ratio pays for each pair's city being another than the last one's (twelve cities' arrays
/// do not stay in the caches; Tampere's alone, asked every other query, does).
private func addCacheStateComparisons(to report: inout SuiteReport, country: TransitRouter, city: TransitRouter,
                                      pairs: [(from: Coordinate, to: Coordinate, copy: Int, when: Date)]) {
    /// Each pair asked of Tampere alone and then of the country in `copy(pair)`, `before` run before each query.
    func engineSeconds(copy: (Int) -> Int, before: () -> Void) -> (alone: [Double], country: [Double]) {
        var alone: [Double] = [], inCountry: [Double] = []
        for pair in pairs {
            before()
            guard let a = try? city.leg(from: pair.from, to: pair.to, timing: .departAt(pair.when), pace: .normal) else { continue }
            before()
            guard let c = try? country.leg(from: SyntheticCountry.shifted(pair.from, copy: copy(pair.copy)),
                                           to: SyntheticCountry.shifted(pair.to, copy: copy(pair.copy)),
                                           timing: .departAt(pair.when), pace: .normal) else { continue }
            alone.append(a.engineSeconds)
            inCountry.append(c.engineSeconds)
        }
        return (alone, inCountry)
    }
    let oneCity = engineSeconds(copy: { _ in 0 }, before: {})
    report.add("engine depart-at p50 ratio, all in one city", medianRatio(oneCity.country, oneCity.alone), unit: "×")
    let sweep = CacheSweep()
    let cold = engineSeconds(copy: { $0 }, before: sweep.run)
    report.add("engine depart-at p50 ratio, caches emptied", medianRatio(cold.country, cold.alone), unit: "×")
    report.addLatencies("cold engine depart-at, Tampere alone", cold.alone)
    report.addLatencies("cold engine depart-at, in the country", cold.country)
    report.notes["engine ratio, all in one city / caches emptied"] = "the same pairs, all in the country's first city "
        + "(its data in the caches, as Tampere alone's always is), and in their own cities with the caches emptied before "
        + "every query in both (`CacheSweep`)"
}

/// The landmarks past the table of stops (`StopLandmarks`): what they cost a first query, which
/// builds the remaining-time tables (the query's CPU on new engines, alternately with the
/// landmarks and with the cells' bound alone, three times each: their difference is the
/// landmarks' build), and that the answers are the same with them as with the cells' bound
/// alone on every pair, each way (an admissible bound changes no answer).
private func addLandmarkChecks(to report: inout SuiteReport, country: TransitRouter,
                               pairs: [(from: Coordinate, to: Coordinate, copy: Int, when: Date)]) {
    guard let pair = pairs.first else { return }
    let from = SyntheticCountry.shifted(pair.from, copy: pair.copy), to = SyntheticCountry.shifted(pair.to, copy: pair.copy)
    var firstWith: [Double] = [], firstWithout: [Double] = [], again: [Double] = []
    for _ in 0..<3 {
        for landmarks in [true, false] {
            let engines = country.withNewEngines(readingLandmarks: landmarks)
            let first = cpuTime { _ = try? engines.leg(from: from, to: to, timing: .departAt(pair.when), pace: .normal) }.1
            if landmarks { firstWith.append(first) } else { firstWithout.append(first) }
            again.append(cpuTime { _ = try? engines.leg(from: from, to: to, timing: .departAt(pair.when), pace: .normal) }.1)
        }
    }
    let median = { (times: [Double]) in percentile(times.sorted(), 0.5) * 1000 }
    report.add("first depart-at CPU, new engines, landmarks", median(firstWith), unit: "ms")
    report.add("first depart-at CPU, new engines, cells only", median(firstWithout), unit: "ms")
    report.add("the same depart-at again, CPU", median(again), unit: "ms")
    report.notes["first depart-at"] = "the whole leg's CPU for the first pair on new engines (building the remaining-time "
        + "tables the query reads), median of 3 alternated each way: with landmarks "
        + firstWith.map { String(format: "%.0f", $0 * 1000) }.joined(separator: ", ") + " ms, cells alone "
        + firstWithout.map { String(format: "%.0f", $0 * 1000) }.joined(separator: ", ") + " ms"

    let cellsAlone = country.withNewEngines(readingLandmarks: false)
    var same = 0, asked = 0, different: [String] = []
    for (k, pair) in pairs.enumerated() {
        let from = SyntheticCountry.shifted(pair.from, copy: pair.copy), to = SyntheticCountry.shifted(pair.to, copy: pair.copy)
        for timing in [LegTiming.departAt(pair.when), .arriveBy(pair.when.addingTimeInterval(3600))] {
            let a = try? country.leg(from: from, to: to, timing: timing, pace: .normal)
            let b = try? cellsAlone.leg(from: from, to: to, timing: timing, pace: .normal)
            asked += 1
            if a?.bestJourney == b?.bestJourney && a?.alternativeJourneys == b?.alternativeJourneys {
                same += 1
            } else if different.count < 5 {
                different.append("pair \(k) \(timing)")
            }
        }
    }
    report.add("answers equal with the cells' bound alone", Double(same), unit: "of \(asked)")
    if !different.isEmpty { report.notes["answers differing with the landmarks"] = different.joined(separator: "; ") }
}

/// The engines' work on the same queries (`EngineWork`), per query, in Tampere alone and in the
/// country, and the country's over Tampere's: a ratio near the time's says the country does more
/// work, one near 1 that it does the same work slower.
private func addEngineWork(to report: inout SuiteReport, city: EngineWork, country: EngineWork, queries: Int) {
    let n = Double(max(queries, 1))
    // Short names: the report cuts a figure's name at 44 characters.
    let kinds: [(String, (EngineWork.Round) -> Int)] = [
        ("stops marked", \.stopsMarked), ("patterns", \.patternsScanned), ("day scans", \.dayScans),
        ("stops visited", \.stopsVisited), ("trip searches", \.tripSearches), ("hop-offs", \.hopOffs),
        ("transfers tried", \.transfersTried), ("stops readied", \.stopsReadied),
    ]
    let cityTotal = city.total, countryTotal = country.total
    for (name, read) in kinds {
        let alone = Double(read(cityTotal)) / n, inCountry = Double(read(countryTotal)) / n
        report.add("work/query: \(name), Tampere", alone, unit: "")
        report.add("work/query: \(name), country", inCountry, unit: "")
        report.add("work: \(name), country / Tampere", inCountry / max(alone, 1e-9), unit: "×")
    }
    report.add("work/query: stops bounded, Tampere", Double(city.boundStops) / n, unit: "")
    report.add("work/query: stops bounded, country", Double(country.boundStops) / n, unit: "")
    report.notes["work/query"] = "the engine's work per depart-at query (`EngineWork`, both searches of a query summed), "
        + "counted on a second asking of each pair; stops bounded: given a remaining-time bound (each stop from the table of "
        + "stops, the searched and the cells' stops past 1,500 stops)"
    func perRound(_ work: EngineWork) -> String {
        work.rounds.enumerated().map { round, counts in
            String(format: "round %d: %.0f marked, %.0f patterns, %.0f stops visited, %.0f trip searches, %.0f hop-offs",
                   round + 1, Double(counts.stopsMarked) / n, Double(counts.patternsScanned) / n, Double(counts.stopsVisited) / n,
                   Double(counts.tripSearches) / n, Double(counts.hopOffs) / n)
        }.joined(separator: "; ")
    }
    report.notes["engine work per query by round (both searches of a query summed), Tampere alone"] =
        "\(city.searches) searches for \(queries) queries; " + perRound(city)
    report.notes["engine work per query by round (both searches of a query summed), country"] =
        "\(country.searches) searches for \(queries) queries; " + perRound(country)
}

/// "transit.sqlite 31.2, places.sqlite 20.1, … MiB": the region directory's files, largest first.
private func regionFiles(_ directory: URL) -> String {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return "unreadable" }
    let sizes = names.compactMap { name -> (String, Double)? in
        guard let bytes = (try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path))?[.size] as? Int
        else { return nil }
        return (name, Double(bytes) / 1_048_576)
    }
    let total = sizes.reduce(0) { $0 + $1.1 }
    return sizes.sorted { $0.1 > $1.1 }.map { "\($0.0) \(String(format: "%.1f", $0.1))" }.joined(separator: ", ")
        + String(format: " MiB; %.1f MiB in all", total)
}
