import Foundation

/// A bound on a search's labels besides the best time at the target: a hop-off or a ready
/// time a bound refuses is dropped, as the target's best time drops later ones. The rounds are
/// specialised for each bound, so `Unbounded` costs nothing.
protocol SearchBound {
    /// Whether hopping off at `stop` at `time` may still lead somewhere.
    func allowsHopOff(_ time: Int, at stop: Int) -> Bool
    /// Whether being ready to hop on at `stop` at `time` may still lead somewhere.
    func allowsReady(_ time: Int, at stop: Int) -> Bool
}

extension Raptor {
    /// No bound: every search but the second passes (arrive-by's forward one, depart-at's backward one).
    struct Unbounded: SearchBound {
        @inline(__always) func allowsHopOff(_ time: Int, at stop: Int) -> Bool { true }
        @inline(__always) func allowsReady(_ time: Int, at stop: Int) -> Bool { true }
    }

    /// Bounds a forward search from the labels a backward search left for the same deadline:
    /// a stop reached by a ride later than the latest arrival there that still makes the
    /// deadline (the backward search's ready time), or ready to board later than the latest
    /// boarding there that does (its hop-off time), leads to no journey arriving in time.
    ///
    /// The backward search drops labels no later than its best departure (`floor`) plus a lower
    /// bound on the time from the origin to their stop (`slack`), so its times say nothing there:
    /// a time at or before that is always allowed. Sound for a
    /// forward search with no more rides than the backward one had, over the same days,
    /// endpoints, overlay and stop mask.
    struct DeadlineCorridor: SearchBound {
        let latestArrival: UnsafeMutablePointer<Int>
        let latestBoarding: UnsafeMutablePointer<Int>
        let floor: Int
        /// Per stop, the backward search's lower bound on the time from the origin to it: it also
        /// dropped labels no later than `floor` plus that bound.
        let slack: RemainingBound

        @inline(__always) func allowsHopOff(_ time: Int, at stop: Int) -> Bool {
            time <= floor &+ slack[stop] || time <= latestArrival[stop]
        }
        @inline(__always) func allowsReady(_ time: Int, at stop: Int) -> Bool {
            time <= floor &+ slack[stop] || time <= latestBoarding[stop]
        }
    }

    /// Bounds a backward search from the labels a forward search left for the same departure:
    /// hopping off backward at a stop (boarding there, forward) earlier than the earliest time
    /// the forward search was ready there, or being ready backward (alighting, forward) earlier
    /// than its earliest arrival there by a ride, leads to no journey leaving in time.
    ///
    /// The forward search drops labels no earlier than its best arrival (`ceiling`) less a lower
    /// bound on the time from their stop to the destination (`slack`), so its times say nothing
    /// there: a time at or after that is always allowed. Sound for a backward search with no more
    /// rides than the forward one had, over the same days, endpoints, overlay and stop mask.
    struct DepartureCorridor: SearchBound {
        let earliestBoarding: UnsafeMutablePointer<Int>
        let earliestArrival: UnsafeMutablePointer<Int>
        let ceiling: Int
        /// Per stop, the forward search's lower bound on the time from it to the destination.
        let slack: RemainingBound

        @inline(__always) func allowsHopOff(_ time: Int, at stop: Int) -> Bool {
            time &+ slack[stop] >= ceiling || time >= earliestBoarding[stop]
        }
        @inline(__always) func allowsReady(_ time: Int, at stop: Int) -> Bool {
            time &+ slack[stop] >= ceiling || time >= earliestArrival[stop]
        }
    }
}
