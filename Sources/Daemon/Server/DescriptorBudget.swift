import Foundation
import Glibc
import Synchronization

/// How the daemon spends its open-file limit (`RLIMIT_NOFILE`, systemd's default soft limit
/// is 1,024): the soft limit is raised to the hard one at start; `reserved` descriptors are
/// always left for routing workers, SQLite and imports; files clients pass are capped in total
/// (not only per connection); a new connection is admitted only while all of that still fits,
/// so that the table never fills and a refused client hears `too_many_connections`.
/// `docs/operations.md` lists the numbers.
final class DescriptorBudget: Sendable {
    /// Kept free for routing workers (their map files), SQLite (database, WAL, journal, temp
    /// files), imports' children and the log.
    static let reserved = 64
    /// Files waiting in all connections together at most; a quarter of the limit when that is less.
    static let maximumPassedFiles = 256
    /// What one connection holds: its socket and its wake-up pipe.
    static let perConnection = 3

    private let passedInUse = Mutex(0)

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
    var limit: Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        return Int(clamping: limit.rlim_cur)
    }

    /// Passed files that may wait at once in all connections together.
    var passedFilesCap: Int { min(Self.maximumPassedFiles, limit / 4) }

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
    func admitsConnection() -> (admitted: Bool, open: Int, limit: Int) {
        let limit = limit, open = Self.openCount()
        let passedRoom = passedFilesCap - passedInUse.withLock { $0 }
        return (open + Self.perConnection + Self.reserved + max(0, passedRoom) <= limit, open, limit)
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
