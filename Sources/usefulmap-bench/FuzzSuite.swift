import Foundation
import Glibc
import WireProtocol

/// `usefulmap-bench fuzz [--inputs=N] [--seed=N] [--socket=PATH] [--tampere]`: sends
/// `ProtocolFuzzer` inputs to a real daemon in rounds of 50 (each ended by a `status` whose
/// answer proves the daemon still serves), hangs up mid-round now and then, and fails on the
/// first death, hang or answer that is not one line of JSON. Without `--socket` it starts its
/// own daemon (with `--tampere`, on the imported Tampere region, so that routing is fuzzed too).
func runFuzzSuite() async throws -> SuiteReport {
    let inputs = Int(benchOption("inputs") ?? "") ?? 20_000
    let seed = UInt64(benchOption("seed") ?? "") ?? 1
    let daemon = try BenchDaemon(existingSocket: benchOption("socket"), importTampere: benchFlag("tampere"))
    defer { daemon.stop() }
    var report = SuiteReport(suite: "fuzz")
    let startMiB = daemon.residentMiB
    var fuzzer = ProtocolFuzzer(seed: seed)
    var connection = try FuzzConnection(socketPath: daemon.socketPath)
    var tally = FuzzTally()
    let roundSize = 50
    let started = DispatchTime.now().uptimeNanoseconds
    var round = 0
    while tally.inputs < inputs {
        round += 1
        var payload: [UInt8] = []
        let count = min(roundSize, inputs - tally.inputs)
        for _ in 0..<count { payload += fuzzer.next() + [0x0A] }
        if tally.inputs % 50_000 == 0, tally.inputs > 0, daemon.isRunning {
            // Progress for long runs: the inputs sent so far, the daemon alive after all of them.
            let rss = daemon.residentMiB.map { String(format: ", daemon RSS %.1f MiB", $0) } ?? ""
            FileHandle.standardError.write(Data("fuzz: \(tally.inputs) inputs, \(tally.answerLines) answers, 0 deaths\(rss)\n".utf8))
        }
        tally.inputs += count
        if round.isMultiple(of: 25) {
            // A client that hangs up halfway through: its work is dropped, the daemon goes on.
            let quitter = try FuzzConnection(socketPath: daemon.socketPath)
            _ = quitter.sendWithoutWaiting(Array(payload.prefix(payload.count / 2)))
            quitter.close()
            tally.hangUps += 1
            continue
        }
        let sentinel = Array(#"{"jsonrpc":"2.0","id":"fuzz-sentinel-\#(round)","method":"status"}"#.utf8)
        let outcome = connection.exchange(payload + sentinel + [0x0A], until: Array(#""fuzz-sentinel-\#(round)""#.utf8),
                                          timeoutSeconds: 120, tally: &tally)
        guard daemon.isRunning else {
            let saved = FuzzTally.save(payload, seed: seed, round: round)
            throw BenchError("usefulmapd died in round \(round) (seed \(seed)); the round's input is in \(saved)")
        }
        switch outcome {
        case .answered: break
        case .closedByDaemon:
            // `line_too_long` (or a full output queue) closes the connection by design.
            connection.close()
            connection = try FuzzConnection(socketPath: daemon.socketPath)
            tally.reconnects += 1
        case .timedOut:
            let saved = FuzzTally.save(payload, seed: seed, round: round)
            throw BenchError("usefulmapd stopped answering in round \(round) (seed \(seed)); the round's input is in \(saved)")
        }
        guard tally.malformedAnswers == 0 else {
            let saved = FuzzTally.save(payload, seed: seed, round: round)
            throw BenchError("an answer was not one line of JSON in round \(round) (seed \(seed)); input in \(saved)")
        }
    }
    connection.close()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    // Alive and serving after everything.
    _ = try await WireClient(socketPath: daemon.socketPath).call(Endpoints.status, Params.Empty())

    report.notes["seed"] = String(seed)
    report.add("inputs", Double(tally.inputs), unit: "count")
    report.add("answer lines", Double(tally.answerLines), unit: "count")
    report.add("internal_error answers", Double(tally.internalErrors), unit: "count")
    report.add("connections closed by the daemon", Double(tally.reconnects), unit: "count")
    report.add("clients hung up mid-round", Double(tally.hangUps), unit: "count")
    report.add("daemon deaths", 0, unit: "count")
    report.add("inputs per second", Double(tally.inputs) / seconds, unit: "1/s")
    if let startMiB, let endMiB = daemon.residentMiB {
        report.add("daemon RSS before", startMiB, unit: "MiB")
        report.add("daemon RSS after", endMiB, unit: "MiB")
    }
    return report
}

/// What the fuzzer saw.
struct FuzzTally {
    var inputs = 0
    var answerLines = 0
    var internalErrors = 0
    var malformedAnswers = 0
    var reconnects = 0
    var hangUps = 0

    mutating func record(_ line: Data) {
        answerLines += 1
        if (try? JSONSerialization.jsonObject(with: line, options: [.fragmentsAllowed])) == nil { malformedAnswers += 1 }
        if line.range(of: Data(#""code":"internal_error""#.utf8)) != nil { internalErrors += 1 }
    }

    /// Writes a round's input for replay; returns the path.
    static func save(_ payload: [UInt8], seed: UInt64, round: Int) -> String {
        let path = "/tmp/usefulmap-fuzz-seed\(seed)-round\(round).jsonl"
        _ = FileManager.default.createFile(atPath: path, contents: Data(payload))
        return path
    }
}

/// One connection the fuzzer writes to and reads from at the same time, so that the daemon's
/// per-connection request limit (reading pauses until answers are taken) cannot deadlock it.
struct FuzzConnection {
    enum Outcome { case answered, closedByDaemon, timedOut }

    private let fd: Int32
    private var framer = LineFramer(limit: 256 << 20)

    init(socketPath: String) throws {
        fd = try WireClient.connectedSocket(path: socketPath)
    }

    func close() { Glibc.close(fd) }

    /// Sends what the socket takes at once; returns the byte count.
    func sendWithoutWaiting(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
    }

    /// Sends `payload` while reading answers, until a line containing `marker` arrives.
    mutating func exchange(_ payload: [UInt8], until marker: [UInt8], timeoutSeconds: Double,
                           tally: inout FuzzTally) -> Outcome {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeoutSeconds * 1e9)
        let needle = Data(marker)
        var offset = 0
        var buffer = [UInt8](repeating: 0, count: 65536)
        while DispatchTime.now().uptimeNanoseconds < deadline {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN) | (offset < payload.count ? Int16(POLLOUT) : 0), revents: 0)
            guard poll(&descriptor, 1, 1000) > 0 else { continue }
            if descriptor.revents & Int16(POLLOUT) != 0, offset < payload.count {
                let sent = payload.withUnsafeBytes { raw in
                    send(fd, raw.baseAddress! + offset, min(raw.count - offset, 65536), Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                }
                if sent > 0 { offset += sent } else if errno != EAGAIN && errno != EINTR { return .closedByDaemon }
            }
            if descriptor.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if count == 0 { return .closedByDaemon }
                if count < 0 {
                    if errno == EAGAIN || errno == EINTR { continue }
                    return .closedByDaemon
                }
                var found = false
                for event in framer.append(buffer[0..<count]) {
                    guard case .line(let line) = event else { continue }
                    tally.record(line)
                    if line.range(of: needle) != nil { found = true }
                }
                if found { return .answered }
            }
        }
        return .timedOut
    }
}

/// `--name=value` from the command line.
func benchOption(_ name: String) -> String? {
    CommandLine.arguments.first { $0.hasPrefix("--\(name)=") }.map { String($0.dropFirst(name.count + 3)) }
}

func benchFlag(_ name: String) -> Bool { CommandLine.arguments.contains("--\(name)") }
