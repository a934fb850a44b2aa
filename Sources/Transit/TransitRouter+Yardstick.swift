import Foundation
import Planner

/// What the benchmark's yardstick (a plain connection scan in `usefulmap-bench transit`) needs
/// to answer the engine's own queries and to check its earliest arrivals against the engine's.
extension TransitRouter {
    /// The connections of the service days a query on local day `day` searches (the day before,
    /// the day, the day after), footpaths at `pace`; no realtime overlay.
    public func connectionTimetable(around day: Int, pace: WalkingPace) -> ConnectionTimetable {
        ConnectionTimetable(timetable: timetable, days: serviceDays.around(day), engine: engine(pace))
    }

    /// The stop-to-stop query `leg` gives the engine for a depart-at journey between two points.
    public func engineQuery(from origin: Coordinate, to destination: Coordinate, departing date: Date, pace: WalkingPace,
                            accessRadius: Double = TransitRouter.defaultAccessRadius) -> EngineQuery {
        let access = endpoints(around: origin, radius: accessRadius, pace: pace, towardsStop: true)
        let egress = endpoints(around: destination, radius: accessRadius, pace: pace, towardsStop: false)
        return EngineQuery(time: Int(date.timeIntervalSince1970.rounded(.down)), access: access.map { ($0.stop, $0.seconds) },
                           egress: egress.map { ($0.stop, $0.seconds) }, horizon: Raptor.defaultHorizon,
                           day: ServiceDate.localDay(of: date, in: timetable.timeZone))
    }

    /// The engine's earliest arrival (Unix seconds) for `query` with at most `maxRides` rides,
    /// before the router's choice among journeys; nil when it finds none. No realtime overlay.
    public func engineEarliestArrival(_ query: EngineQuery, pace: WalkingPace, maxRides: Int) -> Int? {
        let journeys = engine(pace).departAt(query.time, access: query.access.map { Raptor.Endpoint(stop: $0.stop, seconds: $0.seconds) },
                                             egress: query.egress.map { Raptor.Endpoint(stop: $0.stop, seconds: $0.seconds) },
                                             days: serviceDays.around(query.day), maxRides: maxRides, horizon: query.horizon)
        return journeys.map(\.arrival).min()
    }
}
