import Foundation
import Planner
import Transit

/// `usefulmap-bench realtime`: the GTFS-Realtime overlay on Tampere at Wednesday 2022-01-12.
/// Applying a feed that delays every trip running that day (0–6 min, varied by trip so runs
/// may overtake) and a feed of 50 trips; depart-at latency over the transit suite's 1,000
/// seeded pairs with and without the full-day overlay; the overlay's memory.
/// Targets (issue 21): ≤ 100 ms, ≤ 5 ms, p50 within 1.2×, ≤ 20 MB.
func runRealtimeSuite() async throws -> SuiteReport {
    var report = SuiteReport(suite: "realtime")
    let feed = sharedDirectory().appendingPathComponent("data/tampere/tampere.zip")
    let region = FileManager.default.temporaryDirectory
        .appendingPathComponent("usefulmap-bench-realtime-\(UUID().uuidString.prefix(8))")
    defer { try? FileManager.default.removeItem(at: region) }
    _ = try GTFSImporter().importFeeds([feed], intoRegionDirectory: region)
    let router = try TransitRouter(regionDirectory: region)

    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = router.timeZone
    guard let now = calendar.date(from: DateComponents(year: 2022, month: 1, day: 12, hour: 7)) else {
        throw RoutingError.engineFailure("cannot build the benchmark date")
    }
    let trips = router.runningTripIDs(onServiceDayOf: now)
    func update(_ k: Int, _ trip: String) -> RealtimeTripUpdate {
        RealtimeTripUpdate(entityID: "e\(k)", trip: RealtimeTripDescriptor(tripID: trip, startDate: "20220112"),
                           delay: (k % 7) * 60)
    }
    let fullDay = RealtimeFeed(timestamp: now, tripUpdates: trips.enumerated().map(update))
    let fifty = RealtimeFeed(timestamp: now, tripUpdates: trips.prefix(50).enumerated().map(update))
    report.notes["feeds"] = "full day: \(fullDay.tripUpdates.count) trip updates (trip-level delay); small: 50"

    // The bodies as a producer sends them: decoding is part of taking a feed in.
    let fullDayBody = fullDay.encoded(), fiftyBody = fifty.encoded()
    report.notes["feed sizes"] = "full day \(fullDayBody.count / 1024) KiB, 50 trips \(fiftyBody.count) bytes"

    let rssBefore = residentMemoryMiB()
    let (firstReport, firstSeconds) = time { router.applyRealtime([fullDay], now: now) }
    report.add("first apply, full day (builds the trip index once)", firstSeconds * 1000, unit: "ms")
    report.add("full-day overlay memory (its own count)", Double(firstReport.overlayMemoryBytes) / 1_048_576, unit: "MiB")
    report.add("resident memory growth after the first full-day apply", residentMemoryMiB() - rssBefore, unit: "MiB")
    let applied = firstReport.feeds.first
    report.notes["full-day outcome"] = "\(applied?.tripUpdatesApplied ?? 0) applied, refused: "
        + (applied?.tripUpdatesRefused.map { "\($0.value) \($0.key)" }.sorted().joined(separator: ", ") ?? "")
    var fullDaySeconds: [Double] = [], fiftySeconds: [Double] = []
    for _ in 0..<10 { fullDaySeconds.append(time { router.applyRealtime([fullDay], now: now) }.1) }
    for _ in 0..<50 { fiftySeconds.append(time { router.applyRealtime([fifty], now: now) }.1) }
    report.addLatencies("apply full-day feed", fullDaySeconds)
    report.addLatencies("apply 50-trip feed", fiftySeconds)
    var fullDayTakeIn: [Double] = [], fiftyTakeIn: [Double] = []
    for _ in 0..<10 {
        fullDayTakeIn.append(try time { router.applyRealtime([try RealtimeFeed(decoding: fullDayBody)], now: now) }.1)
    }
    for _ in 0..<50 {
        fiftyTakeIn.append(try time { router.applyRealtime([try RealtimeFeed(decoding: fiftyBody)], now: now) }.1)
    }
    report.addLatencies("decode + apply full-day feed", fullDayTakeIn)
    report.addLatencies("decode + apply 50-trip feed", fiftyTakeIn)

    let (pairs, _) = try tampereQueryPairs(router, count: 1_000)
    var p50: [Bool: Double] = [:]
    for withOverlay in [false, true] {
        router.applyRealtime(withOverlay ? [fullDay] : [], now: now)
        var cpu: [Double] = []
        var found = 0
        for (from, to, when) in pairs {
            if let (_, seconds) = try? cpuTime({ try router.leg(from: from, to: to, timing: .departAt(when), pace: .normal) }) {
                cpu.append(seconds)
                found += 1
            }
        }
        let name = withOverlay ? "depart-at with the full-day overlay" : "depart-at without overlay"
        report.addLatencies("\(name), CPU time", cpu)
        report.notes["\(name) journeys"] = "\(found)"
        p50[withOverlay] = percentile(cpu.sorted(), 0.5)
    }
    if let with = p50[true], let without = p50[false], without > 0 {
        report.add("depart-at p50 ratio, overlay / none", with / without, unit: "x")
    }
    router.applyRealtime([], now: now)
    return report
}
