import Foundation
@testable import Planner

/// `EditSequencePropertyTests.Network` with buses that run through: every 10 minutes a bus
/// leaves each end of one line, running east (or west) at 400 m/min along the longitude and
/// calling wherever a query boards or leaves it (at the moment it passes that longitude).
/// A ride to a stop and a ride on from it may then be one bus, as in a real timetable, where
/// the scripted network gives each query a trip of its own and so can never show one vehicle
/// trip in two segments (trial 59b F2a, F2b). A place that is not a stop is a minute's walk
/// from the line (its stop "… L"), so a ride to a place of the user's and on from it is never
/// the same bus, as on real streets. Walks, drives, rides by bike and stops are the scripted
/// network's.
struct ThroughRunningNetwork: ScriptedAnswers {
    /// The line's west end and its length east of it.
    static let westEnd = 23.70, length = 11_000.0
    static let metresPerDegree = 53_000.0, speed = 400.0 / 60, headway: TimeInterval = 600
    /// The walk between a place that is not a stop and the line.
    static let walkToTheLine: TimeInterval = 60, metresToTheLine = 80.0

    func nearbyStops(around coordinate: Coordinate, radius: Double, limit: Int) async throws -> [Place] {
        try await EditSequencePropertyTests.Network().nearbyStops(around: coordinate, radius: radius, limit: limit)
    }

    /// How long after leaving its end a bus going `east` (or west) passes `place`.
    static func offset(of place: Place, east: Bool) -> TimeInterval {
        let metres = min(max((place.coordinate.longitude - westEnd) * metresPerDegree, 0), length)
        return (east ? metres : length - metres) / speed
    }

    static func answer(_ query: LegQuery, skipping: Int) throws -> RouteLeg {
        guard query.mode == .transit else { return try EditSequencePropertyTests.Network.answer(query, skipping: skipping) }
        let east = query.to.coordinate.longitude >= query.from.coordinate.longitude
        let boards = offset(of: query.from, east: east), alights = offset(of: query.to, east: east)
        let access = query.from.kind == .transitStop ? 0 : walkToTheLine, egress = query.to.kind == .transitStop ? 0 : walkToTheLine
        // The bus's start from its end of the line: the first passing the boarding stop once the
        // traveller is there (arriving by the time asked: the last passing the alighting stop early enough).
        let start: TimeInterval
        switch query.timing {
        case .departAt(let time):
            start = ((time.timeIntervalSince1970 + access - boards) / headway).rounded(.up) * headway + Double(skipping) * headway
        case .arriveBy(let time):
            start = ((time.timeIntervalSince1970 - egress - alights) / headway).rounded(.down) * headway - Double(skipping) * headway
        }
        let boarding = Date(timeIntervalSince1970: start + boards), alighting = Date(timeIntervalSince1970: start + alights)
        let (boardingStop, alightingStop) = (access > 0 ? "\(query.from.name) L" : query.from.name, egress > 0 ? "\(query.to.name) L" : query.to.name)
        let trip = "\(east ? "east" : "west")-\(Int(start))"
        let rides = [TransitRide(lineName: east ? "E" : "W", vehicle: "bus", tripID: trip,
                                 boarding: TransitStopCall(name: boardingStop, coordinate: query.from.coordinate, time: boarding),
                                 alighting: TransitStopCall(name: alightingStop, coordinate: query.to.coordinate, time: alighting))]
        var walks: [TransitWalkStep] = []
        if access > 0 {
            walks.append(TransitWalkStep(kind: .access, fromName: query.from.name, from: query.from.coordinate, toName: boardingStop,
                                         to: query.from.coordinate, start: boarding.addingTimeInterval(-access), duration: access,
                                         distance: metresToTheLine))
        }
        if egress > 0 {
            walks.append(TransitWalkStep(kind: .egress, fromName: alightingStop, from: query.to.coordinate, toName: query.to.name,
                                         to: query.to.coordinate, start: alighting, duration: egress, distance: metresToTheLine))
        }
        let departure = boarding.addingTimeInterval(-access), arrival = alighting.addingTimeInterval(egress)
        return RouteLeg(mode: .transit, expectedTravelTime: arrival.timeIntervalSince(departure),
                        distance: query.from.coordinate.distance(to: query.to.coordinate), departure: departure, arrival: arrival,
                        rides: rides, walks: walks)
    }
}
