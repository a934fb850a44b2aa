import Foundation
import Glibc

/// CPU time (user + system) of a process and of its children, read from `/proc`: the daemon
/// with its Routino workers, the living ones' own time and the time of those it has reaped. Ticks of `sysconf(_SC_CLK_TCK)` (10 ms): sum it over many requests.
enum ProcessTreeCPU {
    /// Seconds used so far by `pid`'s threads and by each process whose parent is `pid`.
    static func seconds(of pid: pid_t) -> Double {
        var ticks = ticksAndParent(of: pid).map { $0.ticks + $0.reapedChildren } ?? 0
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let child = pid_t(entry), child != pid, let (own, _, parent) = ticksAndParent(of: child), parent == pid else { continue }
            ticks += own
        }
        return Double(ticks) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// utime + stime, cutime + cstime (its reaped children's) and the parent's pid, from
    /// `/proc/PID/stat` (fields 14–17 and 4; the command name in parentheses may hold spaces,
    /// so fields are counted after its `)`).
    private static func ticksAndParent(of pid: pid_t) -> (ticks: Int, reapedChildren: Int, parent: pid_t)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is the state (field 3), so field N is fields[N - 3].
        guard fields.count > 14, let parent = pid_t(fields[1]), let user = Int(fields[11]), let system = Int(fields[12]),
              let childUser = Int(fields[13]), let childSystem = Int(fields[14]) else { return nil }
        return (user + system, childUser + childSystem, parent)
    }
}
