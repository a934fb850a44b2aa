import Foundation
import Planner

/// Rides a traveller would not take: a hop walking is no slower for (docs/planner.md, "The
/// dominance rule"). A journey riding one is left out; where every journey the search found
/// rides one, the journey with those hops walked is taken instead of none (session 57 scan:
/// arrive by 09:45:30 from 61.45929,23.80598 to 61.46075,23.73826, every latest departure rode
/// such a hop, "the only transit found rides a hop that walking is no slower for", and the
/// answer fell back to leaving 15 minutes before the 08:56 bus 5 and 34 that makes it).
extension TransitRouter {
    /// A ride after a change is pointless when walking between its two stops, starting when you
    /// could have boarded, gets there no later; so is a first ride of one stop. (A first ride
    /// longer than that is kept: walking the whole way is then `walkingIsNoSlower`'s note.)
    func hasRideNoFasterThanWalking(_ journey: Raptor.Journey, pace: WalkingPace) -> Bool {
        firstPointlessRide(journey, pace: pace) != nil
    }

    /// The first pointless ride of `journey` from ride `start` on and the seconds its walk takes; nil for none.
    private func firstPointlessRide(_ journey: Raptor.Journey, pace: WalkingPace, from start: Int = 0) -> (index: Int, walk: Int)? {
        for (k, ride) in journey.rides.enumerated() where k >= start && (k > 0 || ride.alightIndex == ride.boardIndex + 1) {
            let readyAt = k == 0 ? ride.departure : journey.rides[k - 1].arrival + journey.transfers[k - 1].seconds
            let from = timetable.stops[Int(ride.boardStop)].coordinate, to = timetable.stops[Int(ride.alightStop)].coordinate
            if let walk = walking.walkingSeconds(from: from, to: to, pace: pace), Double(readyAt) + walk <= Double(ride.arrival) {
                return (k, Int(walk.rounded(.up)))
            }
        }
        return nil
    }

    /// `journey` with each pointless ride walked: the walk to its stop goes on to the stop it
    /// alighted at and on to the next ride (or the destination), one walk, so the traveller is
    /// there no later and the rides after are all caught; it leaves as late as its first ride
    /// then allows. Nil when no ride is left (walking the whole way is no slower). A first (last)
    /// ride is ridden after all where walking it would make a stop the journey's first (last)
    /// that is not among `access` (`egress`), the stops the query reaches from (to) its ends: no
    /// search the other way round boards (alights) there, so it could not find the journey
    /// (session 58: by 07:09:49 bus 38 to Potilashotelli, 869 m from the destination, its last
    /// ride walked, arrived 07:31:27, where arrive-by 07:31:27 left 19 minutes earlier). A walk
    /// from the end straight to that stop, where shorter than the walk through the walked hop,
    /// is the one taken.
    func walkingItsPointlessRides(_ journey: Raptor.Journey, pace: WalkingPace, access: [Raptor.Endpoint],
                                  egress: [Raptor.Endpoint]) -> Raptor.Journey? {
        var walked = journey
        var start = 0
        while let (k, walk) = firstPointlessRide(walked, pace: pace, from: start) {
            guard walked.rides.count > 1 else { return nil }
            if k == 0 {
                guard let direct = access.first(where: { $0.stop == walked.transfers[0].to }) else {
                    start = 1
                    continue
                }
                let onward = walked.transfers.removeFirst()
                walked.rides.removeFirst()
                walked.access = Raptor.Endpoint(stop: onward.to, seconds: min(direct.seconds, walked.access.seconds + walk + onward.seconds))
                walked.departure = max(walked.departure, walked.rides[0].departure - walked.access.seconds)
            } else if k == walked.rides.count - 1 {
                guard let direct = egress.first(where: { $0.stop == walked.transfers[k - 1].from }) else { break }
                let before = walked.transfers.removeLast()
                walked.rides.removeLast()
                walked.egress = Raptor.Endpoint(stop: before.from, seconds: min(direct.seconds, before.seconds + walk + walked.egress.seconds))
                walked.arrival = min(walked.arrival, walked.rides[k - 1].arrival + walked.egress.seconds)
            } else {
                let before = walked.transfers[k - 1], onward = walked.transfers.remove(at: k)
                walked.rides.remove(at: k)
                walked.transfers[k - 1] = Raptor.Transfer(from: before.from, to: onward.to, seconds: before.seconds + walk + onward.seconds)
            }
        }
        return walked
    }
}
