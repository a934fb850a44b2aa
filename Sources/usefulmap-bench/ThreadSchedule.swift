import Foundation

/// A thread's (or a process's threads', summed) scheduling figures from `/proc`: time on a
/// core, time runnable but waiting for one (run-queue wait), runs on a core (schedstat), and
/// context switches (status). Subtract two readings to get what happened in between.
struct ThreadSchedule: Sendable {
    var cpuNanoseconds: UInt64 = 0
    var runDelayNanoseconds: UInt64 = 0
    var timeslices: UInt64 = 0
    var voluntarySwitches: UInt64 = 0
    var involuntarySwitches: UInt64 = 0

    /// The calling thread's figures (schedstat only).
    static func ofCurrentThread() -> ThreadSchedule {
        var schedule = ThreadSchedule()
        schedule.readSchedstat("/proc/thread-self/schedstat")
        return schedule
    }

    /// The sum over every thread of process `pid` living now (the figures of threads that
    /// ended are lost: read it around a load whose threads live through it).
    static func ofProcess(_ pid: Int32) -> ThreadSchedule {
        var sum = ThreadSchedule()
        for task in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? [] {
            var thread = ThreadSchedule()
            thread.readSchedstat("/proc/\(pid)/task/\(task)/schedstat")
            let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)) ?? ""
            for line in status.split(separator: "\n") {
                let value = UInt64(line.split(separator: "\t").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
                if line.hasPrefix("voluntary_ctxt_switches:") { thread.voluntarySwitches = value }
                if line.hasPrefix("nonvoluntary_ctxt_switches:") { thread.involuntarySwitches = value }
            }
            sum = sum + thread
        }
        return sum
    }

    private mutating func readSchedstat(_ path: String) {
        let fields = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(whereSeparator: \.isWhitespace).compactMap { UInt64($0) }
        guard fields.count >= 3 else { return }
        (cpuNanoseconds, runDelayNanoseconds, timeslices) = (fields[0], fields[1], fields[2])
    }

    /// Mean wait for a core per run, in milliseconds.
    var meanRunDelayMilliseconds: Double { timeslices == 0 ? 0 : Double(runDelayNanoseconds) / Double(timeslices) / 1e6 }

    static func + (a: ThreadSchedule, b: ThreadSchedule) -> ThreadSchedule {
        ThreadSchedule(cpuNanoseconds: a.cpuNanoseconds + b.cpuNanoseconds, runDelayNanoseconds: a.runDelayNanoseconds + b.runDelayNanoseconds,
                       timeslices: a.timeslices + b.timeslices, voluntarySwitches: a.voluntarySwitches + b.voluntarySwitches,
                       involuntarySwitches: a.involuntarySwitches + b.involuntarySwitches)
    }

    /// What happened since `earlier` (a figure that went down, as when threads ended, counts 0).
    static func - (a: ThreadSchedule, b: ThreadSchedule) -> ThreadSchedule {
        func less(_ x: UInt64, _ y: UInt64) -> UInt64 { x > y ? x - y : 0 }
        return ThreadSchedule(cpuNanoseconds: less(a.cpuNanoseconds, b.cpuNanoseconds),
                              runDelayNanoseconds: less(a.runDelayNanoseconds, b.runDelayNanoseconds),
                              timeslices: less(a.timeslices, b.timeslices), voluntarySwitches: less(a.voluntarySwitches, b.voluntarySwitches),
                              involuntarySwitches: less(a.involuntarySwitches, b.involuntarySwitches))
    }
}
