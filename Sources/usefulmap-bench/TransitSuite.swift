import Foundation
import Planner
import Transit

/// `usefulmap-bench transit`: GTFS import of the Tampere feed (time, stop_times per second,
/// peak memory), timetable load (time, memory), and depart-at / arrive-by latency over 1,000
/// seeded random coordinate pairs in Tampere on Wednesday 2022-01-12 between 06:00 and 11:00.
/// The engine's stop-to-stop time is reported apart from timing the access and egress walks;
/// the whole query's CPU time (this thread's) leaves out what other work on the machine costs.
/// A plain connection scan on the same depart-at queries is the yardstick (`YardstickComparison`).
/// `--queries=N` takes the first N of the pairs and `--engine-only` leaves out the fare and
/// step-free rounds: a short run for profiling the engine (callgrind).
func runTransitSuite() async throws -> SuiteReport {
    var report = SuiteReport(suite: "transit")
    let feed = sharedDirectory().appendingPathComponent("data/tampere/tampere.zip")
    let region = FileManager.default.temporaryDirectory
        .appendingPathComponent("usefulmap-bench-transit-\(UUID().uuidString.prefix(8))")
    defer { try? FileManager.default.removeItem(at: region) }

    // Import.
    let memoryBefore = peakMemoryMiB()
    let (imported, importSeconds) = try time { try GTFSImporter().importFeeds([feed], intoRegionDirectory: region) }
    let stopTimes = Double(imported.rowsRead["stop_times.txt"] ?? 0)
    report.add("import (read zip, build, footpaths, write)", importSeconds * 1000, unit: "ms")
    report.add("import stop_times rows per second", stopTimes / importSeconds, unit: "rows/s")
    report.add("import peak memory (process so far)", peakMemoryMiB(), unit: "MiB")
    report.notes["import peak memory before import"] = String(format: "%.1f MiB", memoryBefore)
    report.notes["feed"] = "\(imported.stops) stops, \(imported.routes) routes, \(imported.trips) trips, \(imported.stopTimes) stop times, \(imported.patterns) patterns, \(imported.footpaths) footpaths"
    report.notes["skipped"] = imported.skipped.map { "\($0.value) \($0.key)" }.sorted().joined(separator: "; ")

    // Load.
    let (router, loadSeconds) = try time { try TransitRouter(regionDirectory: region) }
    report.add("timetable load", loadSeconds * 1000, unit: "ms")
    report.add("timetable in memory", Double(router.memoryBytes) / 1_048_576, unit: "MiB")

    let queries = max(1, Int(benchOption("queries") ?? "") ?? 1_000)
    let (pairs, rejected) = try tampereQueryPairs(router, count: queries)
    report.notes["pairs"] = "\(queries) kept, \(rejected) rejected (no stop within \(Int(TransitRouter.defaultAccessRadius)) m)"

    var engineTimes: [Bool: [Double]] = [:]
    for arriveBy in [false, true] {
        let name = arriveBy ? "arrive-by" : "depart-at"
        var engine: [Double] = [], access: [Double] = [], total: [Double] = [], cpu: [Double] = []
        var found = 0, walkBetter = 0, failures: [String: Int] = [:]
        for (from, to, when) in pairs {
            let timing: LegTiming = arriveBy ? .arriveBy(when.addingTimeInterval(3600)) : .departAt(when)
            do {
                let ((result, seconds), cpuSeconds) = try cpuTime {
                    try time { try router.leg(from: from, to: to, timing: timing, pace: .normal) }
                }
                engine.append(result.engineSeconds)
                access.append(result.accessEgressSeconds)
                total.append(seconds)
                cpu.append(cpuSeconds)
                found += 1
                if result.walkingIsNoSlower { walkBetter += 1 }
            } catch let error as RoutingError {
                failures[error.code, default: 0] += 1
            }
        }
        engineTimes[arriveBy] = engine
        report.addLatencies("\(name) engine (stop-to-stop)", engine)
        report.addLatencies("\(name) access+egress walks", access)
        report.addLatencies("\(name) whole query", total)
        report.addLatencies("\(name) whole query, CPU time", cpu)
        report.notes["\(name) outcomes"] = "\(found) journeys (\(walkBetter) where walking is no slower); "
            + failures.map { "\($0.value) \($0.key)" }.sorted().joined(separator: ", ")
    }
    YardstickComparison(router, pairs: pairs).add(to: &report, prefix: "", engineDepartAt: engineTimes[false] ?? [],
                                                  engineArriveBy: engineTimes[true] ?? [])
    guard !benchFlag("engine-only") else { return report }
    try addFareCost(router, pairs, to: &report)
    addStepFreeCost(router, pairs, to: &report)
    return report
}

