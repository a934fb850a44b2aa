import Foundation
import Planner
import SQLite
@testable import Store
import TestSupport
import XCTest

final class PlanStorageTests: XCTestCase {
    var directory: TemporaryDirectory!
    var clock: TestClock!
    var store: Store!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory("plans")
        clock = TestClock()
        store = try Store(path: directory.path("usefulmap.sqlite"), clock: clock)
    }

    override func tearDown() {
        store = nil
        directory.remove()
    }

    func testTwoHundredSeededRandomPlansRoundTripFieldByField() throws {
        var random = SeededRandom(seed: 20260112)
        var saved: [(id: Int64, plan: RoutePlan, title: String)] = []
        for index in 0..<200 {
            let plan = RandomPlans.plan(&random)
            let title = "plan \(index) \(RandomPlans.text(&random))"
            saved.append((try store.write(Plans.create(plan, title: title)), plan, title))
        }
        for (index, entry) in saved.enumerated() {
            let loaded = try store.read(Plans.load(entry.id))
            XCTAssertEqual(loaded.title, entry.title)
            RandomPlans.assertEqual(loaded.plan, entry.plan, "plan \(index) (seed 20260112)")
        }
    }

    func testReopeningTheFileGivesBackTheSamePlans() throws {
        var random = SeededRandom(seed: 7)
        let plans = (0..<20).map { _ in RandomPlans.plan(&random) }
        let ids = try plans.map { try store.write(Plans.create($0, title: "t")) }
        store = nil
        let reopened = try Store(path: directory.path("usefulmap.sqlite"))
        for (id, plan) in zip(ids, plans) {
            RandomPlans.assertEqual(try reopened.read(Plans.load(id)).plan, plan, "plan \(id) after reopening")
        }
    }

    func testSavingReplacesTheWholePlanIncludingRemovedNodesLocksAndPendingUpdates() throws {
        var random = SeededRandom(seed: 99)
        let big = RandomPlans.plan(&random, nodeCount: 10...12)
        let id = try store.write(Plans.create(big, title: "before"))
        clock.advance(60)
        let small = try RoutePlan(nodes: Array(big.nodes.prefix(2)), modes: [.walk])
        try store.write(Plans.save(id: id, plan: small, title: "after", generation: 2))
        let loaded = try store.read(Plans.load(id))
        XCTAssertEqual(loaded.title, "after")
        RandomPlans.assertEqual(loaded.plan, small, "after shrinking")
        XCTAssertEqual(loaded.updatedAt.timeIntervalSince(loaded.createdAt), 60)
    }

    /// An edit and the places typed into it are one write: a search that cannot be stored keeps
    /// the edit out too (a failed request changes nothing).
    func testAnEditAndItsTypedPlacesAreStoredTogetherOrNotAtAll() throws {
        var random = SeededRandom(seed: 5)
        let plan = RandomPlans.plan(&random, nodeCount: 3...3)
        let id = try store.write(Plans.create(plan, title: "before"))
        let edited = try RoutePlan(nodes: Array(plan.nodes.prefix(2)), modes: [.walk])
        let typed = SearchHistoryEntry(query: "Ratina", place: plan.nodes[0].place, date: clock.now())
        let refused = SearchHistoryEntry(query: "https://www.google.com/maps/dir/A/B", place: nil, date: clock.now())
        XCTAssertThrowsError(try store.write(Plans.save(id: id, plan: edited, title: "after", generation: 2, searches: [typed, refused])))
        XCTAssertEqual(try store.read(Plans.load(id)).title, "before")
        RandomPlans.assertEqual(try store.read(Plans.load(id)).plan, plan, "the edit was not stored")
        XCTAssertEqual(try store.read(History.searches()), [])
        try store.write(Plans.save(id: id, plan: edited, title: "after", generation: 2, searches: [typed]))
        XCTAssertEqual(try store.read(Plans.load(id)).title, "after")
        XCTAssertEqual(try store.read(History.searches()).map(\.query), ["Ratina"])
    }

    func testListShowsTitleEndsTotalAndNewestUpdateFirst() throws {
        let a = Place(name: "Keskustori", coordinate: Coordinate(latitude: 61.4978, longitude: 23.7610))
        let b = Place(name: "Hervanta", coordinate: Coordinate(latitude: 61.4500, longitude: 23.8500))
        let c = Place(name: "Ratina", coordinate: Coordinate(latitude: 61.4900, longitude: 23.7650))
        let start = Date(timeIntervalSinceReferenceDate: 663_000_000)
        let walk = RouteLeg(mode: .walk, expectedTravelTime: 300, departure: start, arrival: start + 300)
        let bus = RouteLeg(mode: .transit, expectedTravelTime: 900, departure: start + 600, arrival: start + 1500)
        let computed = try RoutePlan(restoring: [PlanNode(place: a), PlanNode(place: c), PlanNode(place: b)],
                                     modes: [.walk, .transit], legs: [walk, bus], timePreference: .leaveNow,
                                     pace: .normal, locks: [:], pinned: nil, pending: [:])
        let uncomputed = try RoutePlan(nodes: [PlanNode(place: b), PlanNode(place: a)], modes: [.car])
        let first = try store.write(Plans.create(computed, title: "To Hervanta"))
        clock.advance(10)
        let second = try store.write(Plans.create(uncomputed, title: "Back"))
        XCTAssertEqual(try store.read(Plans.list()).map(\.id), [second, first])
        let summary = try XCTUnwrap(try store.read(Plans.list()).last)
        XCTAssertEqual(summary.title, "To Hervanta")
        XCTAssertEqual(summary.fromName, "Keskustori")
        XCTAssertEqual(summary.toName, "Hervanta")
        XCTAssertEqual(summary.totalTravelTime, 1500, "first departure to last arrival, waiting included")
        XCTAssertNil(try store.read(Plans.list()).first?.totalTravelTime, "no total until every segment has a leg")
        clock.advance(10)
        try store.write(Plans.save(id: first, plan: computed, title: "To Hervanta", generation: 2))
        XCTAssertEqual(try store.read(Plans.list()).map(\.id), [first, second], "saving moves a plan to the top")
    }

    /// A ride of headway-based service keeps its headway through storage; a plan stored before
    /// headways were (a version 2 rides blob) still loads, its rides without one.
    func testPlanWithAHeadwayRideRoundTripsAndAnOlderPlanLoadsWithNoHeadway() throws {
        let start = Date(timeIntervalSinceReferenceDate: 663_660_000)
        func call(_ name: String, _ latitude: Double, _ time: Date) -> TransitStopCall {
            TransitStopCall(stopID: name, name: name, coordinate: Coordinate(latitude: latitude, longitude: 23.76), time: time)
        }
        let rides = [TransitRide(lineName: "7", vehicle: "bus", headsign: "Hervanta", tripID: "F@08:10:00", headwaySeconds: 600,
                                 boarding: call("A", 61.49, start), alighting: call("B", 61.50, start + 420)),
                     TransitRide(lineName: "3", vehicle: "tram", tripID: "T3",
                                 boarding: call("B", 61.50, start + 600), alighting: call("C", 61.51, start + 900))]
        let leg = RouteLeg(mode: .transit, expectedTravelTime: 900, distance: 2_000, departure: start,
                           arrival: start + 900, rides: rides)
        let places = [Place(name: "a", coordinate: Coordinate(latitude: 61.49, longitude: 23.76)),
                      Place(name: "c", coordinate: Coordinate(latitude: 61.51, longitude: 23.76))]
        let plan = try RoutePlan(restoring: places.map { PlanNode(place: $0) }, modes: [.transit], legs: [leg],
                                 timePreference: .departAt(start), pace: .normal, locks: [:], pinned: nil, pending: [:])
        let id = try store.write(Plans.create(plan, title: "headway"))
        let loaded = try store.read(Plans.load(id)).plan
        XCTAssertEqual(loaded.legs.first??.rides.map(\.headwaySeconds), [600, nil])
        RandomPlans.assertEqual(loaded, plan, "headway plan")

        var older = BlobWriter(kind: .rides, version: 2)
        older.rides(rides)
        older.walks([], walkingIsNoSlower: false)
        let db = try Database(path: directory.path("usefulmap.sqlite"))
        try db.execute("UPDATE plan_segment SET leg_rides = ? WHERE plan_id = ?", [.blob(older.bytes), .integer(id)])
        let old = try store.read(Plans.load(id)).plan
        XCTAssertEqual(old.legs.first??.rides.map(\.headwaySeconds), [nil, nil])
        XCTAssertEqual(old.legs.first??.rides.map(\.tripID), ["F@08:10:00", "T3"])
        XCTAssertEqual(old.legs.first??.rides.map(\.boarding), rides.map(\.boarding))
    }

    func testADismissedProposalIsKeptThroughStorage() throws {
        let start = Date(timeIntervalSinceReferenceDate: 663_660_000)
        let places = [Place(name: "a", coordinate: Coordinate(latitude: 61.49, longitude: 23.76)),
                      Place(name: "c", coordinate: Coordinate(latitude: 61.51, longitude: 23.76))]
        let key = SegmentKey(fromID: places[0].id, toID: places[1].id)
        let dismissed = RouteLeg(mode: .transit, expectedTravelTime: 900, departure: start + 1_800, arrival: start + 2_700)
        let plan = try RoutePlan(restoring: places.map { PlanNode(place: $0) }, modes: [.transit], legs: [nil],
                                 timePreference: .departAt(start), pace: .normal, locks: [:],
                                 pinned: PinnedDeparture(segment: key, departure: start, duration: 900), pending: [:],
                                 dismissed: [key: dismissed])
        let id = try store.write(Plans.create(plan, title: "dismissed"))
        XCTAssertEqual(try store.read(Plans.load(id)).plan.dismissed, [key: dismissed])
        try store.write(Plans.delete(id))
        let db = try Database(path: directory.path("usefulmap.sqlite"))
        XCTAssertEqual(try db.scalar("SELECT count(*) FROM plan_dismissed_update"), .integer(0))
    }

    func testAvoidedStopsOfALockAreKeptThroughStorage() throws {
        let places = [Place(name: "a", coordinate: Coordinate(latitude: 61.49, longitude: 23.76)),
                      Place(name: "c", coordinate: Coordinate(latitude: 61.51, longitude: 23.76))]
        let key = SegmentKey(fromID: places[0].id, toID: places[1].id)
        let avoided = [Coordinate(latitude: 61.4978123, longitude: 23.7610456)]
        let plan = try RoutePlan(restoring: places.map { PlanNode(place: $0) }, modes: [.transit], legs: [nil],
                                 timePreference: .leaveNow, pace: .normal,
                                 locks: [key: SegmentLock(mode: .transit, avoidedStops: avoided)], pinned: nil, pending: [:])
        let id = try store.write(Plans.create(plan, title: "avoiding"))
        XCTAssertEqual(try store.read(Plans.load(id)).plan.locks[key]?.avoidedStops, avoided)
    }

    func testAPlanWithAPinOnEachOfTwoSegmentsKeepsBothThroughStorage() throws {
        let start = Date(timeIntervalSinceReferenceDate: 663_660_000)
        let places = ["a", "b", "c"].enumerated().map { index, name in
            Place(name: name, coordinate: Coordinate(latitude: 61.49 + Double(index) * 0.01, longitude: 23.76))
        }
        let first = SegmentKey(fromID: places[0].id, toID: places[1].id), second = SegmentKey(fromID: places[1].id, toID: places[2].id)
        let pins = [PinnedDeparture(segment: first, departure: start, duration: 600, tripIDs: ["m"]),
                    PinnedDeparture(segment: second, departure: start + 30_000, duration: 900, tripIDs: ["e"])]
        let plan = try RoutePlan(restoring: places.map { PlanNode(place: $0) }, modes: [.transit, .transit], legs: [nil, nil],
                                 timePreference: .departAt(start), pace: .normal, locks: [:], pins: pins, pending: [:])
        let id = try store.write(Plans.create(plan, title: "two pins"))
        XCTAssertEqual(try store.read(Plans.load(id)).plan.pins, [first: pins[0], second: pins[1]])
    }

    func testDecisionsOnTheSecondSegmentBetweenTheSamePlacesStayOnItThroughStorage() throws {
        let start = Date(timeIntervalSinceReferenceDate: 663_660_000)
        let a = Place(name: "a", coordinate: Coordinate(latitude: 61.49, longitude: 23.76))
        let b = Place(name: "b", coordinate: Coordinate(latitude: 61.51, longitude: 23.76))
        let first = SegmentKey(fromID: a.id, toID: b.id, occurrence: 0)
        let second = SegmentKey(fromID: a.id, toID: b.id, occurrence: 1)
        let ride = RouteLeg(mode: .transit, expectedTravelTime: 900, departure: start + 3_600, arrival: start + 4_500)
        let later = RouteLeg(mode: .transit, expectedTravelTime: 900, departure: start + 4_200, arrival: start + 5_100)
        let plan = try RoutePlan(restoring: [a, b, a, b].map { PlanNode(place: $0) }, modes: [.car, .transit, .transit],
                                 legs: [nil, nil, ride], timePreference: .departAt(start), pace: .normal,
                                 locks: [first: SegmentLock(mode: .car), second: SegmentLock(mode: .transit, departure: start + 3_600, duration: 900)],
                                 pins: [PinnedDeparture(segment: second, departure: start + 3_600, duration: 900, tripIDs: ["t"], leg: ride)],
                                 pending: [second: PendingSegmentUpdate(segment: second, selected: ride, proposal: .ride(later))],
                                 dismissed: [second: later])
        let id = try store.write(Plans.create(plan, title: "there and back and there"))
        let loaded = try store.read(Plans.load(id)).plan
        RandomPlans.assertEqual(loaded, plan, "two segments from a to b")
        XCTAssertEqual(loaded.pinnedSegmentIndices, [2])
        XCTAssertEqual(loaded.lock(ofSegment: 0), SegmentLock(mode: .car))
        XCTAssertEqual(loaded.dismissed, [second: later])
    }

    /// Issue 39: a missed pin with nothing later to catch gets the answer "no later ride", stored
    /// where a proposal's leg would be (an `N` blob), and it reads back as that answer.
    func testTheAnswerThatNoRideCanBeCaughtIsStoredWithThePlan() throws {
        let start = Date(timeIntervalSinceReferenceDate: 663_660_000)
        let a = Place(name: "a", coordinate: Coordinate(latitude: 61.49, longitude: 23.76))
        let b = Place(name: "b", coordinate: Coordinate(latitude: 61.51, longitude: 23.76))
        let key = SegmentKey(fromID: a.id, toID: b.id)
        let ride = RouteLeg(mode: .transit, expectedTravelTime: 900, departure: start + 3_600, arrival: start + 4_500)
        for answer in [NoCatchableRide(arrivingBy: false, time: start + 4_000), NoCatchableRide(arrivingBy: true, time: start + 4_400)] {
            let plan = try RoutePlan(restoring: [a, b].map { PlanNode(place: $0) }, modes: [.transit], legs: [ride],
                                     timePreference: .departAt(start), pace: .normal, locks: [:],
                                     pins: [PinnedDeparture(segment: key, departure: start + 3_600, duration: 900, leg: ride)],
                                     pending: [key: PendingSegmentUpdate(segment: key, selected: ride, proposal: .nothingCatchable(answer))])
            let id = try store.write(Plans.create(plan, title: "last bus gone"))
            let loaded = try store.read(Plans.load(id)).plan
            XCTAssertEqual(loaded.pending[key], PendingSegmentUpdate(segment: key, selected: ride, proposal: .nothingCatchable(answer)))
            XCTAssertNil(loaded.pending[key]?.latest)
        }
    }

    func testDeletingAPlanRemovesAllItsRows() throws {
        var random = SeededRandom(seed: 3)
        let id = try store.write(Plans.create(RandomPlans.plan(&random), title: "gone"))
        try store.write(Plans.delete(id))
        XCTAssertThrowsError(try store.read(Plans.load(id))) { XCTAssertEqual(($0 as? StoreError)?.code, "not_found") }
        XCTAssertEqual(try store.read(Plans.list()), [])
        let db = try Database(path: directory.path("usefulmap.sqlite"))
        for table in ["plan_node", "plan_segment", "plan_lock", "plan_pinned_departure", "plan_pending_update"] {
            XCTAssertEqual(try db.scalar("SELECT count(*) FROM \(table)"), .integer(0), table)
        }
    }

    func testMissingPlanIsNotFoundForLoadSaveAndDelete() throws {
        let plan = try RoutePlan(nodes: [PlanNode(place: Place(name: "a", coordinate: Coordinate(latitude: 1, longitude: 2))),
                                         PlanNode(place: Place(name: "b", coordinate: Coordinate(latitude: 1, longitude: 3)))],
                                 modes: [.walk])
        for action in [{ _ = try self.store.read(Plans.load(42)) }, { try self.store.write(Plans.save(id: 42, plan: plan, title: "x", generation: 2)) },
                       { try self.store.write(Plans.delete(42)) }] {
            XCTAssertThrowsError(try action()) { XCTAssertEqual(($0 as? StoreError)?.code, "not_found") }
        }
        XCTAssertEqual(try store.read(Plans.list()), [], "a failed save created nothing")
    }

    func testPlanWithNaNTravelTimeIsRefusedAndNothingIsStored() throws {
        let ends = [PlanNode(place: Place(name: "a", coordinate: Coordinate(latitude: 1, longitude: 2))),
                    PlanNode(place: Place(name: "b", coordinate: Coordinate(latitude: 1, longitude: 3)))]
        let plan = try RoutePlan(restoring: ends, modes: [.walk], legs: [RouteLeg(mode: .walk, expectedTravelTime: .nan)],
                                 timePreference: .leaveNow, pace: .normal, locks: [:], pinned: nil, pending: [:])
        XCTAssertThrowsError(try store.write(Plans.create(plan, title: "nan"))) { error in
            XCTAssertEqual((error as? StoreError)?.code, "invalid_input")
            XCTAssertTrue("\(error)".contains("segment 0 leg travel time"), "\(error)")
        }
        XCTAssertEqual(try store.read(Plans.list()), [])
    }

    func testPlanTitleThatIsAGoogleMapsLinkIsNeverStored() throws {
        var random = SeededRandom(seed: 5)
        let plan = RandomPlans.plan(&random)
        XCTAssertThrowsError(try store.write(Plans.create(plan, title: "https://www.google.com/maps/dir/a/b/data=x"))) {
            XCTAssertEqual(($0 as? StoreError)?.code, "invalid_input")
        }
        XCTAssertThrowsError(try store.write(Plans.create(plan, title: "  "))) {
            XCTAssertEqual(($0 as? StoreError)?.code, "invalid_input")
        }
        XCTAssertEqual(try store.read(Plans.list()), [])
    }
}
