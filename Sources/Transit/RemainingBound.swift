import Foundation

/// A search's lower bound on the seconds from each stop to its target, as the rounds read it:
/// `far - closeness[s]`. A stop the bounding search did not reach keeps closeness 0 and so gets
/// `far` (the radius it searched), and while `far` is 0 (before the target is first reached)
/// every stop gets 0.
///
/// Stored as closeness rather than as the bound itself so that memory left at 0 means "not
/// reached": setting the bound writes, and resetting it clears, only the stops the bounding
/// search reached (`RemainingTimeGraph.fill`), where a bound stored as such had every stop of
/// the network set to the radius and back to 0 by every search.
struct RemainingBound {
    let closeness: UnsafeMutablePointer<Int32>
    let far: Int

    @inline(__always) subscript(stop: Int) -> Int { far &- Int(closeness[stop]) }
}
