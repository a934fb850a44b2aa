import Foundation
import Planner
import TestSupport
@testable import Transit
import XCTest

/// Arrive-by's forward pass runs inside the backward search's corridor (`Raptor.DeadlineCorridor`):
/// on the random feeds of the property tests it must find exactly the journeys an unbounded
/// forward search from the same departure finds, on the timetable alone and with a live
/// overlay (delayed and cancelled runs) and a stop mask (stops closed by an alert) as well.
extension RaptorPropertyTests {
    /// What one world's queries saw, summed over the worlds.
    struct CorridorCounts {
        var compared = 0, quicker = 0, chosenEarlier = 0, onTheEdge = 0
        /// Chosen journeys riding a live run; queries whose latest journeys the stop mask changes.
        var liveRides = 0, maskChanged = 0
    }

    func testArriveByForwardPassInTheDeadlineCorridorFindsWhatAnUnboundedSearchFinds() throws {
        let counts = try compareCorridorWithUnboundedSearches(seedOffset: 991) { _, _, _ in (nil, nil) }
        XCTAssertGreaterThan(counts.compared, 100)
        XCTAssertGreaterThan(counts.quicker, 10, "some forward passes find a quicker journey")
        XCTAssertGreaterThan(counts.chosenEarlier, 0, "some chosen journeys leave before the latest departure")
        XCTAssertGreaterThan(counts.onTheEdge, counts.compared / 2, "searched up to the deadline, the forward pass mostly finds journeys")
        print("RaptorDeadlineCorridorTests: \(counts.compared) arrive-by queries, \(counts.quicker) with a quicker journey, \(counts.chosenEarlier) chosen before the latest, \(counts.onTheEdge) with journeys up to the deadline")
    }

    /// A no-service alert reaches the engine as a stop mask, and live times as an overlay (the
    /// step-free view is a timetable of its own): the corridor the backward search leaves over them bounds the forward
    /// pass over the same, and must drop nothing that pass would find.
    func testTheDeadlineCorridorHoldsWithALiveOverlayAndAStopMask() throws {
        let counts = try compareCorridorWithUnboundedSearches(seedOffset: 4_099) { world, timetable, g in
            var updates: [RealtimeTripUpdate] = []
            for trip in world.trips.indices where Int.random(in: 0..<3, using: &g) == 0 {
                let descriptor = RealtimeTripDescriptor(tripID: "T\(trip)", startDate: "20220302",
                                                        relationship: Int.random(in: 0..<4, using: &g) == 0 ? .canceled : .scheduled)
                // A delay from the first call, growing or shrinking from the second on.
                let first = 60 * Int.random(in: -2...12, using: &g)
                let later = RealtimeStopTimeUpdate(stopSequence: 2, arrival: RealtimeStopTimeEvent(delay: first + 60 * Int.random(in: -1...5, using: &g)))
                updates.append(RealtimeTripUpdate(entityID: "E\(trip)", trip: descriptor, stopTimeUpdates: [later], delay: first))
            }
            let feed = RealtimeFeed(timestamp: nil, tripUpdates: updates)
            let (overlay, _) = RealtimeOverlay.build(timetable: timetable, index: RealtimeTripIndex(timetable: timetable), feeds: [feed],
                                                     now: Date(timeIntervalSince1970: Double(Self.day0 * 86_400 + 8 * 3600)))
            var mask = [UInt8](repeating: 0xFF, count: timetable.stops.count)
            for s in mask.indices where Int.random(in: 0..<6, using: &g) == 0 { mask[s] = 0 }
            return (overlay, mask)
        }
        XCTAssertGreaterThan(counts.compared, 100)
        XCTAssertGreaterThan(counts.quicker, 10, "some forward passes find a quicker journey")
        XCTAssertGreaterThan(counts.liveRides, 10, "some journeys ride a live run")
        XCTAssertGreaterThan(counts.maskChanged, 10, "the closed stops change some answers")
        XCTAssertGreaterThan(counts.onTheEdge, counts.compared / 3, "searched up to the deadline, the forward pass often finds journeys")
        print("RaptorDeadlineCorridorTests, live overlay and stop mask: \(counts.compared) arrive-by queries, \(counts.quicker) with a quicker journey, \(counts.liveRides) riding a live run, \(counts.maskChanged) changed by the mask, \(counts.onTheEdge) with journeys up to the deadline")
    }

