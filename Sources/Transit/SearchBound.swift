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
    /// The backward search drops labels no later than its best departure so far plus a lower
    /// bound on the time from the origin to their stop, so its times say nothing there for a
    /// journey leaving no later than its best departure (`floor`): a time at or before `floor`
    /// plus that bound (`slack`) is allowed. Sound for a forward search with no more rides than
    /// the backward one had, over the same days, endpoints, overlay and stop mask.
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
    /// Sound for the backward pass of depart-at (`Raptor.departAt(…thenLatestFrom:)`) with as
    /// many rides as the forward search, over the same days, endpoints, overlay and stop mask.
    /// The forward search drops a label only when it cannot come before the best time found at
    /// the target so far, with the remaining-time bound: a label it dropped was no earlier than
    /// that best time, never before its final one (`ceiling`), less the bound (`slack`). Every
    /// other label it kept, or a better one, so a time at or after the forward search's there, or
    /// at or after `ceiling` less the bound, is allowed. (Through a journey tied with the best
    /// arrival, or one with more rides than the chosen journey, the forward search's own times
    /// say nothing: it dropped those labels.)
    struct DepartureCorridor: SearchBound {
        let earliestBoarding: UnsafeMutablePointer<Int>
        let earliestArrival: UnsafeMutablePointer<Int>
        /// The forward search's earliest arrival at the target.
        let ceiling: Int
        /// Per stop, the forward search's lower bound on the time from it to the target.
        let slack: RemainingBound

        @inline(__always) func allowsHopOff(_ time: Int, at stop: Int) -> Bool {
            time >= earliestBoarding[stop] || time &+ slack[stop] >= ceiling
        }
        @inline(__always) func allowsReady(_ time: Int, at stop: Int) -> Bool {
            time >= earliestArrival[stop] || time &+ slack[stop] >= ceiling
        }
    }
}
