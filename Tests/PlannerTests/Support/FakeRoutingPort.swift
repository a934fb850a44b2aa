import Foundation
@testable import Planner

/// A scripted routing port that records every question. Lives in the test target only.
actor FakeRoutingPort: RoutingPort {
    typealias LegScript = @Sendable (LegQuery) throws -> RouteLeg
    typealias StopScript = @Sendable (Coordinate, Double, Int) throws -> [Place]

    typealias LiveScript = @Sendable (RouteLeg) -> RouteLeg
    typealias CallScript = @Sendable (TransitRide) -> [TripCall]

    private let legScript: LegScript
    private let stopScript: StopScript
    private let liveScript: LiveScript
    private let callScript: CallScript
    private(set) var queries: [LegQuery] = []
    private(set) var stopLookups: [Coordinate] = []

    init(stops: @escaping StopScript = { _, _, _ in [] }, live: @escaping LiveScript = { $0 },
         calls: @escaping CallScript = { _ in [] }, legs: @escaping LegScript) {
        self.legScript = legs
        self.stopScript = stops
        self.liveScript = live
        self.callScript = calls
    }

    /// Every call of a ride's trip (by default: the trip is not known).
    func calls(ofTripOf ride: TransitRide) async -> [TripCall] { callScript(ride) }

    /// What a realtime feed says of a leg's trips (by default: nothing).
    func liveLeg(_ leg: RouteLeg, for query: LegQuery) async -> RouteLeg { liveScript(leg) }

    /// As a real engine with a realtime feed, the answers carry what the feed says.
    func leg(for query: LegQuery) async throws -> RouteLeg {
        queries.append(query)
        return liveScript(try legScript(query))
    }

    func nearbyStops(around coordinate: Coordinate, radius: Double, limit: Int) async throws -> [Place] {
        stopLookups.append(coordinate)
        return Array(try stopScript(coordinate, radius, limit).prefix(limit))
    }

    func search(_ text: String, near: Coordinate?) async throws -> [Place] { [] }

    /// Segments asked about, as "from→to" names, in order.
    var askedSegments: [String] { queries.map { "\($0.from.name)→\($0.to.name)" } }
    var totalQueries: Int { queries.count + stopLookups.count }
}

/// A clock stuck at one instant.
struct FixedClock: WallClock {
    var instant: Date
    func now() -> Date { instant }
}

/// Fixtures shared by the planner tests: places on a line through Tampere and a fixed morning.
enum Fixture {
    /// 2022-01-12 08:00:00 UTC.
    static let morning = Date(timeIntervalSince1970: 1_641_974_400)

    static func at(_ minutes: Double) -> Date { morning.addingTimeInterval(minutes * 60) }

    /// A place `metres` east of Tampere centre.
    static func place(_ name: String, east metres: Double, north: Double = 0, kind: PlaceKind? = nil) -> Place {
        let origin = Coordinate(latitude: 61.4981, longitude: 23.7610)
        let metresPerDegree = Coordinate.earthRadiusMetres * .pi / 180
        return Place(name: name, coordinate: Coordinate(
            latitude: origin.latitude + north / metresPerDegree,
            longitude: origin.longitude + metres / (metresPerDegree * cos(origin.latitude * .pi / 180))), kind: kind)
    }

    static let home = place("Home", east: 0)
    static let stopA = place("Stop A", east: 400, kind: .transitStop)
    static let stopB = place("Stop B", east: 9_600, kind: .transitStop)
    static let office = place("Office", east: 10_000)

    static func walk(_ minutes: Double, metres: Double? = nil) -> RouteLeg {
        RouteLeg(mode: .walk, expectedTravelTime: minutes * 60, distance: metres)
    }

    static func car(_ minutes: Double, metres: Double? = nil) -> RouteLeg {
        RouteLeg(mode: .car, expectedTravelTime: minutes * 60, distance: metres)
    }

    static func bike(_ minutes: Double, metres: Double? = nil) -> RouteLeg {
        RouteLeg(mode: .bike, expectedTravelTime: minutes * 60, distance: metres)
    }

    static func transit(departing: Date, minutes: Double, trip: String? = nil, metres: Double? = nil) -> RouteLeg {
        var rides: [TransitRide] = []
        if let trip {
            let c = Coordinate(latitude: 61.5, longitude: 23.76)
            rides = [TransitRide(lineName: "3", vehicle: "bus", tripID: trip,
                                 boarding: TransitStopCall(name: "a", coordinate: c, time: departing),
                                 alighting: TransitStopCall(name: "b", coordinate: c,
                                                            time: departing.addingTimeInterval(minutes * 60)))]
        }
        return RouteLeg(mode: .transit, expectedTravelTime: minutes * 60, distance: metres, departure: departing,
                        arrival: departing.addingTimeInterval(minutes * 60), rides: rides)
    }

    /// The first departure at or after `time` from a list of departure minutes, or for "arrive by"
    /// the last one arriving in time: a tiny timetable.
    static func timetable(_ departureMinutes: [Double], minutes: Double, trip: (Double) -> String? = { _ in nil },
                          timing: LegTiming) throws -> RouteLeg {
        switch timing {
        case .departAt(let time):
            guard let m = departureMinutes.sorted().first(where: { at($0) >= time }) else {
                throw RoutingError.noRoute("no departure after \(time)")
            }
            return transit(departing: at(m), minutes: minutes, trip: trip(m))
        case .arriveBy(let time):
            guard let m = departureMinutes.sorted().last(where: { at($0 + minutes) <= time }) else {
                throw RoutingError.noRoute("no arrival before \(time)")
            }
            return transit(departing: at(m), minutes: minutes, trip: trip(m))
        }
    }
}
