import Foundation
import Glibc
import Synchronization
import WireProtocol

/// The daemon through its socket: round trips of `status` and `plan.show`, throughput with 16
/// concurrent clients, creating a transit plan in Tampere end to end, a one-segment edit, and
/// `status` while 16 clients write (`addMixedLoadFigures`).
/// Starts the real `usefulmapd` built beside this executable on a temporary data directory
/// and talks to it with the in-process `WireClient` (no `umctl` start-up in the figures).
func runDaemonSuite() async throws -> SuiteReport {
    var report = SuiteReport(suite: "daemon")
    let tampere = sharedDirectory().appendingPathComponent("data/tampere")
    let daemon = try BenchDaemon()
    defer { daemon.stop() }
    let socket = daemon.socketPath
    let client = try WireClient(socketPath: socket)

    // The whole region import (streets, then the timetable with its footpaths timed on the
    // streets), five times: the first, then four forced imports of the same sources again.
    var importSeconds: [Double] = []
    for force in [false, true, true, true, true] {
        importSeconds.append(try await timeAsync {
            try await client.call(Endpoints.regionImport, Params.RegionImport(
                name: "tampere", osm: tampere.appendingPathComponent("tampere.osm.pbf").path,
                gtfs: [tampere.appendingPathComponent("tampere.zip").path], force: force ? true : nil))
        }.1)
    }
    report.add("region import (Tampere streets + GTFS), first", importSeconds[0], unit: "s")
    report.add("region import (Tampere streets + GTFS), p50 of 5", percentile(importSeconds.sorted(), 0.5), unit: "s")
    report.notes["region imports"] = importSeconds.map { String(format: "%.2f s", $0) }.joined(separator: ", ")

    // Warm up the engines (worker processes, timetable load) before measuring.
    _ = try await client.call(Endpoints.compare, Params.Compare(from: "61.4978,23.7610", to: "61.4502,23.8510", at: "2022-01-12T08:00"))

    // `compare` on 40 seeded random pairs of points in central Tampere: in process, and as a
    // user runs it (a whole `umctl compare` process each, its start-up included).
    var pairGenerator = SeededGenerator(seed: 26)
    func point() -> String {
        String(format: "%.5f,%.5f", 61.470 + Double(pairGenerator.next() % 4000) / 100_000,
               23.700 + Double(pairGenerator.next() % 12000) / 100_000)
    }
    let pairs = (0..<40).map { _ in (point(), point()) }
    let inProcess = try await secondsEach(pairs) { (from, to) in
        try await client.call(Endpoints.compare, Params.Compare(from: from, to: to, at: "2022-01-12T08:00"))
    }
    report.addLatencies("compare (40 random pairs, in process)", inProcess)
    report.add("compare (40 random pairs, in process) p90", percentile(inProcess.sorted(), 0.9) * 1000, unit: "ms")
    // Issue 24: the bike as a fourth mode must keep compare within 1.3× of the three-mode time.
    // The same pairs, three modes (walk, transit, car) and all four asked alternately so that
    // the machine's load falls on both alike; the ratio is of the totals and of the p50s.
    var threeModes: [Double] = [], fourModes: [Double] = []
    for (from, to) in pairs + pairs {
        threeModes.append(try await timeAsync {
            try await client.call(Endpoints.compare, Params.Compare(from: from, to: to, at: "2022-01-12T08:00", modes: [.walk, .transit, .car]))
        }.1)
        fourModes.append(try await timeAsync { try await client.call(Endpoints.compare, Params.Compare(from: from, to: to, at: "2022-01-12T08:00")) }.1)
    }
    report.addLatencies("compare 3 modes (80 runs)", threeModes)
    report.addLatencies("compare 4 modes (80 runs)", fourModes)
    report.add("compare 4 / 3 modes, total time", fourModes.reduce(0, +) / threeModes.reduce(0, +), unit: "×")
    report.add("compare 4 / 3 modes, p50", percentile(fourModes.sorted(), 0.5) / percentile(threeModes.sorted(), 0.5), unit: "×")

    // Spawned with posix_spawn and reaped with wait4, as a shell does (Foundation's `Process` adds
    // its own thread and run loop); the CPU rows are the process's own (user + system) and the
    // daemon's with its Routino workers per compare, which other work on a shared machine leaves out.
    // `--umctl=PATH`: the client a user runs, e.g. the static one `make install` builds.
    let umctl = benchOption("umctl") ?? BenchDaemon.binaries.appendingPathComponent("umctl").path
    var umctlCPU: [Double] = []
    let daemonBefore = daemon.processIdentifier.map { ProcessTreeCPU.seconds(of: $0) }
    let wholeProcess = try pairs.map { from, to in
        let (cpu, wall) = try time { try spawnAndWait([umctl, "compare", from, to, "--at", "2022-01-12T08:00", "--socket", socket]) }
        umctlCPU.append(cpu)
        return wall
    }
    report.addLatencies("compare (40 random pairs, whole umctl process)", wholeProcess)
    report.add("compare (40 random pairs, whole umctl process) p90", percentile(wholeProcess.sorted(), 0.9) * 1000, unit: "ms")
    report.addLatencies("compare (40 random pairs, umctl process CPU)", umctlCPU)
    if let pid = daemon.processIdentifier, let before = daemonBefore {
        report.add("compare (40 random pairs, daemon + Routino workers CPU per compare)",
                   (ProcessTreeCPU.seconds(of: pid) - before) / Double(pairs.count) * 1000, unit: "ms")
    }

    // Untyped (the answer read as JSON, as before issue 11) so that the figures compare the daemon
    // across versions; the typed rows add what a client pays to decode the result document.
    report.addLatencies("status round trip", try await secondsEach(0..<2000) { _ in
        try await client.call(WireMethod.status.rawValue, params: Params.Empty())
    })
    report.addLatencies("status round trip, typed client (StatusDocument)", try await secondsEach(0..<2000) { _ in
        try await client.call(Endpoints.status, Params.Empty())
    })

    // Transit plans from points around the centre to Hervanta, end to end (stops, legs, store).
    var generator = SeededGenerator(seed: 5)
    var planIDs: [Int64] = []
    var createTimes: [Double] = []
    for _ in 0..<30 {
        let lat = 61.490 + Double(generator.next() % 1000) / 100_000
        let lon = 23.740 + Double(generator.next() % 3000) / 100_000
        let (plan, seconds) = try await timeAsync {
            try await client.call(Endpoints.planNew, Params.PlanNew(from: String(format: "%.5f,%.5f", lat, lon), to: "61.45020,23.85100",
                                                               mode: .transit, at: "2022-01-12T08:00"))
        }
        planIDs.append(plan.id)
        createTimes.append(seconds)
    }
    report.addLatencies("create transit plan (end to end)", createTimes)

    let shown = planIDs[0]
    report.addLatencies("plan.show round trip", try await secondsEach(0..<2000) { _ in
        try await client.call(WireMethod.planShow.rawValue, params: Params.PlanShow(id: shown))
    })
    report.addLatencies("plan.show round trip, typed client (PlanDocument)", try await secondsEach(0..<2000) { _ in
        try await client.call(Endpoints.planShow, Params.PlanShow(id: shown))
    })

    // One-segment edit: segment 1 (the walk to the first stop) alternates walk/car; one query each.
    report.addLatencies("one-segment edit (plan.mode)", try await secondsEach(0..<60) { index in
        try await client.call(Params.PlanMode.endpoint, Params.PlanMode(id: shown, segment: 1, mode: index.isMultiple(of: 2) ? .car : .walk))
    })

    // 16 clients, each on its own connection, each showing its own plan as fast as it can.
    let perClient = 400
    let failures = FailureCount()
    let ids = planIDs
    let (_, wall) = time {
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            do {
                let own = try WireClient(socketPath: socket)
                let id = ids[index % ids.count]
                try runToEnd {
                    for request in 0..<perClient {
                        if request.isMultiple(of: 2) {
                            _ = try await own.call(Endpoints.planShow, Params.PlanShow(id: id))
                        } else {
                            _ = try await own.call(Endpoints.status, Params.Empty())
                        }
                    }
                }
            } catch {
                failures.add()
            }
        }
    }
    guard failures.value == 0 else { throw BenchError("\(failures.value) concurrent clients failed") }
    report.add("throughput, 16 clients (plan.show/status mix)", Double(16 * perClient) / wall, unit: "req/s")
    try addMixedLoadFigures(to: &report, socket: socket, planIDs: planIDs)
    report.notes["plans"] = "\(planIDs.count) transit plans, Keskustori area → Hervanta, 2022-01-12 08:00"
    report.notes["daemon"] = "usefulmapd from \(BenchDaemon.binaries.path), its default Routino workers (--street-workers), in-process WireClient over the Unix socket"
    return report
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

final class FailureCount: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
