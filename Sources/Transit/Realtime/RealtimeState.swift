import Foundation
import Synchronization

/// The realtime overlay a router routes with, swapped in whole: each query takes one snapshot
/// at its start and sees that overlay to its end, whatever is applied meanwhile.
final class RealtimeState: Sendable {
    private struct State {
        var overlay: RealtimeOverlay?
        var index: RealtimeTripIndex?
        var trips: TripLookup?
    }

    private let state = Mutex(State())

    /// The overlay in force; nil when none is.
    var snapshot: RealtimeOverlay? { state.withLock { $0.overlay } }

    /// Puts `overlay` in force (nil clears it).
    func swap(_ new: RealtimeOverlay?) {
        state.withLock { $0.overlay = new }
    }

    /// Whether the realtime index is built (by realtime applied, or a live ride looked up under it).
    var hasTripIndex: Bool { state.withLock { $0.index != nil } }

    /// The timetable's realtime lookups, built on first use (outside the lock) and kept.
    func tripIndex(_ timetable: Timetable) -> RealtimeTripIndex {
        if let index = state.withLock({ $0.index }) { return index }
        let built = RealtimeTripIndex(timetable: timetable, trips: trips(timetable))
        return state.withLock { state in
            if state.index == nil { state.index = built }
            return state.index ?? built
        }
    }

    /// The timetable's trips by trip_id, built on first use (outside the lock) and kept: all that
    /// finding a ride again needs (its calls, its fare), without the realtime index.
    func trips(_ timetable: Timetable) -> TripLookup {
        if let trips = state.withLock({ $0.trips }) { return trips }
        let built = TripLookup(timetable: timetable)
        return state.withLock { state in
            if state.trips == nil { state.trips = built }
            return state.trips ?? built
        }
    }
}
