import Foundation
import Glibc

/// The nice value the daemon's heavy work runs at: plan computations on Swift's shared pool,
/// the store's threads, the Routino worker processes, imports, downloads and map drawing. The
/// connections' I/O threads (which answer `status` and `hello` themselves) and the accept loop
/// keep the daemon's own, so that a `status` never waits for a core behind a plan being
/// computed, and, on a desktop, planning never starves the shell. Unprivileged, as Linux lets
/// any thread raise its own nice value (lower its priority), never lower it back.
///
/// A thread started by a lowered thread (and a process it spawns) inherits its nice value, so
/// the lowering is done once per thread and to a value, not by a step: lowering twice is a no-op.
///
/// ```swift
/// HeavyWorkPriority.current.lowerCurrentThread() // at the start of a heavy job, on its thread
/// ```
struct HeavyWorkPriority: Sendable {
    /// How many nice levels below the daemon's own the heavy work runs, unless
    /// `USEFULMAPD_HEAVY_NICE` says otherwise (0: everything at the daemon's own priority).
    static let defaultSteps: Int32 = 10
    static let environmentVariable = "USEFULMAPD_HEAVY_NICE"

    /// The nice value of the heavy work; nil when it is the daemon's own (nothing is lowered).
    let nice: Int32?

    /// - parameter steps: levels below `base` (clamped to the kernel's 19).
    init(steps: Int32, base: Int32) {
        let target = min(19, base + max(0, steps))
        nice = target > base ? target : nil
    }

    /// The daemon's: `defaultSteps` (or the environment's) below the nice value it started at.
    static let current: HeavyWorkPriority = {
        let text = ProcessInfo.processInfo.environment[environmentVariable]
        let steps = text.flatMap(Int32.init).map { min(19, max(0, $0)) } ?? defaultSteps
        return HeavyWorkPriority(steps: steps, base: getpriority(which, 0))
    }()

    /// Lowers the calling thread to `nice` the first time it asks (a thread-specific flag, so a
    /// busy thread pays one look-up per job, not a system call).
    func lowerCurrentThread() {
        guard let nice, pthread_getspecific(Self.lowered) == nil else { return }
        Self.lower(toNice: nice)
        pthread_setspecific(Self.lowered, Self.marker)
    }

    /// Sets the calling thread's nice value to `nice` unless it is already that or lower in
    /// priority. Linux keeps nice per thread: `who` 0 is the calling thread alone.
    static func lower(toNice nice: Int32) {
        if getpriority(which, 0) < nice { _ = setpriority(which, 0, nice) }
    }

    /// The nice value the calling thread runs at.
    static func currentThreadNice() -> Int32 { getpriority(which, 0) }

    private static let which = __priority_which_t(PRIO_PROCESS.rawValue)

    /// Thread-specific data: non-nil once the thread was lowered.
    private static let lowered: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Any non-nil pointer: what the flag holds.
    private static var marker: UnsafeRawPointer? { UnsafeRawPointer(bitPattern: 1) }
}
