import CScheduling
import Foundation
import Synchronization

/// The slice the server's threads may ask the kernel for (off by default: see `configuredSliceNanoseconds`). A connection's I/O thread wakes for a
/// line, answers or hands it on, and sleeps again within microseconds; under EEVDF (Linux 6.6+;
/// custom slices since 6.12) a thread that asks for a short slice gets an earlier virtual
/// deadline, so when it wakes on a busy machine it is picked before the threads that run long
/// (the planner, the Routino workers), instead of waiting for one of them to use up its slice.
/// Any thread may shorten its own slice without privileges. Where the kernel refuses (older
/// kernels: EINVAL) the thread keeps the default, and the refusal is logged once at debug.
enum ThreadScheduling {
    /// The slice the I/O threads ask for by default, in nanoseconds; 0 (the default) keeps
    /// the kernel's. `USEFULMAPD_CONNECTION_SLICE_US` sets it, to compare runs: 100 µs was
    /// measured slower than the default (BENCHMARKS.md, 2026-12-02), as a `status` answer takes
    /// longer than that slice and the I/O threads then preempt the planner more often.
    static let configuredSliceNanoseconds: UInt64 = {
        let microseconds = ProcessInfo.processInfo.environment[environmentVariable].flatMap { UInt64($0) } ?? 0
        return microseconds * 1_000
    }()

    static let environmentVariable = "USEFULMAPD_CONNECTION_SLICE_US"

    private static let refusalLogged = Atomic(false)

    /// Asks the kernel to give the calling thread (a connection's or the accept loop's) a slice
    /// of `nanoseconds`; false when none was asked for (0) or the kernel refused.
    @discardableResult
    static func askSlice(_ nanoseconds: UInt64, logger: DaemonLogger) -> Bool {
        guard nanoseconds > 0 else { return false }
        let refusal = usefulmap_set_own_scheduling(UInt32(SCHED_OTHER), nanoseconds)
        guard refusal != 0 else { return true }
        if !refusalLogged.exchange(true, ordering: .relaxed) {
            logger.debug("the kernel refused a short slice for the connection threads; they keep the default",
                         ["errno": String(cString: strerror(refusal)), "slice_us": String(nanoseconds / 1_000)])
        }
        return false
    }

    /// The calling thread's id (its `/proc/self/task` entry).
    static var currentThreadID: Int32 { usefulmap_thread_id() }

    /// Thread `tid`'s policy and slice (0: the kernel's default), or nil when it cannot be read.
    static func of(thread tid: Int32) -> (policy: Int32, sliceNanoseconds: UInt64)? {
        var policy: UInt32 = 0, slice: UInt64 = 0
        guard usefulmap_thread_scheduling(tid, &policy, &slice) == 0 else { return nil }
        return (Int32(policy), slice)
    }
}
