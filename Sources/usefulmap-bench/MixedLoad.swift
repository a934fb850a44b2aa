import Foundation
import Synchronization
import WireProtocol

/// Issue 27's mixed load: while 16 clients, each on its own connection, save places and edit
/// their own plan as fast as they can, one more client measures `status` round trips. `status`
/// should not wait for the writers (p50 ≤ 1 ms, p99 ≤ 3 ms); the writers' throughput and the
/// plan edits' p50 are the figures that must not get worse.
/// - parameter planIDs: plans to edit (client k edits plan k mod count); segment 1 alternates walk/car.
func addMixedLoadFigures(to report: inout SuiteReport, socket: String, planIDs: [Int64], perClient: Int = 60) throws {
    let clients = 16
    let failures = Mutex<[String]>([])
    let editSeconds = Mutex<[Double]>([])
    let running = Atomic<Int>(clients)
    let run = UUID().uuidString.prefix(8)
    let started = DispatchTime.now().uptimeNanoseconds
    let writers = (0..<clients).map { index in
        Thread {
            defer { running.subtract(1, ordering: .sequentiallyConsistent) }
            do {
                let own = try WireClient(socketPath: socket)
                let id = planIDs[index % planIDs.count]
                for step in 0..<perClient {
                    _ = try own.call(Endpoints.placeSave, Params.PlaceSave(
                        name: "mixed \(run) \(index)-\(step)", place: String(format: "61.%05d,23.%05d", 45_000 + index * 100 + step, 76_000 + step)))
                    let (_, seconds) = try time {
                        try own.call(Endpoints.planMode, Params.PlanMode(id: id, segment: 1, mode: step.isMultiple(of: 2) ? .car : .walk))
                    }
                    editSeconds.withLock { $0.append(seconds) }
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
    }
    for writer in writers { writer.start() }
    let probe = try WireClient(socketPath: socket)
    var statusSeconds: [Double] = []
    while running.load(ordering: .sequentiallyConsistent) > 0 {
        statusSeconds.append(try time { try probe.call(Endpoints.status, Params.Empty()) }.1)
    }
    let wall = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    let failed = failures.withLock { $0 }
    guard failed.isEmpty else { throw BenchError("\(failed.count) mixed-load clients failed: \(failed[0])") }
    report.addLatencies("status round trip while 16 clients save places and edit plans", statusSeconds)
    report.addLatencies("plan edit (plan.mode) among 16 writing clients", editSeconds.withLock { $0 })
    report.add("write throughput, 16 clients (place.save + plan.mode)", Double(clients * perClient * 2) / wall, unit: "req/s")
}

/// `usefulmap-bench mixed [--socket=PATH]`: only the mixed-load figures (the `daemon` suite has
/// them too), on a fresh daemon or one already running (so that two builds compare with one
/// bench): imports Tampere, makes 16 transit plans, then runs the load.
func runMixedLoadSuite() async throws -> SuiteReport {
    var report = SuiteReport(suite: "mixed")
    let socket = CommandLine.arguments.first { $0.hasPrefix("--socket=") }.map { String($0.dropFirst("--socket=".count)) }
    let daemon = try BenchDaemon(existingSocket: socket)
    defer { daemon.stop() }
    let client = try WireClient(socketPath: daemon.socketPath)
    let tampere = sharedDirectory().appendingPathComponent("data/tampere")
    _ = try client.call(Endpoints.regionImport, Params.RegionImport(
        name: "tampere", osm: tampere.appendingPathComponent("tampere.osm.pbf").path,
        gtfs: [tampere.appendingPathComponent("tampere.zip").path]))
    var generator = SeededGenerator(seed: 5)
    var planIDs: [Int64] = []
    for _ in 0..<16 {
        let lat = 61.490 + Double(generator.next() % 1000) / 100_000
        let lon = 23.740 + Double(generator.next() % 3000) / 100_000
        planIDs.append(try client.call(Endpoints.planNew, Params.PlanNew(
            from: String(format: "%.5f,%.5f", lat, lon), to: "61.45020,23.85100", mode: .transit, at: "2022-01-12T08:00")).id)
    }
    try addMixedLoadFigures(to: &report, socket: daemon.socketPath, planIDs: planIDs)
    report.notes["load"] = "16 clients × 60 × (place.save + plan.mode on their own transit plan); a 17th asks status meanwhile"
    return report
}
