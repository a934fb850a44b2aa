import Foundation

extension RouteLeg {
    /// The transit leg with its first and last walks as the streets give them: `access` (the
    /// walk from the leg's start to its first stop) and `egress` (from its last stop to its end)
    /// are street walk legs without times; nil keeps that walk as it is. The walk's seconds,
    /// metres and line follow the street; the rides keep their times, so the leg leaves when the
    /// street walk must start to board, and arrives when the street walk ends.
    public func withStreetEndWalks(access: RouteLeg?, egress: RouteLeg?) -> RouteLeg {
        guard mode == .transit, let firstRide = rides.first, let lastRide = rides.last else { return self }
        var leg = self
        var distance = leg.distance ?? 0
        if let access, let index = leg.walks.firstIndex(where: { $0.kind == .access }) {
            distance += (access.distance ?? leg.walks[index].distance) - leg.walks[index].distance
            leg.walks[index].duration = access.expectedTravelTime
            leg.walks[index].distance = access.distance ?? leg.walks[index].distance
            leg.walks[index].start = firstRide.boarding.time.addingTimeInterval(-access.expectedTravelTime)
            leg.departure = leg.walks[index].start
            if access.geometry.count >= 2, !leg.geometry.isEmpty {
                leg.geometry = access.geometry.dropLast() + leg.geometry.dropFirst()
            }
        }
        if let egress, let index = leg.walks.lastIndex(where: { $0.kind == .egress }) {
            distance += (egress.distance ?? leg.walks[index].distance) - leg.walks[index].distance
            leg.walks[index].duration = egress.expectedTravelTime
            leg.walks[index].distance = egress.distance ?? leg.walks[index].distance
            leg.walks[index].start = lastRide.alighting.time
            leg.arrival = lastRide.alighting.time.addingTimeInterval(egress.expectedTravelTime)
            if egress.geometry.count >= 2, !leg.geometry.isEmpty {
                leg.geometry = leg.geometry.dropLast() + egress.geometry.dropFirst()
            }
        }
        leg.distance = leg.distance == nil ? nil : distance
        if let departure = leg.departure, let arrival = leg.arrival {
            leg.expectedTravelTime = arrival.timeIntervalSince(departure)
        }
        return leg
    }
}
