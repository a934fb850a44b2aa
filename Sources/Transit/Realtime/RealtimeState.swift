import Foundation

/// The realtime overlay a router routes with, swapped in whole: each query takes one snapshot
/// at its start and sees that overlay to its end, whatever is applied meanwhile.
final class RealtimeState: @unchecked Sendable {
    private let lock = NSLock()
    private var overlay: RealtimeOverlay?
    private var index: RealtimeTripIndex?

    /// The overlay in force; nil when none is.
    var snapshot: RealtimeOverlay? {
        lock.lock()
        defer { lock.unlock() }
        return overlay
    }

    /// Puts `overlay` in force (nil clears it).
    func swap(_ new: RealtimeOverlay?) {
        lock.lock()
        overlay = new
        lock.unlock()
    }

    /// The timetable's realtime lookups, built on first use and kept.
    func tripIndex(_ timetable: Timetable) -> RealtimeTripIndex {
        lock.lock()
        if let index {
            lock.unlock()
            return index
        }
        lock.unlock()
        let built = RealtimeTripIndex(timetable: timetable)
        lock.lock()
        defer { lock.unlock() }
        if index == nil { index = built }
        return index ?? built
    }
}
