import Foundation
import Planner
import Streets
import Transit

/// Transit legs whose first and last walks are the streets' walks. The engine prices a walk to
/// or from a stop as a stretched straight line, which can promise a bus the street walk misses,
/// or lose one it catches (where streets run straight). So the engine is asked with every walk
/// to or from a stop priced as the straight line (less what a street walk can fall short of it,
/// `KnownEndWalks.streetLowerBound`) at the streets' walking speed, a lower bound;
/// the walks its answer uses are asked of the street router and the engine asked again with
/// them known, until the answer's walks are all street walks (or no longer than it thought):
/// then no other stop, whose walk can only be longer than its bound, gives a better journey.
/// The walks shown are the street walks (seconds, metres, line): the same as a walk leg
/// between the same points. "Walking the whole way is no slower" is judged on the street walk
/// too. (docs/transit.md, "Walks at the ends are the streets'".)
struct StreetTimedTransit: Sendable {
    let transit: any RegionLegSource
    /// Nil when the region's streets cannot be opened: the engine's answers as they are.
    let streets: (any RegionLegSource)?

    /// Searches at most before the closing one; the last prices the walks still unknown as the
    /// straight line at `lastRoundMetresPerSecond` (slower than most street walks), so it may keep
    /// a stop whose walk is known over a nearer one never asked: with 6, Nekalantie → Kaleva at
    /// 09:10 arrived 13 s later than asked at 09:15 for the same departure. With 10, from
    /// 61.46066,23.73866 at 07:45 (stops all round whose street walks are two to four times the
    /// straight line) every search proposed another stop, and the closing one walked 23 min to
    /// bus 12 at 08:17, leaving 07:54, where bus 34 leaves 08:01 to the same bus (trial 57); 20
    /// let it settle. Each search asks only the walks its answer uses, most queries one or two.
    static let rounds = 20
    /// The streets walk at 5 km/h (`StreetRouter`) over at least the straight line.
    static let streetMetresPerSecond = StreetRouter.walkingMetresPerSecond
    static let lastRoundMetresPerSecond = 0.7
    /// Where even the last search's answer walks a street longer than it priced (trial 52: the
    /// stop across the road from near Turjankatu, 141 m in a straight line and 436 m, 314 s, by
    /// the street, priced 201 s, its bus gone), one closing search prices the walks still unknown
    /// at this speed, the slowest `KnownEndWalks` takes: no shorter than the street walk unless
    /// the street is over 14 times the straight line (as 5 km/h is to 0.1 m/s), so its answer is
    /// a ride the traveller catches.
    static let closingMetresPerSecond = 0.1
    /// A walk shorter than this (the leg starts at its stop: one point) keeps the engine's 0 s.
    /// A few metres apart in a straight line may be a road apart: Hervantakeskus A → E is 3 m
    /// and 47 m by the streets, and its bus was missed by the walk the engine guessed.
    static let shortestTimedMetres = 1.0
    /// Faster than anyone walks the streets (km/h): a straight line over this speed bounds the
    /// street walk from below, so a walk that cannot be no slower is not asked.
    static let walkSpeedBoundKmh = 7.0

    func leg(for query: LegQuery) async throws -> RouteLeg {
        let query = try await askingTheTravellersWalks(query)
        let timed = try await streetTimed(query) { [try await transit.leg(for: query, knownWalks: $0)] }
        return try await judgedAgainstWalking(timed[0].leg, query)
    }

    /// `query` with the walks between the traveller's places and the inferred stops the plan
    /// asks next (`TravellerEnds.asksOriginWalk`, `asksDestinationWalk`) asked now, so that
    /// the ride is searched from (to) the places; a walk the streets do not find stays unknown.
    private func askingTheTravellersWalks(_ query: LegQuery) async throws -> LegQuery {
        guard let streets else { return query }
        /// The walk between `from` and `to`; nil when the streets find none.
        func walk(_ from: Place, _ to: Place) async throws -> TimeInterval? {
            let asked = LegQuery(from: from, to: to, mode: .walk, timing: query.timing, pace: query.pace, access: query.access)
            do { return try await streets.leg(for: asked).expectedTravelTime } catch is CancellationError { throw CancellationError() } catch { return nil }
        }
        let ends = query.travellerEnds, place = Self.travellersPlace
        var asked = query
        if ends.asksOriginWalk, let origin = ends.origin { asked.travellerEnds.originWalk = try await walk(place(origin), query.from) }
        if ends.asksDestinationWalk, let destination = ends.destination {
            asked.travellerEnds.destinationWalk = try await walk(query.to, place(destination))
        }
        return asked
    }