    /// On 40 random worlds, 15 arrive-by queries each: the forward pass in the corridor against
    /// an unbounded depart-at search from the chosen departure, over what `live` gives the world
    /// (an overlay and a stop mask, or neither).
    func compareCorridorWithUnboundedSearches(
        seedOffset: UInt64, _ live: (World, Timetable, inout SeededRandom) -> (RealtimeOverlay?, [UInt8]?)) throws -> CorridorCounts {
        let fixture = try FeedFixture()
        var counts = CorridorCounts()
        for seed in UInt64(1)...40 {
            let world = makeWorld(seed: seed &* 0x9E37_79B9_7F4A_7C15)
            let (timetable, _) = try fixture.timetable(world.feed.files)
            var g = SeededRandom(seed: seed &+ seedOffset)
            let (overlay, stopMask) = live(world, timetable, &g)
            let timetableDays = Raptor.serviceDays(around: Self.day0, timetable: timetable)
            let days = overlay?.days(replacing: timetableDays) ?? timetableDays
            let engine = Raptor(timetable: timetable, paceMultiplier: 1)
            for query in 0..<15 {
                let (_, _, access, egress) = randomEnds(world, using: &g)
                var deadline = Self.day0 * 86_400 + 60 * Int.random(in: 6 * 60...25 * 60, using: &g)
                guard !access.isEmpty, !egress.isEmpty else { continue }
                // Every other query's deadline is a journey's own arrival: the journeys arriving just in
                // time then run along the corridor's edge (the backward search's own times).
                if query % 2 == 1, let arrival = engine.arriveBy(deadline, access: access, egress: egress, days: days, maxRides: 12,
                                                                   overlay: overlay, stopMask: stopMask).last?.arrival {
                    deadline = arrival
                }
                // A transfer penalty makes the chosen journey sometimes not the latest one.
                let choice = JourneyChoice(transferPenalty: [0, 600, 1800][query % 3])
                let maxRides = query % 2 == 0 ? 5 : 12
                let answer = engine.arriveBy(deadline, access: access, egress: egress, days: days, maxRides: maxRides,
                                             overlay: overlay, stopMask: stopMask) {
                    choice.best(among: $0, departAt: false)
                }
                XCTAssertEqual(answer.latest, engine.arriveBy(deadline, access: access, egress: egress, days: days, maxRides: maxRides,
                                                              overlay: overlay, stopMask: stopMask),
                               "seed \(seed) query \(query)")
                if stopMask != nil, answer.latest != engine.arriveBy(deadline, access: access, egress: egress, days: days,
                                                                     maxRides: maxRides, overlay: overlay) {
                    counts.maskChanged += 1
                }
                guard let chosen = answer.chosen else {
                    XCTAssertTrue(answer.latest.isEmpty, "seed \(seed) query \(query): a journey was found but none chosen")
                    continue
                }
                let unbounded = engine.departAt(chosen.departure, access: access, egress: egress, days: days,
                                                maxRides: maxRides, horizon: chosen.arrival - chosen.departure,
                                                overlay: overlay, stopMask: stopMask)
                XCTAssertEqual(answer.earliest, unbounded, "seed \(seed) query \(query) deadline \(deadline)")
                // With the margin the router asks for (`RideMargin`: each ride more must arrive the
                // penalty sooner), the journey taken is the same.
                let pruned = engine.arriveBy(deadline, access: access, egress: egress, days: days, maxRides: maxRides,
                                             overlay: overlay, stopMask: stopMask, moreRidesArrivingSoonerBy: choice.transferPenalty) {
                    choice.best(among: $0, departAt: false)
                }
                XCTAssertEqual(choice.earliestArrival(among: [chosen] + pruned.earliest), choice.earliestArrival(among: [chosen] + unbounded),
                               "seed \(seed) query \(query) with the margin")
                counts.compared += 1
                if !unbounded.isEmpty { counts.quicker += 1 }
                if chosen.rides.contains(where: { $0.scheduledDeparture != nil }) { counts.liveRides += 1 }

                // Searching up to the deadline itself, the journeys arriving just in time run along the
                // corridor's edge (the backward search's own times): they must be found all the same.
                let edge = engine.arriveBy(deadline, access: access, egress: egress, days: days, maxRides: maxRides,
                                           overlay: overlay, stopMask: stopMask) {
                    guard var widened = choice.best(among: $0, departAt: false) else { return nil }
                    widened.arrival = deadline + 1
                    widened.rides = Array(repeating: widened.rides[0], count: maxRides)
                    return widened
                }
                let edgeUnbounded = engine.departAt(chosen.departure, access: access, egress: egress, days: days,
                                                    maxRides: maxRides, horizon: deadline + 1 - chosen.departure,
                                                    overlay: overlay, stopMask: stopMask)
                XCTAssertEqual(edge.earliest, edgeUnbounded, "seed \(seed) query \(query) deadline \(deadline), up to the deadline")
                if !edgeUnbounded.isEmpty { counts.onTheEdge += 1 }
                if let latest = answer.latest.last?.departure, chosen.departure < latest { counts.chosenEarlier += 1 }
            }
        }
        return counts
    }
}
