import Foundation

/// What a journey with more rides than a second pass's chosen one must win to be worth
/// searching: a journey past `afterRides` rides is kept only where it beats the best with fewer
/// rides by more than `seconds` (leaves over a minute later, `JourneyChoice.latestDeparture`;
/// arrives sooner by the transfer penalty, `JourneyChoice.earliestArrival`). Such a journey
/// could never be chosen otherwise, so the rounds past `afterRides` prune against that bar
/// instead of the best alone: the extra rounds stay cheap.
struct RideMargin: Hashable, Sendable {
    var afterRides: Int
    var seconds: Int

    /// No margin: every round prunes against the best alone.
    static let none = RideMargin(afterRides: .max, seconds: 0)
}