    /// The place a traveller walks from (to) beyond an inferred stop, as a walk query's end.
    static func travellersPlace(_ coordinate: Coordinate) -> Place { Place(name: "the traveller's place", coordinate: coordinate) }

    /// The options as `leg` times them: each option's end walks on the streets; an option still
    /// not catchable after the last search is left out (unless none is), and none another one
    /// dominates once the walks are true (`JourneyDominance`).
    func alternatives(for query: LegQuery, count: Int) async throws -> [RouteLeg] {
        let timed = try await streetTimed(query) { try await transit.alternatives(for: query, count: count, knownWalks: $0) }
        let catchable = timed.filter(\.fits).map(\.leg)
        return JourneyDominance.undominated(catchable.isEmpty ? timed.map(\.leg) : catchable).sorted {
            ($0.departure ?? .distantPast, $0.arrival ?? .distantPast) < ($1.departure ?? .distantPast, $1.arrival ?? .distantPast)
        }
    }

    /// `search`'s answers with their end walks on the streets, searched again with the street
    /// times learnt until every answer fits (no walk longer than the engine priced it), or after
    /// `rounds` searches and the closing one (`closingMetresPerSecond`).
    private func streetTimed(_ query: LegQuery, _ search: (KnownEndWalks) async throws -> [RouteLeg])
        async throws -> [(leg: RouteLeg, fits: Bool)] {
        guard let streets else { return try await search(KnownEndWalks()).map { ($0, true) } }
        var walks = StreetWalks(query: query, streets: streets)
        var known = KnownEndWalks(unknownMetresPerSecond: Self.streetMetresPerSecond, shortensStraightLines: true)
        var round = 1
        while true {
            let timed = try await walks.timeEnds(of: try await search(known))
            if round > Self.rounds || timed.allSatisfy(\.fits) { return timed }
            round += 1
            let unknown = switch round {
            case ..<Self.rounds: Self.streetMetresPerSecond
            case Self.rounds: Self.lastRoundMetresPerSecond
            default: Self.closingMetresPerSecond
            }
            known = walks.known(unknownMetresPerSecond: unknown)
        }
    }

