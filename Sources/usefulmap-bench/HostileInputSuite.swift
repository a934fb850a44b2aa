import Daemon
import Foundation
import Transit
import WireProtocol

/// `usefulmap-bench hostile`: what issue 44's heavy inputs cost a real daemon.
/// - Answers through alert-heavy feeds: Tampere with 8 GTFS-Realtime feeds of 2,700 alerts each
///   on every bus and tram (about 30 MB each, as the probe sent), `compare` Keskustori → Hervanta
///   at 08:00: answer size and time, and the daemon's memory with the feeds and after they go.
///   Targets: ≤ 1 MB per answer, ≤ 200 ms.
/// - Event fan-out: `location.set` (which publishes `location_changed`) with 0 and 200 idle
///   `watch` connections. Target: the sender's request ≤ 0.1 ms with 200 watchers.
///   In process as well: `EventHub.publish` with 200 watchers, the publisher's time and the
///   whole fan-out's per event.
/// Options: `--alerts-per-feed=N` (default 2,700), `--watchers=N` (default 200), `--fan-out-only`.
func runHostileInputSuite() async throws -> SuiteReport {
    var report = SuiteReport(suite: "hostile")
    func option(_ name: String, _ fallback: Int) -> Int {
        CommandLine.arguments.first { $0.hasPrefix("--\(name)=") }.flatMap { Int($0.split(separator: "=").last ?? "") } ?? fallback
    }
    await hubFanOut(watchers: option("watchers", 200), into: &report)
    try await fanOut(watchers: option("watchers", 200), into: &report)
    if CommandLine.arguments.contains("--fan-out-only") { return report }
    try await alertHeavyAnswers(alertsPerFeed: option("alerts-per-feed", 2_700), into: &report)
    return report
}

