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
    /// No bound: every search but arrive-by's forward pass.
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
        let slack: UnsafeMutablePointer<Int32>

        @inline(__always) func allowsHopOff(_ time: Int, at stop: Int) -> Bool {
            time <= floor &+ Int(slack[stop]) || time <= latestArrival[stop]
        }
        @inline(__always) func allowsReady(_ time: Int, at stop: Int) -> Bool {
            time <= floor &+ Int(slack[stop]) || time <= latestBoarding[stop]
        }
    }
}
