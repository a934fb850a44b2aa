import Foundation

/// In an arrive-by plan the time to spare is spent at the traveller's places, not at a stop
/// (trial 60 F7: at Hämeenkatu 9 at 09:19, the walk left then and waited 7 min at Koskipuisto C
/// for bus 8 at 09:29, where `compare --arrive-by` leaves Hämeenkatu 9 at 09:26). The walk from
/// a place to the stop of the ride after it is timed back from that ride: it reaches the stop
/// when the ride leaves, as every walk to a ride the planner times (no wait at the stop). A
/// depart-at plan keeps its rule: going forward, the traveller leaves when they can and waits
/// at the stop.
extension RoutePlan {
    /// Each stretch of an arrive-by plan from a place of the traveller's (`place`) through walks
    /// or drives and stops the planner inferred to the ride that leaves the last of them (`ride`,
    /// a leg with its own departure, pinned or not): the walks between are timed back from the ride. None where
    /// the place has a stay "until" (the user said when they leave), where a leg between is
    /// missing or has a time of its own (a pin), or in a plan of another time preference.
    var walksToRidesFromThePlaces: [(place: Int, ride: Int)] {
        guard case .arriveBy = timePreference else { return [] }
        var stretches: [(place: Int, ride: Int)] = []
        for ride in 1..<max(1, segmentCount) where legs[ride]?.departure != nil {
            var place = ride - 1
            while place > 0, !isTravellersPlace(place), legs[place] != nil, !isDated(place) { place -= 1 }
            guard !isTravellersPlace(ride), isTravellersPlace(place), nodes[place].stay?.isUntil != true,
                  (place..<ride).allSatisfy({ legs[$0] != nil && !isDated($0) }) else { continue }
            stretches.append((place, ride))
        }
        return stretches
    }

    /// A node the traveller chose to be at: one of the user's places, the current location, or a
    /// stop with a stay the user set.
    private func isTravellersPlace(_ index: Int) -> Bool {
        let node = nodes[index]
        return !node.isInferred || node.isCurrentLocation || node.stay != nil
    }

    /// Times the nodes after each place of `walksToRidesFromThePlaces` back from the ride after
    /// them, when the traveller gets to the place in time to leave that late (else the ride is
    /// missed or late, and the times going forward say so). The place keeps when the traveller
    /// gets there; `departureTimes` says when they leave it.
    func timingWalksBackFromTheirRides(_ times: inout [Date?]) {
        for (place, ride) in walksToRidesFromThePlaces {
            guard let departure = legs[ride]?.departure, let arrived = times[place] else { continue }
            var back = times
            back[ride] = nodes[ride].latestArrival(leavingAt: departure)
            for index in stride(from: ride - 1, to: place, by: -1) {
                guard let next = back[index + 1], let leg = legs[index] else { break }
                back[index] = nodes[index].latestArrival(leavingAt: next.addingTimeInterval(-leg.expectedTravelTime))
            }
            guard let first = back[place + 1], let walk = legs[place] else { continue }
            let leaves = first.addingTimeInterval(-walk.expectedTravelTime)
            // Only later than the traveller is there anyway: the time to spare moves to the place.
            guard leaves > nodes[place].leaving(arrivedAt: arrived).addingTimeInterval(Self.connectionSlack) else { continue }
            for index in (place + 1)...ride { times[index] = back[index] }
        }
    }

    /// When the traveller leaves each node for a walk timed back from the ride after it
    /// (`timingWalksBackFromTheirRides`, `times` being the schedule): the next node's time less
    /// the walk; nil for other nodes.
    func leavingForTheRides(times: [Date?]) -> [Date?] {
        var leaving = [Date?](repeating: nil, count: nodes.count)
        for (place, ride) in walksToRidesFromThePlaces {
            for index in place..<ride {
                guard let next = times[index + 1], let leg = legs[index] else { continue }
                leaving[index] = next.addingTimeInterval(-leg.expectedTravelTime)
            }
        }
        return leaving
    }
}