/// What a step-free search costs against the normal one: the same 1,000 depart-at queries with
/// `--wheelchair` (the step-free view of the timetable) and without, in alternating rounds as for
/// fares; the view is built by the first step-free query, timed apart. Both sides compute each
/// leg's accessibility (it is always on). On Tampere the wheelchair view keeps every trip (none
/// says 2) and every stop (none says anything): its cost is the view's, not a smaller search.
func addStepFreeCost(_ router: TransitRouter, _ pairs: [(Coordinate, Coordinate, Date)], to report: inout SuiteReport) {
    guard let (from, to, when) = pairs.first else { return }
    let (_, buildSeconds) = time { try? router.leg(from: from, to: to, timing: .departAt(when), pace: .normal, access: .wheelchair) }
    report.add("step-free view: first query (builds the view)", buildSeconds * 1000, unit: "ms")
    var wall: [AccessNeed: [Double]] = [:], cpu: [AccessNeed: [Double]] = [:]
    var unknown = 0
    for round in 0..<3 {
        for access in [AccessNeed.wheelchair, .any] {
            for (from, to, when) in pairs {
                guard let ((result, seconds), cpuSeconds) = try? cpuTime({
                    try time { try router.leg(from: from, to: to, timing: .departAt(when), pace: .normal, access: access) }
                }) else { continue }
                wall[access, default: []].append(seconds)
                cpu[access, default: []].append(cpuSeconds)
                if access == .wheelchair, round == 0, result.best.accessibility == .unknown { unknown += 1 }
            }
        }
    }
    for access in [AccessNeed.wheelchair, .any] {
        let side = access == .any ? "normal timetable" : "step-free view"
        report.addLatencies("step-free: depart-at, \(side)", wall[access] ?? [])
        report.addLatencies("step-free: depart-at CPU, \(side)", cpu[access] ?? [])
    }
    report.notes["step-free"] = "\(unknown) wheelchair journeys marked accessibility unknown (3 alternating rounds of the 1000 queries)"
}

/// What pricing with the feed's fares adds to a depart-at query: the same 1,000 queries on the
/// router and on the same timetable without fares, in alternating rounds so that the shared
/// machine's load falls on both alike; wall time and this thread's CPU time.
func addFareCost(_ router: TransitRouter, _ pairs: [(Coordinate, Coordinate, Date)], to report: inout SuiteReport) throws {
    let bare = router.withoutFares()
    var wall: [Bool: [Double]] = [:], cpu: [Bool: [Double]] = [:]
    var priced = 0, unknown = 0
    for round in 0..<3 {
        for (withFares, engine) in [(true, router), (false, bare)] {
            for (from, to, when) in pairs {
                guard let ((result, seconds), cpuSeconds) = try? cpuTime({
                    try time { try engine.leg(from: from, to: to, timing: .departAt(when), pace: .normal) }
                }) else { continue }
                wall[withFares, default: []].append(seconds)
                cpu[withFares, default: []].append(cpuSeconds)
                if withFares, round == 0 { if result.best.price?.price != nil { priced += 1 } else { unknown += 1 } }
            }
        }
    }
    for withFares in [true, false] {
        let side = withFares ? "with fares" : "no fares"
        report.addLatencies("fares: depart-at, \(side)", wall[withFares] ?? [])
        report.addLatencies("fares: depart-at CPU, \(side)", cpu[withFares] ?? [])
    }
    report.notes["fares"] = "\(priced) journeys priced, \(unknown) price unknown (3 alternating rounds of the 1000 queries)"
}

/// Seeded random query pairs in Tampere (seed 6): uniform points in the city's extent, kept when
/// both ends have a stop within the default access radius (others are "unsupported here" and
/// cost nothing), each at a random time on Wednesday 2022-01-12 between 06:00 and 11:00.
/// - returns: the pairs and how many were rejected.
func tampereQueryPairs(_ router: TransitRouter, count: Int) throws -> ([(Coordinate, Coordinate, Date)], Int) {
    var generator = SeededGenerator(seed: 6)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = router.timeZone
    guard let dayStart = calendar.date(from: DateComponents(year: 2022, month: 1, day: 12, hour: 6)) else {
        throw RoutingError.engineFailure("cannot build the benchmark date")
    }
    var pairs: [(Coordinate, Coordinate, Date)] = []
    var rejected = 0
    while pairs.count < count {
        func point() -> Coordinate {
            Coordinate(latitude: Double.random(in: 61.44...61.53, using: &generator),
                       longitude: Double.random(in: 23.62...23.90, using: &generator))
        }
        let from = point(), to = point()
        let when = dayStart.addingTimeInterval(Double(Int.random(in: 0..<(5 * 3600), using: &generator)))
        if router.nearbyStops(around: from, radius: TransitRouter.defaultAccessRadius, limit: 1).isEmpty
            || router.nearbyStops(around: to, radius: TransitRouter.defaultAccessRadius, limit: 1).isEmpty {
            rejected += 1
            continue
        }
        pairs.append((from, to, when))
    }
    return (pairs, rejected)
}
