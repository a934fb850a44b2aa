import CScheduler
import Foundation
import Glibc
import Synchronization

/// How long the kernel lets a thread run before another of its priority may take the core
/// (EEVDF's slice; a thread may ask for its own since Linux 6.12). A thread with a shorter
/// slice gets an earlier virtual deadline, so when it wakes it takes the core from a running
/// thread with a longer one at once, instead of waiting for that one's slice to end. With
/// `USEFULMAPD_IO_SLICE_US=N` the accept loop and the connections' I/O threads, which answer
/// `status` themselves, ask for N µs (100, the shortest, is the one measured); the heavy work
/// keeps the kernel's default (`USEFULMAPD_HEAVY_SLICE_US` sets another). Off by default: on a
/// loaded machine it did not lower `status`'s p99 beyond the runs' spread (BENCHMARKS.md, "The
/// I/O threads' slice, and the build before issue 27"); see docs/operations.md.
///
/// A thread inherits the slice of the thread that started it, so heavy threads started from
/// an I/O thread (Swift's shared pool grows from whichever thread queues work) set theirs back
/// when they are lowered (`HeavyWorkPriority.lowerCurrentThread`). On an older kernel the call
/// fails or is ignored: the first thread to ask checks what the kernel shows, the daemon says
/// so once and goes on without it.
struct ThreadSlice: Sendable {
    static let answeringVariable = "USEFULMAPD_IO_SLICE_US"
    static let heavyVariable = "USEFULMAPD_HEAVY_SLICE_US"
    /// The kernel's bounds for a slice asked for (it clamps to them), in microseconds.
    static let shortestMicroseconds: UInt64 = 100
    static let longestMicroseconds: UInt64 = 100_000

    /// The I/O threads' slice in nanoseconds; nil: the kernel's default (nothing asked).
    let answering: UInt64?
    /// The heavy work's slice in nanoseconds; nil: the kernel's default.
    let heavy: UInt64?

    /// - parameters: microseconds, clamped to the kernel's bounds; 0 or nil is the kernel's default.
    init(answeringMicroseconds: UInt64?, heavyMicroseconds: UInt64?) {
        func nanoseconds(_ microseconds: UInt64?) -> UInt64? {
            guard let microseconds, microseconds > 0 else { return nil }
            return min(Self.longestMicroseconds, max(Self.shortestMicroseconds, microseconds)) * 1_000
        }
        answering = nanoseconds(answeringMicroseconds)
        heavy = nanoseconds(heavyMicroseconds)
    }

    /// The daemon's: the kernel's default for every thread, unless the environment asks for a
    /// slice (a number of microseconds; 0: the kernel's default).
    static let current: ThreadSlice = {
        let environment = ProcessInfo.processInfo.environment
        return ThreadSlice(answeringMicroseconds: environment[answeringVariable].flatMap { UInt64($0) },
                           heavyMicroseconds: environment[heavyVariable].flatMap { UInt64($0) })
    }()

    /// Gives the calling thread the answering slice. Returns, to the first caller only, why the
    /// kernel did not take it (to be logged once); nil otherwise.
    func giveAnsweringSlice() -> String? {
        guard let answering, Self.support.load(ordering: .relaxed) != Self.unsupported else { return nil }
        let refused = Self.setCurrentThread(nanoseconds: answering)
        guard Self.support.load(ordering: .relaxed) == Self.unchecked else { return nil }
        // The first thread checks what the kernel made of it: before 6.12 it ignores the slice.
        let shown = Self.currentThreadSlice()
        let reason: String? = if refused != 0 {
            "sched_setattr refused it: \(String(cString: strerror(refused)))"
        } else if shown != answering {
            "the kernel shows a slice of \(shown.map { "\($0) ns" } ?? "nothing") (Linux 6.12 or later takes one)"
        } else {
            nil
        }
        let (exchanged, _) = Self.support.compareExchange(expected: Self.unchecked, desired: reason == nil ? Self.supported : Self.unsupported,
                                                          ordering: .relaxed)
        return exchanged ? reason : nil
    }

    /// Gives the calling thread the heavy work's slice: its own, not one inherited from an I/O
    /// thread. Nothing to do when no thread asks for a slice of its own.
    func giveHeavySlice() {
        guard answering != nil || heavy != nil, Self.support.load(ordering: .relaxed) != Self.unsupported else { return }
        _ = Self.setCurrentThread(nanoseconds: heavy)
    }

    /// Sets the calling thread's slice (nil: the kernel's default), keeping its policy and its
    /// nice value (which the call sets too). Returns 0, or the errno.
    @discardableResult
    static func setCurrentThread(nanoseconds: UInt64?) -> Int32 {
        var attributes = usefulmap_sched_attr()
        attributes.sched_flags = keepPolicy
        attributes.sched_nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        attributes.sched_runtime = nanoseconds ?? 0
        return usefulmap_sched_setattr_current_thread(&attributes)
    }

    /// The calling thread's slice as the kernel shows it (`se.slice` in /proc's sched file), in
    /// nanoseconds; nil when it does not show one.
    static func currentThreadSlice() -> UInt64? {
        (try? String(contentsOfFile: "/proc/thread-self/sched", encoding: .utf8)).flatMap(slice(inSchedFile:))
    }

    /// `se.slice   :   100000` in a /proc/…/sched file.
    static func slice(inSchedFile text: String) -> UInt64? {
        for line in text.split(separator: "\n") where line.hasPrefix("se.slice ") {
            return line.split(separator: ":").last.flatMap { UInt64($0.trimmingCharacters(in: .whitespaces)) }
        }
        return nil
    }

    /// SCHED_FLAG_KEEP_POLICY: a daemon started as SCHED_BATCH (or IDLE) stays so.
    private static let keepPolicy: UInt64 = 0x08

    /// Whether the kernel takes a slice of ours, as the first thread to ask found.
    private static let support = Atomic<Int>(unchecked)
    private static let unchecked = 0, supported = 1, unsupported = 2
}
