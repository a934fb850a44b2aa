import Foundation
import Planner
import TestSupport
@testable import Transit
import XCTest

/// Issue 39, "no walk-back to a farther stop of the same trip": for random pairs of places in
/// Tampere at random morning times (depart-at and arrive-by), and after inserting a random place
/// into each plan, no ride is boarded at a stop the planner inferred when another stop of the
/// same trip, before where it alights, is preferred and caught in time; nor left at one when
/// another of the same trip, after where it boards, is preferred and gets the traveller there in
/// time. Preferred: where the traveller is free across the walk, the stop they leave latest for
/// (get there earliest from), departures within a minute (arrivals in one shown minute) counting
/// as one and then the shorter walk;
/// else the shorter walk. Only stops within the ride's reach of the traveller's place count
/// (`TravellerEnds.reaches`): a search from the door never sees the others.
///
/// The planner runs in process on the real Nysse timetable (RAPTOR), its walks timed as the
/// engine times its own access walks (a stretched straight line), so the two agree to the second.
final class TripsNearestStopsPropertyTests: XCTestCase {
    static let pairs = 80
    /// 2022-01-12 07:00 in Tampere.
    static let dayStart = Date(timeIntervalSince1970: 1_641_963_600)

    /// The minute an instant is shown in, from the epoch.
    static func minute(_ date: Date) -> Int { Int((date.timeIntervalSince1970 / 60).rounded(.down)) }

    static let imported: Result<TransitRouter, Error> = Result {
        let zip = tampereDirectory().appendingPathComponent("tampere.zip")
        let temporary = try TemporaryDirectory("trips-nearest-stops")
        defer { temporary.remove() }
        let region = temporary.url.appendingPathComponent("region")
        _ = try GTFSImporter().importFeeds([zip], intoRegionDirectory: region)
        return try TransitRouter(regionDirectory: region)
    }

    /// Transit from the timetable, walks (and the rest) as the engine's straight-line estimate.
    struct TimetablePort: RoutingPort {
        let router: TransitRouter

        static func walkSeconds(_ from: Coordinate, _ to: Coordinate, pace: WalkingPace) -> TimeInterval {
            (StraightLineWalking().walkingSeconds(from: from, to: to, pace: pace) ?? .infinity).rounded()
        }

        func leg(for query: LegQuery) async throws -> RouteLeg {
            let metres = query.from.coordinate.distance(to: query.to.coordinate)
            switch query.mode {
            case .transit:
                return try router.leg(from: query.from.coordinate, to: query.to.coordinate, timing: query.timing, pace: query.pace,
                                      avoiding: query.avoiding, access: query.access).best
            case .walk:
                return RouteLeg(mode: .walk, expectedTravelTime: Self.walkSeconds(query.from.coordinate, query.to.coordinate, pace: query.pace),
                                distance: metres * StraightLineWalking().detourFactor)
            case .car:
                return RouteLeg(mode: .car, expectedTravelTime: (metres / 500 * 60 + 240).rounded(), distance: metres)
            case .bike:
                return RouteLeg(mode: .bike, expectedTravelTime: (metres / 250 * 60).rounded(), distance: metres)
            }
        }

        func alternatives(for query: LegQuery, count: Int) async throws -> [RouteLeg] { [try await leg(for: query)] }

        func nearbyStops(around coordinate: Coordinate, radius: Double, limit: Int) async throws -> [Place] {
            router.nearbyStops(around: coordinate, radius: radius, limit: limit)
                .map { Place(name: $0.name, coordinate: $0.coordinate, kind: .transitStop) }
        }

        func search(_ text: String, near: Coordinate?) async throws -> [Place] { [] }

        func calls(ofTripOf ride: TransitRide) async -> [TripCall] { router.calls(ofTripOf: ride) }
    }

    struct FixedClock: WallClock {
        func now() -> Date { TripsNearestStopsPropertyTests.dayStart }
    }

    /// A point in central Tampere or Hervanta.
    static func randomPlace(_ random: inout SeededRandom, _ name: String) -> Place {
        let hervanta = Bool.random(using: &random) && Bool.random(using: &random)
        let latitude = hervanta ? Double.random(in: 61.445...61.455, using: &random) : Double.random(in: 61.485...61.505, using: &random)
        let longitude = hervanta ? Double.random(in: 23.835...23.865, using: &random) : Double.random(in: 23.72...23.80, using: &random)
        return Place(name: name, coordinate: Coordinate(latitude: latitude, longitude: longitude))
    }