    /// The leg's note "walking the whole way is no slower", judged on the street walk when a
    /// walk could be (the straight line at `walkSpeedBoundKmh` is no slower than the leg).
    private func judgedAgainstWalking(_ leg: RouteLeg, _ query: LegQuery) async throws -> RouteLeg {
        guard let streets, let departure = leg.departure, let arrival = leg.arrival else { return leg }
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
    /// The street walks asked, by end and stop ID (nil: the streets found none, so the
    /// engine's estimate stays: a stop beyond the streets).
    private var asked: [End: RouteLeg?] = [:]

    /// A walk between the query's start and a stop (`towardsStop`), or a stop and its end.
    private struct End: Hashable {
        var stop: String
        var towardsStop: Bool
    }

    init(query: LegQuery, streets: any RegionLegSource) {
        self.query = query
        self.streets = streets
    }

    /// Each leg with its end walks on the streets (`RouteLeg.withStreetEndWalks`), and whether
    /// it fits: no walk is longer on the streets than the engine timed it, so every ride is
    /// caught. The walks not asked before are asked at once.
    mutating func timeEnds(of legs: [RouteLeg]) async throws -> [(leg: RouteLeg, fits: Bool)] {
        let ends = legs.map(Self.ends)
        var missing: [End: TransitWalkStep] = [:]
        for (end, step) in ends.flatMap({ [$0.access, $0.egress].compactMap { $0 } }) where asked[end] == nil {
            missing[end] = step
        }
        try await ask(missing)
        return zip(legs, ends).map { leg, ends in
            let street = (access: ends.access.flatMap { asked[$0.end] ?? nil }, egress: ends.egress.flatMap { asked[$0.end] ?? nil })
            let fits = [(ends.access, street.access), (ends.egress, street.egress)].allSatisfy { engine, street in
                guard let engine, let street else { return true }
                return self.fits(street, for: engine.end, step: engine.step, new: missing[engine.end] != nil)
            }
            // A walk priced from the traveller's place keeps the engine's step: the planner moves
            // its inferred stop to the ride's and asks the walk from there.
            return (leg.withStreetEndWalks(access: placeWalk(towardsStop: true) == nil ? street.access : nil,
                                           egress: placeWalk(towardsStop: false) == nil ? street.egress : nil), fits)
        }
    }

    /// The traveller's place beyond the query's start (`towardsStop`) or end, when that end is a
    /// stop inferred for them and their walk to it is known: walks to (from) other stops are then
    /// asked from (to) that place and priced beyond that walk (`TravellerEnds.extra`).
    private func placeWalk(towardsStop: Bool) -> (place: Coordinate, walk: TimeInterval)? {
        let ends = query.travellerEnds
        return towardsStop ? ends.origin.flatMap { place in ends.originWalk.map { (place, $0) } }
            : ends.destination.flatMap { place in ends.destinationWalk.map { (place, $0) } }
    }

    /// Whether `street`, the walk asked for `end`, is no longer than the engine timed it (`step`).
    /// Asked from (to) the traveller's place, the step shows only the part beyond their walk to
    /// the inferred stop, 0 where the walk is no longer, which hides what the engine took for it:
    /// a walk first asked now (`new`) then fits only when that part is shown (the engine took
    /// the step's seconds plus that walk), one it searched with already fits as taken.
    private func fits(_ street: RouteLeg, for end: End, step: TransitWalkStep, new: Bool) -> Bool {
        let walk = Int(street.expectedTravelTime)
        guard let traveller = placeWalk(towardsStop: end.towardsStop) else { return Double(walk) <= step.duration }
        if new && step.duration == 0 { return walk == 0 }
        return Double(TravellerEnds.extra(walk, beyond: traveller.walk)) <= step.duration
    }

    /// The leg's walk to its first stop and from its last, each with the stop's ID; nil for a
    /// walk of a few metres (the leg starts or ends at its stop) or a leg without rides.
    private static func ends(of leg: RouteLeg) -> (access: (end: End, step: TransitWalkStep)?, egress: (end: End, step: TransitWalkStep)?) {
        guard leg.mode == .transit, let first = leg.rides.first, let last = leg.rides.last else { return (nil, nil) }
        func end(_ kind: TransitWalkStep.Kind, _ stop: String?) -> (end: End, step: TransitWalkStep)? {
            guard let stop, let step = kind == .access ? leg.walks.first(where: { $0.kind == kind }) : leg.walks.last(where: { $0.kind == kind }),
                  step.from.distance(to: step.to) >= StreetTimedTransit.shortestTimedMetres else { return nil }
            return (End(stop: stop, towardsStop: kind == .access), step)
        }
        return (end(.access, first.boarding.stopID), end(.egress, last.alighting.stopID))
    }

    /// Asks the street walks of `missing` together (the street router's workers answer them in
    /// parallel) and keeps them.
    private mutating func ask(_ missing: [End: TransitWalkStep]) async throws {
        let (query, streets) = (query, streets)
        let found = try await withThrowingTaskGroup(of: (End, RouteLeg?).self) { group in
            for (end, step) in missing {
                let stop = Place(name: end.towardsStop ? step.toName : step.fromName, coordinate: end.towardsStop ? step.to : step.from,
                                 kind: .transitStop)
                let beyond = placeWalk(towardsStop: end.towardsStop).map { StreetTimedTransit.travellersPlace($0.place) }
                let walk = LegQuery(from: end.towardsStop ? beyond ?? query.from : stop, to: end.towardsStop ? stop : beyond ?? query.to,
                                    mode: .walk, timing: query.timing, pace: query.pace, access: query.access)
                group.addTask {
                    do {
                        return (end, try await streets.leg(for: walk))
                    } catch is CancellationError {
                        throw CancellationError()
                    } catch {
                        return (end, nil)  // no street walk (a stop beyond the streets): the estimate is all there is
                    }
                }
            }
            var found: [(End, RouteLeg?)] = []
            for try await answer in group { found.append(answer) }
            return found
        }
        // In whole seconds, rounded up, as the engine searches with them (`known`): a leg shown
        // arriving at 06:27:20.4 would be shown 06:27:20 and not found arriving by it.
        for (end, street) in found {
            asked[end] = .some(street.map { street in
                var whole = street
                whole.expectedTravelTime = street.expectedTravelTime.rounded(.up)
                return whole
            })
        }
    }

    /// The walks asked so far, in whole seconds as the engine times them, for its next search.
    func known(unknownMetresPerSecond: Double) -> KnownEndWalks {
        var known = KnownEndWalks(unknownMetresPerSecond: unknownMetresPerSecond,
                                  shortensStraightLines: unknownMetresPerSecond == StreetTimedTransit.streetMetresPerSecond)
        for case let (end, street?) in asked {
            let seconds = Int(street.expectedTravelTime)
            if end.towardsStop { known.access[end.stop] = seconds } else { known.egress[end.stop] = seconds }
        }
        return known
    }
}
