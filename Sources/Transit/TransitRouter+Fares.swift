import Foundation
import Planner

extension TransitRouter {
    /// The cheapest tickets for `rides` taken in this order: every ride of a plan, so that a
    /// ticket bought on one segment is used on the next while its zones and time allow.
    /// Each ride is found again by its trip and its boarding and alighting stops; a ride this
    /// timetable does not hold (the region was imported again since) leaves the price unknown.
    public func tickets(for rides: [TransitRide]) -> FareTickets {
        let tt = timetable
        guard tt.fares.isRead else { return .unknown("price unknown (fares not read: re-import the region)") }
        let trips = realtime.trips(tt)
        var fareRides: [FareRide] = []
        fareRides.reserveCapacity(rides.count)
        for ride in rides {
            guard let found = locate(ride, trips: trips) else {
                return .unknown("price unknown (a ride is not in the timetable: refresh the plan)")
            }
            fareRides.append(found)
        }
        return FarePricing.tickets(fareRides, in: tt.fares, units: tt.fareUnits, timeZoneID: tt.timeZoneID)
    }

    /// `ride` as the fare rules see it: its run in the timetable (`timetableRun`: its trip, in
    /// its own feed, leaving its boarding stop at its timetable time).
    private func locate(_ ride: TransitRide, trips: TripLookup) -> FareRide? {
        guard let (run, board, alight) = timetableRun(of: ride, trips: trips) else { return nil }
        let tt = timetable
        return fareRide(route: tt.tripRoutes[Int(run.trip)], pattern: tt.patterns[Int(trips.tripPattern[Int(run.trip)])],
                        boardIndex: board, alightIndex: alight,
                        boarding: Int(ride.boarding.time.timeIntervalSince1970),
                        alighting: Int(ride.alighting.time.timeIntervalSince1970))
    }

    /// A ride on `pattern` from its stop `boardIndex` to `alightIndex` (positions in the
    /// pattern) as the fare rules see it: its stops, the zones it passes and its times.
    func fareRide(route: Int32, pattern: Timetable.Pattern, boardIndex: Int, alightIndex: Int, boarding: Int, alighting: Int) -> FareRide {
        let tt = timetable
        var zones: [Int32] = [], destinationZone: Int32 = -1
        if tt.fares.isRead {
            for i in boardIndex...alightIndex {
                destinationZone = tt.fares.stopZones[Int(tt.patternStops[Int(pattern.stopsStart) + i])]
                if !zones.contains(destinationZone) { zones.append(destinationZone) }
            }
        }
        let stops = Int(pattern.stopsStart)
        return FareRide(route: route, agencyID: tt.routes[Int(route)].agencyID,
                        fromStop: tt.patternStops[stops + boardIndex], toStop: tt.patternStops[stops + alightIndex],
                        zones: zones, destinationZone: destinationZone, boarding: boarding, alighting: alighting)
    }
}
