import Executors
import Foundation
import Glibc
import Synchronization
import WireProtocol

/// Where the mixed load's `status` prober runs.
enum MixedLoadProber: String {
    /// A process of its own (`StatusProber`): what a user's status bar is. The default.
    case process
    /// A 17th thread of the bench process, beside the 16 writers (the figures before 2026-12-02).
    case thread
}

/// Issue 27's mixed load: while 16 clients, each on its own connection, save places and edit
/// their own plan as fast as they can, one more client measures `status` round trips. `status`
/// should not wait for the writers (p50 ≤ 1 ms, p99 ≤ 3 ms); the writers' throughput and the
/// plan edits' p50 are the figures that must not get worse.
///
/// With `atOnceTrace` (the file the daemon was started with as `USEFULMAPD_AT_ONCE_TRACE`), each
/// round trip is split into the daemon's own time (its I/O thread's read → send) and the rest
/// (waiting for a core on either side, and the prober's own work). The daemon's threads'
/// context switches and run-queue wait over the load are read from `/proc` either way.
/// - parameter planIDs: plans to edit (client k edits plan k mod count); segment 1 alternates walk/car.
/// - parameter statusPacing: how often the process prober asks.
/// - parameter aloneSeconds: how long the process prober asks alone first (the idle figure).
func addMixedLoadFigures(to report: inout SuiteReport, socket: String, planIDs: [Int64], perClient: Int = 60, aloneSeconds: Double = 5,
                         prober: MixedLoadProber = .process, atOnceTrace: String? = nil, statusPacing: StatusProber.Pacing = .asFastAsAnswered) throws {
    let clients = 16
    let failures = Mutex<[String]>([])
    let editSeconds = Mutex<[Double]>([])
    let running = Atomic<Int>(clients)
    let writersDone = Gate()
    let run = UUID().uuidString.prefix(8)
    let daemonPID = try daemonProcessID(socket: socket)
    let loadBefore = loadAverage()
    let daemonBefore = ThreadSchedule.ofProcess(daemonPID)
    let started = DispatchTime.now().uptimeNanoseconds
    let writers = (0..<clients).map { index -> @Sendable () -> Void in
        {
            defer {
                if running.subtract(1, ordering: .sequentiallyConsistent).newValue == 0 { writersDone.open() }
            }
            do {
                let own = try WireClient(socketPath: socket)
                let id = planIDs[index % planIDs.count]
                for step in 0..<perClient {
                    _ = try runToEnd { try await own.call(Endpoints.placeSave, Params.PlaceSave(
                        name: "mixed \(run) \(index)-\(step)", place: String(format: "61.%05d,23.%05d", 45_000 + index * 100 + step, 76_000 + step))) }
                    let (_, seconds) = try time {
                        try runToEnd { try await own.call(Params.PlanMode.endpoint, Params.PlanMode(id: id, segment: 1, mode: step.isMultiple(of: 2) ? .car : .walk)) }
                    }
                    editSeconds.withLock { $0.append(seconds) }
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
    }
    var statusSeconds: [Double] = []
    var idleSeconds: [Double] = []
    var proberPID = getpid()
    var proberThread: ThreadSchedule?
    var asked: (perSecond: Double, late: Int)?
    switch prober {
    case .process:
        // The same prober for a few seconds before the writers start: the idle figure the
        // loaded one is judged against (issue 45: p99 under the writers ≤ 3× idle), measured
        // in the same run, so that a machine's day-to-day speed cancels out.
        let alone = try StatusProber.Running(socket: socket, pacing: statusPacing)
        usleep(useconds_t(aloneSeconds * 1_000_000))
        idleSeconds = try alone.finish().roundTripSeconds
        let probing = try StatusProber.Running(socket: socket, pacing: statusPacing)
        for writer in writers { startThread(named: "bench-writer", writer) }
        writersDone.wait()
        let measured = try probing.finish()
        (statusSeconds, proberPID, proberThread) = (measured.roundTripSeconds, measured.pid, measured.schedule)
        asked = (measured.askedPerSecond, measured.askedLate)
    case .thread:
        for writer in writers { startThread(named: "bench-writer", writer) }
        let probe = try WireClient(socketPath: socket)
        let before = ThreadSchedule.ofCurrentThread()
        while running.load(ordering: .sequentiallyConsistent) > 0 {
            statusSeconds.append(try time { try runToEnd { try await probe.call(Endpoints.status, Params.Empty()) } }.1)
        }
        proberThread = ThreadSchedule.ofCurrentThread() - before
        // `probe` closes at the end of this case: the daemon writes its trace line then.
    }
    let wall = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    let daemonUsed = ThreadSchedule.ofProcess(daemonPID) - daemonBefore
    let failed = failures.withLock { $0 }
    guard failed.isEmpty else { throw BenchError("\(failed.count) mixed-load clients failed: \(failed[0])") }
    let requests = Double(clients * perClient * 2)
    // Names of at most 40 characters: the text report cuts them at 44, and " p50" must show.
    report.addLatencies("status round trip, prober \(prober.rawValue)", statusSeconds)
    if !idleSeconds.isEmpty {
        report.addLatencies("status round trip, prober alone", idleSeconds)
        report.add("status p99, under the writers / alone",
                   percentile(statusSeconds.sorted(), 0.99) / max(percentile(idleSeconds.sorted(), 0.99), 1e-9), unit: "×")
    }
    report.addLatencies("plan edit (plan.mode) among 16 writers", editSeconds.withLock { $0 })
    report.add("write throughput, 16 clients", requests / wall, unit: "req/s")
    if let atOnceTrace {
        let daemonSide = try AtOnceTraceLine.waitFor(pid: proberPID, in: atOnceTrace)
        report.addLatencies("status: daemon's time (read → send)", daemonSide.answerSeconds)
        if daemonSide.answerSeconds.count == statusSeconds.count {
            report.addLatencies("status: the rest (cores, prober's work)",
                                zip(statusSeconds, daemonSide.answerSeconds).map { $0 - $1 })
        } else {
            report.notes["trace"] = "\(daemonSide.answerSeconds.count) answers traced (\(daemonSide.unsent) not sent at once) "
                + "for \(statusSeconds.count) round trips: the rest is not paired"
        }
        report.add("status: I/O thread's wait for a core/run", daemonSide.ioThread.meanRunDelayMilliseconds, unit: "ms")
    }
    if let proberThread {
        report.add("status: prober's wait for a core/run", proberThread.meanRunDelayMilliseconds, unit: "ms")
    }
    report.add("daemon: voluntary switches per write", Double(daemonUsed.voluntarySwitches) / requests, unit: "")
    report.add("daemon: involuntary switches per write", Double(daemonUsed.involuntarySwitches) / requests, unit: "")
    report.add("daemon: threads' wait for a core/run", daemonUsed.meanRunDelayMilliseconds, unit: "ms")
    report.notes["load average (1 min) before / after"] = "\(loadBefore) / \(loadAverage())"
    report.notes["daemon's threads by nice value"] = threadsByNice(of: daemonPID)
    report.notes["prober"] = prober == .process
        ? "a process of its own" + statusPacing.reportText
        : "a thread of the bench process"
    report.add("status round trips per second", Double(statusSeconds.count) / wall, unit: "1/s")
    if let asked {
        // The prober's own count over its whole run: with a fixed rate, what a build was asked.
        report.add("status asked per second (prober's)", asked.perSecond, unit: "1/s")
        if case .every(let milliseconds) = statusPacing {
            report.add("status scheduled per second", 1_000 / milliseconds, unit: "1/s")
            report.add("status asked over an interval late", Double(asked.late), unit: "")
        }
    }
}

/// What one `status` answer costs the daemon, before the load: its threads' CPU time (schedstat,
/// the kernel's side of the read and the send included) over `answers` round trips on one
/// connection, divided by them. CPU time, not wall time: other processes on the machine change
/// it little, so two builds compare even on a busy machine.
func addStatusCostFigure(to report: inout SuiteReport, socket: String, answers: Int = 3_000) throws {
    let daemonPID = try daemonProcessID(socket: socket)
    let client = try WireClient(socketPath: socket)
    for _ in 0..<100 { _ = try runToEnd { try await client.call(Endpoints.status, Params.Empty()) } } // the parts are made on the first
    let before = ThreadSchedule.ofProcess(daemonPID)
    for _ in 0..<answers { _ = try runToEnd { try await client.call(Endpoints.status, Params.Empty()) } }
    let used = ThreadSchedule.ofProcess(daemonPID) - before
    report.add("status alone: daemon's CPU per answer", Double(used.cpuNanoseconds) / Double(answers) / 1e6, unit: "ms")
}

/// The process serving `socket` (its peer credentials).
private func daemonProcessID(socket: String) throws -> Int32 {
    let fd = try WireClient.connectedSocket(path: socket)
    defer { close(fd) }
    guard let peer = PeerCredentials.of(fd) else { throw BenchError("cannot read the daemon's credentials") }
    return peer.pid
}

/// How many of the process's threads run at each nice value, "0: 21, 10: 9": whether its heavy
/// work ran below its I/O threads (`USEFULMAPD_HEAVY_NICE`, docs/operations.md).
private func threadsByNice(of pid: Int32) -> String {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    var counts: [Int: Int] = [:]
    for task in tasks {
        // After the name in parentheses: state, ppid, … nice is the 19th field of the line.
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { continue }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        if fields.count > 16, let nice = Int(fields[16]) { counts[nice, default: 0] += 1 }
    }
    return counts.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
}

/// The 1-minute load average, as /proc/loadavg says it.
private func loadAverage() -> String {
    ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").first.map(String.init) ?? "?"
}

/// `usefulmap-bench mixed [--socket=PATH] [--at-once-trace=FILE] [--prober=process|thread]
/// [--status-pause-ms=N | --status-every-ms=N]`: only
/// the mixed-load figures (the `daemon` suite has them too), on a fresh daemon or one already
/// running (so that two builds compare with one bench): imports Tampere, makes 16 transit
/// plans, then runs the load. A daemon it starts itself writes its at-once trace into its
/// temporary folder; one already running does if started with `USEFULMAPD_AT_ONCE_TRACE=FILE`,
/// passed here as `--at-once-trace=FILE`. The prober asks as fast as answers come unless
/// `--status-pause-ms` paces it (as a status bar would: a build answering faster is still asked
/// more often) or `--status-every-ms` asks at a fixed rate: then two builds whose `status`
/// costs or waits differ are asked as often, and the writers' throughput compares.
func runMixedLoadSuite() async throws -> SuiteReport {
    var report = SuiteReport(suite: "mixed")
    func option(_ name: String) -> String? {
        CommandLine.arguments.first { $0.hasPrefix("--\(name)=") }.map { String($0.dropFirst(name.count + 3)) }
    }
    let socket = option("socket")
    guard let prober = MixedLoadProber(rawValue: option("prober") ?? "process") else {
        throw BenchError("--prober is process or thread")
    }
    var trace = option("at-once-trace")
    let traceFolder = socket == nil ? try temporaryFolder() : nil
    if let traceFolder { trace = traceFolder + "/at-once-trace.jsonl" }
    defer { if let traceFolder { try? FileManager.default.removeItem(atPath: traceFolder) } }
    let daemon = try BenchDaemon(existingSocket: socket, environment: trace.map { ["USEFULMAPD_AT_ONCE_TRACE": $0] } ?? [:])
    defer { daemon.stop() }
    let client = try WireClient(socketPath: daemon.socketPath)
    let tampere = sharedDirectory().appendingPathComponent("data/tampere")
    _ = try await client.call(Endpoints.regionImport, Params.RegionImport(
        name: "tampere", osm: tampere.appendingPathComponent("tampere.osm.pbf").path,
        gtfs: [tampere.appendingPathComponent("tampere.zip").path]))
    var generator = SeededGenerator(seed: 5)
    var planIDs: [Int64] = []
    for _ in 0..<16 {
        let lat = 61.490 + Double(generator.next() % 1000) / 100_000
        let lon = 23.740 + Double(generator.next() % 3000) / 100_000
        planIDs.append(try await client.call(Endpoints.planNew, Params.PlanNew(
            from: String(format: "%.5f,%.5f", lat, lon), to: "61.45020,23.85100", mode: .transit, at: "2022-01-12T08:00")).id)
    }
    try addStatusCostFigure(to: &report, socket: daemon.socketPath)
    let pacing = StatusProber.Pacing(pauseMilliseconds: option("status-pause-ms").flatMap(Double.init),
                                     everyMilliseconds: option("status-every-ms").flatMap(Double.init))
    try addMixedLoadFigures(to: &report, socket: daemon.socketPath, planIDs: planIDs, prober: prober, atOnceTrace: trace,
                            statusPacing: pacing)
    report.notes["load"] = "16 clients × 60 × (place.save + plan.mode on their own transit plan); a 17th asks status meanwhile"
    return report
}

/// A new private folder under /tmp.
private func temporaryFolder() throws -> String {
    var template = Array("/tmp/umbench-trace-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw BenchError("mkdtemp failed") }
    return String(cString: made)
}
