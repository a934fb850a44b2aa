import Foundation
import Glibc
import WireProtocol

/// A measurement aid for the bench (`usefulmap-bench mixed`): with
/// `USEFULMAPD_AT_ONCE_TRACE=FILE` in the daemon's environment, every connection that had
/// requests answered at once by its I/O thread (`status`, `hello`) appends one JSON line to
/// FILE when it closes:
///
/// ```json
/// {"answer_ns":[41250,38870],"connection":3,"cpu_ns":88100000,"pid":4242,"run_delay_ns":120400,
///  "timeslices":2045,"unsent":0}
/// ```
///
/// `answer_ns`: for each answer, the daemon's own time, from the `read` that returned its line
/// to the `send` that handed the whole answer to the kernel (an answer the socket could not
/// take at once is counted in `unsent` instead). `run_delay_ns` and `timeslices` are the I/O
/// thread's time spent runnable but waiting for a core and its number of runs
/// (`/proc/thread-self/schedstat`): the wake-up waits that `answer_ns` cannot see. `pid` is the
/// client's, so a bench finds its own prober's line. Off unless the variable is set.
struct AtOnceTrace: Sendable {
    static let environmentVariable = "USEFULMAPD_AT_ONCE_TRACE"
    static let fromEnvironment: AtOnceTrace? = ProcessInfo.processInfo.environment[environmentVariable]
        .flatMap { $0.isEmpty ? nil : AtOnceTrace(path: $0) }

    let path: String

    /// One connection's answers so far, kept by its I/O thread.
    struct Record {
        /// Answers kept at most (4 MB of figures); a longer connection keeps its first ones.
        static let limit = 1 << 20
        var answerNanoseconds: [UInt32] = []
        var unsent = 0
        /// When the last `read` returned.
        var readAt: UInt64 = 0
        /// The I/O thread's scheduling figures when the connection started: a thread serves one
        /// connection after another (`ServerThreads`), and a line counts only this one's.
        var schedstatAtStart: [UInt64] = []

        /// Notes the thread's figures at the connection's start (call it on the I/O thread).
        mutating func started() { schedstatAtStart = AtOnceTrace.schedstat() }

        /// `count` answers given at once to lines of the last read, sent (whole or not) at `now`.
        mutating func answered(_ count: Int, fullySent: Bool, now: UInt64) {
            guard fullySent else { return unsent += count }
            let room = max(0, Self.limit - answerNanoseconds.count)
            answerNanoseconds += repeatElement(UInt32(clamping: now &- readAt), count: min(count, room))
        }
    }

    /// Appends `record`'s line, with the calling thread's scheduling figures (call it on the I/O thread).
    func append(_ record: Record, connection: Int, peerPID: Int32) {
        guard !record.answerNanoseconds.isEmpty || record.unsent > 0 else { return }
        let now = Self.schedstat(), before = record.schedstatAtStart
        let schedstat = now.indices.map { $0 < before.count ? now[$0] &- before[$0] : now[$0] }
        var fields: [String: JSONValue] = [
            "connection": .number(Double(connection)), "pid": .number(Double(peerPID)), "unsent": .number(Double(record.unsent)),
            "answer_ns": .array(record.answerNanoseconds.map { .number(Double($0)) }),
        ]
        if schedstat.count >= 3 {
            (fields["cpu_ns"], fields["run_delay_ns"], fields["timeslices"]) =
                (.number(Double(schedstat[0])), .number(Double(schedstat[1])), .number(Double(schedstat[2])))
        }
        let line = WireCodec.text(of: .object(fields)) + [0x0A]
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } // one append: lines of two connections never mix
    }

    /// The calling thread's CPU time, run-queue wait (ns) and runs (`/proc/thread-self/schedstat`).
    static func schedstat() -> [UInt64] {
        ((try? String(contentsOfFile: "/proc/thread-self/schedstat", encoding: .utf8)) ?? "")
            .split(separator: " ").map { UInt64($0.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 }
    }
}
