import Foundation
import Planner
import Transit

/// Transit legs whose first and last walks are the streets' walks. The engine prices a walk to
/// or from a stop as a stretched straight line, which can promise a bus the traveller cannot
/// reach by the streets. So after the engine answers, the walk to its first stop and from its
/// last stop are asked of the street router; a walk longer than the engine thought goes back
/// into the search as that stop's known time and the engine is asked again, until its answer's
/// walks are all street-timed and no longer than it thought (`rounds`). The walks shown are then
/// the street walks (seconds, metres, line): the same as a walk leg between the same points.
/// "Walking the whole way is no slower" is judged on the street walk too. (docs/transit.md,
/// "Walks at the ends".)
struct StreetTimedTransit: Sendable {
    let transit: any RegionLegSource
    let streets: any RegionLegSource

    /// Searches with the estimate before the last one: each learns the street time of the stops
    /// its answer used. The last search stretches every still-unknown estimate
    /// (`lastStretch`), so an answer whose walks all wind is still one the traveller can catch.
    static let rounds = 4
    static let lastStretch = 2.0
    /// A walk shorter than this (the leg starts at its stop) keeps the engine's time.
    static let shortestTimedMetres = 15.0
    /// Faster than anyone walks the streets (km/h): a straight line over this speed bounds the
    /// street walk from below, so a walk that cannot be no slower is not asked.
    static let walkSpeedBoundKmh = 7.0

    func leg(for query: LegQuery) async throws -> RouteLeg {
        var walks = StreetWalks(query: query, streets: streets)
        var known = KnownEndWalks()
        var leg = try await transit.leg(for: query, knownWalks: known)
        for round in 1...Self.rounds {
            let timed = try await walks.timeEnds(of: leg)
            if timed.fits || round == Self.rounds {
                return try await judgedAgainstWalking(timed.leg, query)
            }
            known = KnownEndWalks(access: walks.access, egress: walks.egress,
                                  estimateStretch: round == Self.rounds - 1 ? Self.lastStretch : 1)
            leg = try await transit.leg(for: query, knownWalks: known)
        }
        return leg
    }

    /// The options as `leg` times them: each option's end walks on the streets, options whose
    /// walks the engine under-timed asked again with what was learnt; an option still not
    /// catchable after the last round is left out (unless none is), and none dominated by another
    /// once the walks are true.
    func alternatives(for query: LegQuery, count: Int) async throws -> [RouteLeg] {
        var walks = StreetWalks(query: query, streets: streets)
        var known = KnownEndWalks()
        var legs = try await transit.alternatives(for: query, count: count, knownWalks: known)
        for round in 1...Self.rounds {
            var timed: [(leg: RouteLeg, fits: Bool)] = []
            for leg in legs { timed.append(try await walks.timeEnds(of: leg)) }
            if timed.allSatisfy(\.fits) || round == Self.rounds {
                let catchable = timed.filter(\.fits).map(\.leg)
                let shown = JourneyDominance.undominated(catchable.isEmpty ? timed.map(\.leg) : catchable)
                return shown.sorted { ($0.departure ?? .distantPast, $0.arrival ?? .distantPast)
                    < ($1.departure ?? .distantPast, $1.arrival ?? .distantPast) }
            }
            known = KnownEndWalks(access: walks.access, egress: walks.egress,
                                  estimateStretch: round == Self.rounds - 1 ? Self.lastStretch : 1)
            legs = try await transit.alternatives(for: query, count: count, knownWalks: known)
        }
        return legs
    }

