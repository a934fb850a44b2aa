import Executors
import Foundation
import Glibc
import Synchronization
import WireProtocol

/// The `status` prober of the mixed load, in a process of its own: what a user's status bar
/// is, a separate client whose wake-ups compete for the cores with the daemon and its workers,
/// not a thread of the process that also runs the 16 writing clients. The `mixed` load starts
/// this executable again as `usefulmap-bench status-prober --socket=PATH [--pause-ms=N |
/// --every-ms=N]`; it asks `status` in a loop (`Pacing`) until its standard input ends, then
/// prints the round trips (nanoseconds, one line),
/// its thread's scheduling figures (`/proc/thread-self/schedstat`: time on a core, time
/// runnable but waiting for one, runs), and the rate it asked at with how many questions were
/// asked late (behind a fixed rate's schedule).
enum StatusProber {
    static let command = "status-prober"

    /// How often the prober asks.
    enum Pacing: Sendable {
        /// As fast as answers come: a cheaper answer means more questions.
        case asFastAsAnswered
        /// N ms after each answer (a status bar's loop): still more questions when answers come faster.
        case pause(milliseconds: Double)
        /// At a fixed rate, the k-th question k·N ms after the first whatever the answers take
        /// (`FixedRateSchedule`: one that is late is asked at once, until back on schedule): two
        /// builds are asked the same number, so the writers' throughput compares.
        case every(milliseconds: Double)

        /// The prober's arguments that say it.
        var arguments: [String] {
            switch self {
            case .asFastAsAnswered: []
            case .pause(let milliseconds): ["--pause-ms=\(milliseconds)"]
            case .every(let milliseconds): ["--every-ms=\(milliseconds)"]
            }
        }

        /// Read back from `arguments` (a positive number, else as fast as answered).
        init(pauseMilliseconds: Double?, everyMilliseconds: Double?) {
            if let everyMilliseconds, everyMilliseconds > 0 {
                self = .every(milliseconds: everyMilliseconds)
            } else if let pauseMilliseconds, pauseMilliseconds > 0 {
                self = .pause(milliseconds: pauseMilliseconds)
            } else {
                self = .asFastAsAnswered
            }
        }

        /// For the report: how the prober asked.
        var reportText: String {
            switch self {
            case .asFastAsAnswered: ""
            case .pause(let milliseconds): ", pausing \(milliseconds) ms after each answer"
            case .every(let milliseconds): ", asking every \(milliseconds) ms"
            }
        }
    }

    /// The prober's side: never returns.
    static func runHere(socket: String, pacing: Pacing = .asFastAsAnswered) -> Never {
        do {
            let client = try WireClient(socketPath: socket)
            var roundTrips: [UInt64] = []
            roundTrips.reserveCapacity(1 << 16)
            let before = ThreadSchedule.ofCurrentThread()
            let first = DispatchTime.now().uptimeNanoseconds
            var schedule: FixedRateSchedule?
            if case .every(let milliseconds) = pacing {
                schedule = FixedRateSchedule(start: first, interval: UInt64(milliseconds * 1_000_000))
            }
            while !standardInputEnded() {
                let start = DispatchTime.now().uptimeNanoseconds
                schedule?.record(askedAt: start)
                _ = try runToEnd { try await client.call(Endpoints.status, Params.Empty()) }
                let end = DispatchTime.now().uptimeNanoseconds
                roundTrips.append(end - start)
                switch pacing {
                case .asFastAsAnswered:
                    break
                case .pause(let milliseconds):
                    usleep(useconds_t(milliseconds * 1_000))
                case .every:
                    let wait = schedule?.wait(at: end) ?? 0
                    if wait > 0 { usleep(useconds_t(wait / 1_000)) }
                }
            }
            let used = ThreadSchedule.ofCurrentThread() - before
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - first) / 1e9
            print(roundTrips.map(String.init).joined(separator: " "))
            print("\(used.cpuNanoseconds) \(used.runDelayNanoseconds) \(used.timeslices)")
            print("\(Double(roundTrips.count) / seconds) \(schedule?.late ?? 0)")
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("status-prober: \(error)\n".utf8))
            exit(1)
        }
    }

    /// True once the parent closed our standard input (checked without waiting).
    private static func standardInputEnded() -> Bool {
        var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }

    /// What one prober process measured.
    struct Result {
        var roundTripSeconds: [Double]
        var schedule: ThreadSchedule
        var pid: Int32
        /// Questions asked per second over the whole probing.
        var askedPerSecond: Double
        /// Questions asked more than an interval after their time (a fixed rate's catching up).
        var askedLate: Int
    }

    /// A prober process, started from this executable.
    final class Running: Sendable { // the reading thread only touches `collected`, under its lock
        private let process = Process()
        private let input = Pipe(), output = Pipe()
        private let collected = Mutex(Data())
        private let reader = Gate()

        init(socket: String, pacing: Pacing = .asFastAsAnswered) throws {
            process.executableURL = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0])
            process.arguments = [StatusProber.command, "--socket=\(socket)"] + pacing.arguments
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            let handle = output.fileHandleForReading
            startThread(named: "bench-prober-out") { [self] in
                let data = handle.readDataToEndOfFile() // read meanwhile, so a full pipe never stalls the prober
                collected.withLock { $0 = data }
                reader.open()
            }
        }

        var pid: Int32 { process.processIdentifier }

        /// Ends the probing and returns what it measured.
        func finish() throws -> Result {
            try input.fileHandleForWriting.close()
            reader.wait()
            process.waitUntilExit()
            let lines = String(decoding: collected.withLock { $0 }, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            guard process.terminationStatus == 0, lines.count >= 3 else {
                throw BenchError("the status prober failed (status \(process.terminationStatus))")
            }
            let figures = lines[1].split(separator: " ").compactMap { UInt64($0) }
            guard figures.count == 3 else { throw BenchError("the status prober printed no scheduling figures") }
            let asked = lines[2].split(separator: " ")
            guard asked.count == 2, let rate = Double(asked[0]), let late = Int(asked[1]) else {
                throw BenchError("the status prober printed no rate")
            }
            return Result(roundTripSeconds: lines[0].split(separator: " ").compactMap { Double($0) }.map { $0 / 1e9 },
                          schedule: ThreadSchedule(cpuNanoseconds: figures[0], runDelayNanoseconds: figures[1], timeslices: figures[2]),
                          pid: process.processIdentifier, askedPerSecond: rate, askedLate: late)
        }
    }
}
