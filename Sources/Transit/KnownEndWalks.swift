import Foundation

/// Walks between a query's ends and some stops whose seconds are known better than the
/// router's estimate (the daemon times them on the streets): the search uses these for those
/// stops. Keyed by stop ID (`TransitStop.id`); seconds at the query's pace.
public struct KnownEndWalks: Hashable, Sendable {
    /// From the origin to a stop.
    public var access: [String: Int]
    /// From a stop to the destination.
    public var egress: [String: Int]
    /// The walk to or from every other stop priced as the straight line at this speed (at a
    /// normal pace) instead of `WalkingTimeEstimator`'s guess: the street speed makes it a lower
    /// bound, so an answer whose walks are all known is the best one. Nil: the estimator.
    public var unknownMetresPerSecond: Double?
    /// Whether an unknown walk's straight line is first shortened to what a street walk between
    /// the same points can come to (`streetLowerBound`), so that at the street speed its price
    /// bounds the street walk from below (the daemon's searches at the street speed; not its
    /// closing ones, which price unknown walks slow on purpose).
    public var shortensStraightLines: Bool

    public init(access: [String: Int] = [:], egress: [String: Int] = [:], unknownMetresPerSecond: Double? = nil,
                shortensStraightLines: Bool = false) {
        self.access = access
        self.egress = egress
        self.unknownMetresPerSecond = unknownMetresPerSecond.map { max(0.1, $0) }
        self.shortensStraightLines = shortensStraightLines
    }

    /// The fewest metres a street walk between two points `straightLine` metres apart can
    /// measure. The street router's walks (Routino's lengths in whole metres, on its own
    /// geometry) came out up to 6 % and a few metres shorter than the straight line along a
    /// straight street: 44 m for 46.9 m, 72 m for 75.9 m, and 51 m from Pyynikintori F to the
    /// square 53.6 m away, which the straight line priced at 39 s where the street walk takes
    /// 37: bus 90C, arriving 09:44:22, was lost for a 09:44:23 deadline and the answer left 10
    /// minutes earlier (issue 39, session 58).
    public static func streetLowerBound(ofStraightLine straightLine: Double) -> Double {
        max(0, straightLine * 0.93 - 2)
    }

    /// The metres an unknown walk of `straightLine` metres is priced over.
    func pricedMetres(straightLine: Double) -> Double {
        shortensStraightLines ? Self.streetLowerBound(ofStraightLine: straightLine) : straightLine
    }
}