    func testNoRideIsBoardedOrLeftAtAFartherStopOfItsTripThanOneTheTravellerCatches() async throws {
        let zip = tampereDirectory().appendingPathComponent("tampere.zip")
        try XCTSkipUnless(FileManager.default.fileExists(atPath: zip.path), "shared Tampere data not found at \(zip.path)")
        let router = try Self.imported.get()
        let planner = Planner(routing: TimetablePort(router: router), clock: FixedClock())
        var random = SeededRandom(seed: 39)
        var checked = 0, edits = 0
        for pair in 0..<Self.pairs {
            let from = Self.randomPlace(&random, "from \(pair)"), to = Self.randomPlace(&random, "to \(pair)")
            let at = Self.dayStart.addingTimeInterval(Double(Int.random(in: 0...10_800, using: &random)))
            let timing: TimePreference = pair % 2 == 0 ? .departAt(at) : .arriveBy(at.addingTimeInterval(3_600))
            guard from.coordinate.distance(to: to.coordinate) > 1_000,
                  var plan = try? await planner.buildPlan(from: from, to: to, preset: .transit, timePreference: timing, pace: .normal)
            else { continue }
            var history = "pair \(pair): \(from.coordinate) → \(to.coordinate), \(timing)"
            checked += check(plan, timing: timing, router: router, context: history)
            // Then the edits that put places next to the planner's stops, as the daemon makes them.
            for step in 0..<3 {
                let place = Self.randomPlace(&random, "place \(pair).\(step)")
                let node = Int.random(in: 1..<plan.nodes.count, using: &random)
                let edited: RoutePlan?
                switch Int.random(in: 0..<3, using: &random) {
                case 0:
                    history += ", insert \(place.coordinate) at \(node)"
                    edited = try? plan.insertingNode(PlanNode(place: place), at: node, stopsAround: try await planner.accessStops(around: place))
                case 1:
                    history += ", move \(node) to \(place.coordinate)"
                    edited = try? plan.movingNode(at: node, to: place, stopsAround: try await planner.accessStops(around: place),
                                                  hops: try await planner.movedHops(node, to: place, in: plan))
                default:
                    history += ", remove \(node)"
                    edited = try? plan.removingNode(at: node, stopsAround: await planner.accessStops(aroundNeighboursOf: node, in: plan))
                }
                guard let edited else { continue }
                plan = try await planner.computeLegs(edited)
                edits += 1
                checked += check(plan, timing: timing, router: router, context: history)
            }
        }
        XCTAssertGreaterThan(edits, Self.pairs, "most edits apply")
        XCTAssertGreaterThan(checked, Self.pairs, "most plans ride from and to stops the planner inferred")
    }