/// `EventHub.publish` in process with `watchers` watches, each making its notification line as
/// a connection's does (the send left out): what the publisher pays per event, and the
/// fan-out's whole cost per event (on the hub's thread).
private func hubFanOut(watchers: Int, into report: inout SuiteReport) async {
    let hub = EventHub()
    let requestID = Data(#""w""#.utf8)
    let subscriptions = (0..<watchers).map { _ in hub.watch { line in !line.notificationLine(requestID: requestID).isEmpty } }
    var seconds: [Double] = []
    let events = 4_000
    let ((), whole) = await timeAsync {
        for k in 0..<events { seconds.append(time { hub.publish(.placeSaved(name: "place \(k)")) }.1) }
        await hub.finishAll()  // after every event reached every watcher
    }
    report.addLatencies("EventHub.publish, \(watchers) watchers (in process)", seconds)
    report.add("EventHub fan-out per event, \(watchers) watchers (in process)", whole / Double(events) * 1_000, unit: "ms")
    withExtendedLifetime(subscriptions) {}
}

/// `location.set` round trips with no watcher, then with `watchers` idle ones connected.
private func fanOut(watchers: Int, into report: inout SuiteReport) async throws {
    let daemon = try BenchDaemon()
    defer { daemon.stop() }
    let client = try WireClient(socketPath: daemon.socketPath)
    func rounds(_ count: Int) async throws -> [Double] {
        var seconds: [Double] = []
        for k in 0..<count {
            seconds.append(try await timeAsync {
                try await client.call(Endpoints.locationSet, Params.LocationSet(lat: 61.4978 + Double(k % 50) * 1e-5, lon: 23.7610))
            }.1)
        }
        return seconds
    }
    _ = try await rounds(200)  // warm
    report.addLatencies("location.set, no watcher", try await rounds(2_000))
    var held: [WireClient] = []
    for _ in 0..<watchers {
        let watcher = try WireClient(socketPath: daemon.socketPath)
        try watcher.send(Data(#"{"jsonrpc":"2.0","id":"w","method":"watch"}"#.utf8 + [0x0A]))
        held.append(watcher)
    }
    usleep(500_000)  // every watch subscribed
    _ = try await rounds(200)
    report.addLatencies("location.set, \(watchers) idle watchers", try await rounds(2_000))
    report.notes["fan-out"] = "the watchers never read: their events wait (and are dropped past 256 or 64 KiB each)"
    withExtendedLifetime(held) {}
}

/// Eight alert-heavy feeds over Tampere, and `compare` through them.
private func alertHeavyAnswers(alertsPerFeed: Int, into report: inout SuiteReport) async throws {
    let daemon = try BenchDaemon(importTampere: true, arguments: ["--clock-start", "2022-01-12T07:00:00+02:00"])
    defer { daemon.stop() }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("usefulmap-bench-alerts-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // About 11 KB of text per alert, as in the probe's 30 MB feeds.
    let text = String(repeating: "Works on the line; expect changes to stops and times. ", count: 200)
    var feeds: [String] = []
    for feed in 0..<8 {
        let alerts = (0..<alertsPerFeed).map { k in
            RealtimeAlert(entityID: "f\(feed)-a\(k)", informedEntities: [RealtimeEntitySelector(routeType: 0),
                                                                       RealtimeEntitySelector(routeType: 3)],
                          effect: "detour", header: [RealtimeTranslation(text: "Notice \(k)")],
                          description: [RealtimeTranslation(text: text)])
        }
        let file = folder.appendingPathComponent("alerts-\(feed).pb")
        try RealtimeFeed(timestamp: Date(timeIntervalSince1970: 1_641_963_600), alerts: alerts).encoded().write(to: file)
        feeds.append(file.path)
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: feeds[0])[.size] as? Int) ?? 0
    report.notes["feeds"] = "8 feeds of \(alertsPerFeed) alerts on every bus and tram, \(size / 1_048_576) MiB each"
    let client = try WireClient(socketPath: daemon.socketPath)
    let compare = Params.Compare(from: "61.4978,23.7610", to: "61.4502,23.8510", at: "2022-01-12T08:00")
    _ = try await client.call(Endpoints.compare, compare)
    let rssBefore = daemon.residentMiB ?? 0
    _ = try await client.call(Endpoints.regionSet, Params.RegionSet(name: "tampere", realtime: feeds))
    var live = 0
    for _ in 0..<600 where live < 8 {
        usleep(200_000)
        let status = try await client.call(Endpoints.status, Params.Empty())
        live = status.regions.first?.realtimeFeeds?.filter { $0.state == "live" }.count ?? 0
    }
    report.notes["feeds live"] = "\(live) of 8"
    var seconds: [Double] = [], bytes: [Double] = [], alertsShown = 0, omitted = 0
    for _ in 0..<20 {
        // The answer as the client's codec read it, and the line it came in (its size).
        let ((result, line), elapsed) = try await timeAsync { try await client.callReturningLine("compare", params: compare) }
        seconds.append(elapsed)
        bytes.append(Double(line.count))
        let transit = result["options"]?.arrayValue?.first { $0["mode"] == .string("transit") }
        let rides = transit?["leg"]?["rides"]?.arrayValue ?? transit?["rides"]?.arrayValue ?? []
        alertsShown = rides.reduce(0) { $0 + ($1["alerts"]?.arrayValue?.count ?? 0) }
        omitted = rides.reduce(0) { $0 + Int($1["alerts_omitted"]?.numberValue ?? 0) }
    }
    report.addLatencies("compare through 8 alert-heavy feeds", seconds)
    report.add("compare answer size, largest of 20", (bytes.max() ?? 0) / 1_048_576, unit: "MiB")
    report.notes["alerts per answer"] = "\(alertsShown) shown on the transit option's rides, \(omitted) counted as omitted"
    let rssWith = daemon.residentMiB ?? 0
    _ = try await client.call(Endpoints.regionSet, Params.RegionSet(name: "tampere", realtime: []))
    usleep(2_000_000)
    report.add("daemon memory growth with the feeds", rssWith - rssBefore, unit: "MiB")
    report.add("daemon memory growth after the feeds are removed", (daemon.residentMiB ?? 0) - rssBefore, unit: "MiB")
}
