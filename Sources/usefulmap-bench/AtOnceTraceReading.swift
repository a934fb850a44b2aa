import Foundation
import Glibc
import WireProtocol

/// The daemon's side of the `status` round trips, from the trace the daemon writes when
/// started with `USEFULMAPD_AT_ONCE_TRACE=FILE` (Sources/Daemon/Server/AtOnceTrace.swift):
/// the line of one client process's connection.
struct AtOnceTraceLine {
    /// Read → send of each answer given at once, in order.
    var answerSeconds: [Double]
    var unsent: Int
    /// The connection's I/O thread: time runnable but waiting for a core, and its runs.
    var ioThread: ThreadSchedule

    /// Waits (up to 5 s: the daemon writes the line once it sees the client hang up) for the
    /// line of the connection of process `pid` in `path`.
    static func waitFor(pid: Int32, in path: String) throws -> AtOnceTraceLine {
        for _ in 0..<500 {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            for text in text.split(separator: "\n") {
                // Written by the daemon's codec (`WireCodec.text`), read by it.
                guard let line = try? WireCodec.value(from: Data(text.utf8)), line["pid"]?.numberValue == Double(pid) else { continue }
                func integer(_ name: String) -> UInt64 { UInt64(line[name]?.numberValue ?? 0) }
                return AtOnceTraceLine(answerSeconds: (line["answer_ns"]?.arrayValue ?? []).compactMap { $0.numberValue.map { $0 / 1e9 } },
                                       unsent: Int(integer("unsent")),
                                       ioThread: ThreadSchedule(cpuNanoseconds: integer("cpu_ns"), runDelayNanoseconds: integer("run_delay_ns"),
                                                                timeslices: integer("timeslices")))
            }
            usleep(10_000)
        }
        throw BenchError("no line for pid \(pid) in the daemon's at-once trace \(path): was usefulmapd started with "
            + "USEFULMAPD_AT_ONCE_TRACE=\(path)?")
    }
}
