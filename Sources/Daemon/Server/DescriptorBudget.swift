import Foundation
import Glibc
import Synchronization

/// How the daemon spends its open-file limit (`RLIMIT_NOFILE`, systemd's default soft limit
/// is 1,024): the soft limit is raised to the hard one at start; `reserved` descriptors are
/// always left for routing workers, SQLite and imports; files clients pass are capped in total
/// (not only per connection); a new connection is admitted only while all of that still fits,
/// so that the table never fills and a refused client hears `too_many_connections`.
/// `docs/operations.md` lists the numbers.
///
/// Counting what is open (`/proc/self/fd`) on every accept was a tenth of a new connection's
/// cost, so far from the limit an upper bound does instead: the last count (at most
/// `recountSeconds` old), three descriptors for each connection admitted since, and
/// `othersMargin` for what routing, SQLite and imports may have opened since. Only when that
/// bound does not fit is the table counted again, so near the limit every accept counts.
final class DescriptorBudget: Sendable {
    /// Kept free for routing workers (their map files), SQLite (database, WAL, journal, temp
    /// files), imports' children and the log.
    static let reserved = 64
    /// Files waiting in all connections together at most; a quarter of the limit when that is less.
    static let maximumPassedFiles = 256
    /// What one connection holds: its socket and its wake-up pipe.
    static let perConnection = 3

    /// Descriptors others (routing workers, SQLite, imports) are assumed to open between two counts at most.
    static let othersMargin = reserved

    private struct LastCount {
        var open: Int
        var at: UInt64
        var admittedSince: Int
    }

    private let passedInUse = Mutex(0)
    private let lastCount = Mutex<LastCount?>(nil)
    private let countOpen: @Sendable () -> Int
    private let readLimit: @Sendable () -> Int
    private let recountNanoseconds: UInt64

    /// - parameter recountSeconds: how long a count stands in for the next ones (far from the limit).
    /// - parameter countOpen, readLimit: what is open and the limit; the process's own unless a test gives its own.
    init(recountSeconds: Double = 1, countOpen: @escaping @Sendable () -> Int = { DescriptorBudget.openCount() },
         readLimit: @escaping @Sendable () -> Int = { DescriptorBudget.softLimit() }) {
        recountNanoseconds = UInt64(max(0, recountSeconds) * 1e9)
        self.countOpen = countOpen
        self.readLimit = readLimit
    }

    /// Raises the soft open-file limit to the hard limit; returns the limit now in force.
    @discardableResult
    static func raiseSoftLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }

    /// The soft open-file limit now (read each time: an operator may change it with `prlimit`).
    var limit: Int { readLimit() }

    /// The process's soft open-file limit.
    static func softLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        return Int(clamping: limit.rlim_cur)
    }

    /// Passed files that may wait at once in all connections together.
    var passedFilesCap: Int { Self.passedFilesCap(limit: limit) }

    /// The passed files' cap under open-file limit `limit`.
    static func passedFilesCap(limit: Int) -> Int { min(maximumPassedFiles, limit / 4) }

    /// Counts one passed file in; false when the total cap is reached (the caller closes it).
    func takePassedFile() -> Bool {
        let cap = passedFilesCap
        return passedInUse.withLock { inUse in
            guard inUse < cap else { return false }
            inUse += 1
            return true
        }
    }

    /// Passed files closed, or handed to a request that took them.
    func releasePassedFiles(_ count: Int) {
        passedInUse.withLock { $0 = max(0, $0 - count) }
    }

    /// Whether one more connection fits beside the reserve and the passed files' share;
    /// also returns the descriptors open now and the limit, for the refusal.
    /// Far from the limit, `open` is an upper bound rather than a count.
    func admitsConnection() -> (admitted: Bool, open: Int, limit: Int) {
        let limit = limit, cap = Self.passedFilesCap(limit: limit)
        let now = DispatchTime.now().uptimeNanoseconds
        // The whole cap stands for the passed files' room: the files passed since the count are
        // not in it, and each of them is one less of the room.
        let bound = lastCount.withLock { last -> Int? in
            guard let counted = last, now &- counted.at < recountNanoseconds else { return nil }
            let bound = counted.open + counted.admittedSince * Self.perConnection + Self.othersMargin
            guard bound + Self.perConnection + Self.reserved + cap <= limit else { return nil }
            last?.admittedSince += 1
            return bound
        }
        if let bound { return (true, bound, limit) }
        let open = countOpen()
        let passedRoom = cap - passedInUse.withLock { $0 }
        let admitted = open + Self.perConnection + Self.reserved + max(0, passedRoom) <= limit
        lastCount.withLock { $0 = LastCount(open: open, at: now, admittedSince: admitted ? 1 : 0) }
        return (admitted, open, limit)
    }

    /// Descriptors this process has open (entries of /proc/self/fd, less the one reading it).
    static func openCount() -> Int {
        guard let directory = opendir("/proc/self/fd") else { return 0 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            if entry.pointee.d_name.0 != 0x2E { count += 1 } // not "." or ".."
        }
        return max(0, count - 1)
    }
}