    /// The leg's note "walking the whole way is no slower", judged on the street walk when a
    /// walk could be (the straight line at `walkSpeedBoundKmh` is no slower than the leg).
    private func judgedAgainstWalking(_ leg: RouteLeg, _ query: LegQuery) async throws -> RouteLeg {
        guard let departure = leg.departure, let arrival = leg.arrival else { return leg }
        // The seconds a walk may take: from the asked time to the leg's arrival (depart-at), or
        // from the leg's departure to the asked time (arrive-by).
        let allowed: TimeInterval = switch query.timing {
        case .departAt(let date): arrival.timeIntervalSince(date)
        case .arriveBy(let date): date.timeIntervalSince(departure)
        }
        let straight = query.from.coordinate.distance(to: query.to.coordinate)
        let fastest = straight / (Self.walkSpeedBoundKmh / 3.6) * query.pace.durationMultiplier
        var judged = leg
        guard fastest <= allowed else {
            judged.walkingIsNoSlower = false
            return judged
        }
        let walk = try? await streets.leg(for: LegQuery(from: query.from, to: query.to, mode: .walk, timing: query.timing,
                                                        pace: query.pace, access: query.access))
        if let walk { judged.walkingIsNoSlower = walk.expectedTravelTime <= allowed }
        return judged
    }
}

/// The street walks between a query's ends and the stops its answers use, asked once each.
private struct StreetWalks {
    let query: LegQuery
    let streets: any RegionLegSource
    /// Street seconds (whole, rounded up) by stop ID, for `KnownEndWalks`.
    private(set) var access: [String: Int] = [:]
    private(set) var egress: [String: Int] = [:]
    /// The street walks asked (nil: the streets found none: the engine's estimate stays).
    private var accessWalks: [String: RouteLeg?] = [:]
    private var egressWalks: [String: RouteLeg?] = [:]

    init(query: LegQuery, streets: any RegionLegSource) {
        self.query = query
        self.streets = streets
    }

    /// `leg` with its end walks on the streets (`RouteLeg.withStreetEndWalks`), and whether it
    /// fits: no walk is longer on the streets than the engine timed it, so every ride is caught.
    mutating func timeEnds(of leg: RouteLeg) async throws -> (leg: RouteLeg, fits: Bool) {
        guard leg.mode == .transit, let first = leg.rides.first, let last = leg.rides.last else { return (leg, true) }
        let accessWalk = leg.walks.first { $0.kind == .access }, egressWalk = leg.walks.last { $0.kind == .egress }
        let accessStreet = try await walk(accessWalk, stop: first.boarding.stopID, towardsStop: true)
        let egressStreet = try await walk(egressWalk, stop: last.alighting.stopID, towardsStop: false)
        // A second's rounding: the engine's times are whole seconds.
        let fits = [(accessWalk, accessStreet), (egressWalk, egressStreet)].allSatisfy { engine, street in
            guard let engine, let street else { return true }
            return street.expectedTravelTime <= engine.duration + 1
        }
        return (leg.withStreetEndWalks(access: accessStreet, egress: egressStreet), fits)
    }

    private mutating func walk(_ step: TransitWalkStep?, stop: String?, towardsStop: Bool) async throws -> RouteLeg? {
        guard let step, let stop, step.from.distance(to: step.to) >= StreetTimedTransit.shortestTimedMetres else { return nil }
        if let asked = towardsStop ? accessWalks[stop] : egressWalks[stop] { return asked }
        let stopPlace = Place(name: towardsStop ? step.toName : step.fromName, coordinate: towardsStop ? step.to : step.from,
                              kind: .transitStop)
        let walkQuery = LegQuery(from: towardsStop ? query.from : stopPlace, to: towardsStop ? stopPlace : query.to,
                                 mode: .walk, timing: query.timing, pace: query.pace, access: query.access)
        let street: RouteLeg?
        do {
            street = try await streets.leg(for: walkQuery)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            street = nil  // no street walk (a stop beyond the streets): the estimate is all there is
        }
        let seconds = street.map { Int($0.expectedTravelTime.rounded(.up)) }
        if towardsStop {
            accessWalks[stop] = .some(street)
            if let seconds { access[stop] = seconds }
        } else {
            egressWalks[stop] = .some(street)
            if let seconds { egress[stop] = seconds }
        }
        return street
    }
}
