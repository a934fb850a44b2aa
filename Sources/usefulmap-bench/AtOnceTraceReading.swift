import Foundation
import Glibc

/// The daemon's side of the `status` round trips, from the trace the daemon writes when
/// started with `USEFULMAPD_AT_ONCE_TRACE=FILE` (Sources/Daemon/Server/AtOnceTrace.swift):
/// the line of one client process's connection.
struct AtOnceTraceLine {
    /// Read → send of each answer given at once, in order.
    var answerSeconds: [Double]
    var unsent: Int
    /// The connection's I/O thread: time runnable but waiting for a core, and its runs.
    var ioThread: ThreadSchedule
    /// The slice the I/O thread had (0: the kernel's default).
    var sliceNanoseconds: UInt64

    /// Waits (up to 5 s: the daemon writes the line once it sees the client hang up) for the
    /// line of the connection of process `pid` in `path`.
    static func waitFor(pid: Int32, in path: String) throws -> AtOnceTraceLine {
        for _ in 0..<500 {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") where integer("pid", in: line) == UInt64(pid) {
                let answers = array("answer_ns", in: line)
                return AtOnceTraceLine(answerSeconds: answers.map { Double($0) / 1e9 }, unsent: Int(integer("unsent", in: line) ?? 0),
                                       ioThread: ThreadSchedule(cpuNanoseconds: integer("cpu_ns", in: line) ?? 0,
                                                                runDelayNanoseconds: integer("run_delay_ns", in: line) ?? 0,
                                                                timeslices: integer("timeslices", in: line) ?? 0),
                                       sliceNanoseconds: integer("slice_ns", in: line) ?? 0)
            }
            usleep(10_000)
        }
        throw BenchError("no line for pid \(pid) in the daemon's at-once trace \(path): was usefulmapd started with "
            + "USEFULMAPD_AT_ONCE_TRACE=\(path)?")
    }

    /// The text after `"name":` up to the next `,` or `}` (the trace's lines are flat).
    private static func integer(_ name: String, in line: Substring) -> UInt64? {
        guard let start = line.range(of: "\"\(name)\":")?.upperBound else { return nil }
        return UInt64(line[start...].prefix { $0.isNumber })
    }

    private static func array(_ name: String, in line: Substring) -> [UInt64] {
        guard let start = line.range(of: "\"\(name)\":[")?.upperBound,
              let end = line[start...].firstIndex(of: "]") else { return [] }
        return line[start..<end].split(separator: ",").compactMap { UInt64($0) }
    }
}