    /// Checks every ride the rule applies to (docs/planner.md, "No walk to a farther stop of the
    /// same trip"); the number of stops checked. `timing` is the plan's: going forward the
    /// traveller is at the place before a ride when the legs before it get them there (checked
    /// when that is the origin, where they are free until the walk starts, or a place after one
    /// leg); timed back they leave the place before it freely and must be at the place after it
    /// by the plan's arrival (checked when it is the destination, where they are free after).
    func check(_ plan: RoutePlan, timing: TimePreference, router: TransitRouter, context: String) -> Int {
        var checked = 0
        let forward: Bool = if case .departAt = timing { true } else { false }
        func isCall(_ call: TripCall, _ stop: TransitStopCall, boarding: Bool) -> Bool {
            call.stopID == stop.stopID && (boarding ? call.departure : call.arrival) == stop.time
        }
        func theirs(_ node: Int, _ walk: Int) -> Bool {
            plan.nodes[node].isInferred && plan.modes[walk] == .walk && !plan.isPinned(segment: walk) && plan.legs[walk] != nil
        }
        /// When the traveller can first be at node `node` going forward.
        func earliest(at node: Int) -> Date? {
            guard case .departAt(let start) = timing else { return nil }
            if node == 0 { return start }
            guard node == 1, let leg = plan.legs[0] else { return nil }
            return leg.mode == .transit ? leg.arrival : start.addingTimeInterval(leg.expectedTravelTime)
        }
        /// Fails when one of `others` (a call, its walk and how much later it is for the traveller
        /// than the stop chosen, nil where the shorter walk alone counts) is preferred to the
        /// chosen stop, walked in `walked`; latenesses within `equalWithin` count as one
        /// (departures within a minute; arrivals are read to the shown minute, 0).
        func assertNoneBetter(_ others: [(call: TripCall, walk: TimeInterval, lateness: TimeInterval?)], walked: TimeInterval,
                              equalWithin: TimeInterval = 60, _ message: (TripCall, TimeInterval) -> String) {
            let latest = others.compactMap(\.lateness).max().map { max($0, 0) } ?? 0
            for other in others {
                // The chosen stop (lateness 0) is out of the latest minute, or one in it is a shorter walk.
                let preferred = other.lateness.map { $0 >= latest - equalWithin && (latest > equalWithin || other.walk < walked) }
                    ?? (other.walk < walked)
                XCTAssertFalse(preferred, message(other.call, other.walk))
            }
        }
        /// Whether a ride asked from (to) node `node` boards (alights) at `call` for a traveller at
        /// `place`: the ride's reach (`PlannerConfiguration.rideReachRadius`) counts from the place.
        func reached(_ call: TripCall, from node: Int, _ place: Place) -> Bool {
            TravellerEnds.reaches(call.coordinate, askedFrom: plan.nodes[node].place.coordinate, place: place.coordinate,
                                  radius: PlannerConfiguration().rideReachRadius)
        }
        for index in 0..<plan.segmentCount where plan.modes[index] == .transit && !plan.isPinned(segment: index) {
            guard let leg = plan.legs[index], let first = leg.rides.first, let last = leg.rides.last else { continue }
            if index > 0, theirs(index, index - 1), let walk = plan.legs[index - 1], !leg.walks.contains(where: { $0.kind == .access && $0.distance > 0 }),
               !forward || earliest(at: index - 1) != nil {
                let place = plan.nodes[index - 1].place
                let calls = router.calls(ofTripOf: first)
                let walked = walk.expectedTravelTime
                // Free before the walk (the origin going forward, any place timed back): leaving latest.
                let free = !forward || index - 1 == 0
                let leaving = first.boarding.time.addingTimeInterval(-walked)
                if let board = calls.firstIndex(where: { isCall($0, first.boarding, boarding: true) }),
                   let alight = calls[(board + 1)...].firstIndex(where: { isCall($0, first.alighting, boarding: false) }) {
                    checked += 1
                    let others = (0..<alight).filter { $0 != board && calls[$0].canBoard && reached(calls[$0], from: index, place) }.map { position in
                        let other = TimetablePort.walkSeconds(place.coordinate, calls[position].coordinate, pace: plan.pace)
                        let later = calls[position].departure.addingTimeInterval(-other).timeIntervalSince(leaving)
                        return (call: calls[position], walk: other, lateness: free ? later : nil)
                    }.filter { other in earliest(at: index - 1).map { $0.addingTimeInterval(other.walk) <= other.call.departure } ?? true }
                    assertNoneBetter(others, walked: walked) { call, other in
                        "boards \(first.vehicle) \(first.lineName) at \(first.boarding.name) \(first.boarding.time) (walk "
                            + "\(Int(walked)) s, leaving \(leaving)) where its trip stops at \(call.name) \(call.departure) "
                            + "(walk \(Int(other)) s), caught: \(context)"
                    }
                } else {
                    XCTFail("ride \(first.tripID ?? "?") from \(first.boarding.name) is not in its trip's calls: \(context)")
                }
            }
            if index + 2 < plan.nodes.count, theirs(index + 1, index + 1), let walk = plan.legs[index + 1],
               !leg.walks.contains(where: { $0.kind == .egress && $0.distance > 0 }), forward || index + 2 == plan.nodes.count - 1 {
                let place = plan.nodes[index + 2].place
                let calls = router.calls(ofTripOf: last)
                let walked = walk.expectedTravelTime
                // Free after the walk (any place going forward, the destination timed back): there earliest.
                let there = last.alighting.time.addingTimeInterval(walked)
                let deadline: Date? = if case .arriveBy(let deadline) = timing { deadline } else { nil }
                if let board = calls.firstIndex(where: { isCall($0, last.boarding, boarding: true) }),
                   let alight = calls[(board + 1)...].firstIndex(where: { isCall($0, last.alighting, boarding: false) }) {
                    checked += 1
                    let others = ((board + 1)..<calls.count).filter { $0 != alight && calls[$0].canAlight && reached(calls[$0], from: index + 1, place) }
                        .map { position in
                        let other = TimetablePort.walkSeconds(calls[position].coordinate, place.coordinate, pace: plan.pace)
                        // How much earlier they are there, as shown: arrivals in one shown minute are one.
                        let earlier = 60 * (Self.minute(there) - Self.minute(calls[position].arrival.addingTimeInterval(other)))
                        return (call: calls[position], walk: other, lateness: Optional(TimeInterval(earlier)))
                    }.filter { other in deadline.map { other.call.arrival.addingTimeInterval(other.walk) <= $0 } ?? true }
                    assertNoneBetter(others, walked: walked, equalWithin: 0) { call, other in
                        "leaves \(last.vehicle) \(last.lineName) at \(last.alighting.name) \(last.alighting.time) (walk "
                            + "\(Int(walked)) s, there \(there)) where its trip stops at \(call.name) \(call.arrival) "
                            + "(walk \(Int(other)) s), in time: \(context)"
                    }
                } else {
                    XCTFail("ride \(last.tripID ?? "?") to \(last.alighting.name) is not in its trip's calls: \(context)")
                }
            }
        }
        return checked
    }
}
