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

    /// The first pointless ride of `journey` and the seconds its walk takes; nil for none.
    private func firstPointlessRide(_ journey: Raptor.Journey, pace: WalkingPace) -> (index: Int, walk: Int)? {
        for (k, ride) in journey.rides.enumerated() where k > 0 || ride.alightIndex == ride.boardIndex + 1 {
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
    /// then allows. Nil when no ride is left (walking the whole way is no slower).
    func walkingItsPointlessRides(_ journey: Raptor.Journey, pace: WalkingPace) -> Raptor.Journey? {
        var walked = journey
        while let (k, walk) = firstPointlessRide(walked, pace: pace) {
            guard walked.rides.count > 1 else { return nil }
            if k == 0 {
                let onward = walked.transfers.removeFirst()
                walked.rides.removeFirst()
                walked.access = Raptor.Endpoint(stop: onward.to, seconds: walked.access.seconds + walk + onward.seconds)
                walked.departure = max(walked.departure, walked.rides[0].departure - walked.access.seconds)
            } else if k == walked.rides.count - 1 {
                let before = walked.transfers.removeLast()
                walked.rides.removeLast()
                walked.egress = Raptor.Endpoint(stop: before.from, seconds: before.seconds + walk + walked.egress.seconds)
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
