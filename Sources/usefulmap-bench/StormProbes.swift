import Executors
import Foundation
import Glibc
import Synchronization
import WireProtocol

/// The soak suite's storms (issue 25): a batch storm, a non-reading watch storm, a map storm and
/// a descriptor storm. Each reports the daemon's RSS before, at its peak and after the storm
/// (its clients gone), and the latency of `status` asked from another connection during it.
enum StormProbes {
    static func run(daemon: BenchDaemon, planID: Int64, into report: inout SuiteReport) throws {
        let socket = daemon.socketPath
        try probe("batch storm", daemon, &report) { batchStorm(socket, planID: planID) }
        try probe("watch storm", daemon, &report) { try watchStorm(socket) }
        // One map first: the region's street layer and the fonts of the labels are loaded once
        // and kept (not the storm's cost).
        let warming = try WireClient(socketPath: socket)
        _ = try runToEnd { try await warming.call(Endpoints.planMap, Params.PlanMap(id: planID, picture: Params.MapPicture(width: 1024, height: 1024))) }
        try probe("map storm", daemon, &report) { mapStorm(socket, planID: planID) }
        try probe("descriptor storm", daemon, &report) { descriptorStorm(socket) }
    }

    /// Runs `storm` while another thread times `status` and samples the daemon's memory.
    private static func probe(_ name: String, _ daemon: BenchDaemon, _ report: inout SuiteReport,
                              _ storm: () throws -> Void) throws {
        let before = daemon.residentMiB ?? 0
        let sampler = Sampler(socketPath: daemon.socketPath, pid: daemon.processIdentifier ?? 0)
        sampler.start()
        try storm()
        let (latencies, peak) = sampler.stop()
        sleep(2) // the storm's connections close and their memory is given back
        let after = daemon.residentMiB ?? 0
        report.add("\(name): RSS before", before, unit: "MiB")
        report.add("\(name): RSS peak", max(peak, before), unit: "MiB")
        report.add("\(name): RSS after", after, unit: "MiB")
        report.addLatencies("\(name): status during", latencies)
    }

    /// Six clients, each sending three batches of as many `plan.show --geometry` as a batch holds.
    private static func batchStorm(_ socket: String, planID: Int64) {
        let call = #"{"jsonrpc":"2.0","id":ID,"method":"plan.show","params":{"id":\#(planID),"geometry":true}}"#
        let line = Data(("[" + (0..<WireLimits.maximumBatchCalls).map { call.replacingOccurrences(of: "ID", with: String($0)) }
            .joined(separator: ",") + "]\n").utf8)
        concurrently(6) {
            guard let client = try? WireClient(socketPath: socket) else { return }
            for _ in 0..<3 {
                guard (try? client.send(line)) != nil, (try? client.receiveLine()) != nil else { return }
            }
        }
    }

    /// Fifty `watch` clients that never read while 20,000 events are published, then they close.
    private static func watchStorm(_ socket: String) throws {
        var watchers: [Int32] = []
        defer { watchers.forEach { close($0) } }
        let watch = Array(#"{"jsonrpc":"2.0","id":"w","method":"watch"}"#.utf8 + [0x0A])
        for _ in 0..<50 {
            let fd = try WireClient.connectedSocket(path: socket)
            var small: Int32 = 4096
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
            _ = watch.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            watchers.append(fd)
        }
        let publisher = try WireClient(socketPath: socket)
        let set = #"{"jsonrpc":"2.0","method":"location.set","params":{"lat":61.5,"lon":23.76}}"#
        let line = Data(("[" + Array(repeating: set, count: WireLimits.maximumBatchCalls).joined(separator: ",") + "]\n").utf8)
        for _ in 0..<(20_000 / WireLimits.maximumBatchCalls) {
            try publisher.send(line)
            _ = try runToEnd { try await publisher.call(Endpoints.status, Params.Empty()) } // at the daemon's pace
        }
    }

    /// Two clients each drawing three 4096×4096 maps of the plan.
    private static func mapStorm(_ socket: String, planID: Int64) {
        concurrently(2) {
            guard let client = try? WireClient(socketPath: socket) else { return }
            runToEnd {
                for _ in 0..<3 {
                    _ = try? await client.call(Endpoints.planMap, Params.PlanMap(id: planID, picture: Params.MapPicture(format: .png, width: 4096, height: 4096)))
                }
            }
        }
    }

    /// Sixty clients each passing sixteen open files with a `status`, kept open together, then closed.
    private static func descriptorStorm(_ socket: String) {
        let request = Data((#"{"jsonrpc":"2.0","id":1,"method":"status"}"# + "\n").utf8)
        var open: [Int32] = []
        defer { open.forEach { close($0) } }
        for _ in 0..<60 {
            guard let fd = try? WireClient.connectedSocket(path: socket) else { continue }
            open.append(fd)
            let passed = (0..<DescriptorPassing.maximumPerMessage).map { _ in Glibc.open("/dev/null", O_RDONLY) }
            _ = try? DescriptorPassing.send(request, descriptors: passed, on: fd)
            passed.forEach { close($0) }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            var buffer = [UInt8](repeating: 0, count: 4096)
            if poll(&descriptor, 1, 10_000) > 0 { _ = read(fd, &buffer, buffer.count) }
        }
    }

    private static func concurrently(_ count: Int, _ body: @escaping @Sendable () -> Void) {
        let ended = Mailbox<Bool>()
        for _ in 0..<count {
            startThread(named: "bench-storm") { body(); ended.put(true) }
        }
        for _ in 0..<count { _ = ended.take() }
    }
}

/// Times `status` every 10 ms on its own connection and samples the daemon's RSS, until stopped.
private final class Sampler: Sendable {
    private struct State {
        var stopping = false
        var latencies: [Double] = []
        var peak = 0.0
    }
    private let state = Mutex(State())
    private let done = Gate()
    private let socketPath: String
    private let pid: Int32

    init(socketPath: String, pid: Int32) {
        self.socketPath = socketPath
        self.pid = pid
    }

    func start() {
        startThread(named: "bench-sampler") { [self] in
            let client = try? WireClient(socketPath: socketPath)
            while !state.withLock({ $0.stopping }) {
                if let client, let (_, seconds) = try? time({ try runToEnd { try await client.call(Endpoints.status, Params.Empty()) } }) {
                    state.withLock { $0.latencies.append(seconds) }
                }
                let rss = Self.residentMiB(pid)
                state.withLock { $0.peak = max($0.peak, rss) }
                usleep(10_000)
            }
            done.open()
        }
    }

    func stop() -> (latencies: [Double], peakMiB: Double) {
        state.withLock { $0.stopping = true }
        done.wait()
        return state.withLock { ($0.latencies, $0.peak) }
    }

    static func residentMiB(_ pid: Int32) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return (line.split(separator: " ").compactMap { Double($0) }.first ?? 0) / 1024
        }
        return 0
    }
}
