@testable import Daemon
import Foundation
import Planner
import Store
import Streets
import TestSupport
import WireProtocol
import XCTest

/// The plan service's edit rules without a daemon (issue 27): an edit is prepared against the
/// plan as it was when it came in, but its change reads node numbers and bare clock times
/// against the plan it is applied to, the newest one (another edit may have come first).
final class PlanServiceRulesTests: XCTestCase {
    /// No engine is ever opened: these rules ask no routing.
    private struct NoEngine: LegEngine {
        func open(_ region: RegionManifest, directory: URL, counters: DaemonCounters) throws -> any RegionLegSource {
            throw DaemonError.noRegion
        }
    }

    private struct Clock: WallClock {
        func now() -> Date { Date(timeIntervalSince1970: 1_641_970_800) } // 2022-01-12 07:00 UTC
    }

    private var directory: URL!
    private var service: PlanService!
    /// The store behind `service`, where the tests put plans as they were before a request.
    private var store: Store!

    override func setUpWithError() throws {
        directory = try DaemonHarness.temporaryDirectory()
        let counters = DaemonCounters(), events = EventHub(), clock = Clock(), location = LocationState()
        let store = try Store(path: directory.appendingPathComponent("db.sqlite").path)
        self.store = store
        let regions = RegionRegistry(dataDirectory: directory, streets: NoEngine(), transit: NoEngine(), counters: counters,
                                     live: LiveFeedBoard(clock: clock))
        service = PlanService(planner: Planner(routing: RegionRouter(regions: regions, counters: counters), clock: clock),
                              plans: PlanRepository(store: store, counters: counters, events: events),
                              resolver: PlaceResolver(regions: regions, location: location) { _ in nil }, regions: regions,
                              location: location, input: WireInput(clock: clock),
                              typedPlaces: TypedPlaceHistory(regions: regions, clock: clock))
    }

    override func tearDown() {
        if let directory { try? FileManager.default.removeItem(at: directory) }
        super.tearDown()
    }

    private func plan(places: Int, leaving day: String) throws -> RoutePlan {
        let nodes = (0..<places).map { index in
            PlanNode(place: Place(name: "P\(index + 1)", coordinate: Coordinate(latitude: 61.45 + Double(index) * 0.01, longitude: 23.76)))
        }
        return try RoutePlan(nodes: nodes, modes: Array(repeating: .walk, count: places - 1),
                             timePreference: .departAt(try XCTUnwrap(WireTime.parse(day, timeZone: zone, now: Clock().now()))))
    }

    /// The zone the service reads the plan's times in (no region is imported: the machine's).
    private var zone: TimeZone { service.regions.timeZone(for: nil) }

    private func change(_ edit: any PlanEditRule, preparedOn asked: RoutePlan, appliedTo newest: RoutePlan) async throws -> RoutePlan {
        guard case .change(let change) = try await edit.prepare(on: asked, with: service).step else {
            XCTFail("\(edit.name) is a change")
            return newest
        }
        return try change(newest)
    }

    func testAStayUntilABareTimeFallsOnTheDayOfTheNewestPlanNotOfTheOneItWasAskedOn() async throws {
        let asked = try plan(places: 3, leaving: "2022-01-12T08:00")
        let newest = try plan(places: 3, leaving: "2022-01-13T08:00")  // another edit moved the plan a day on
        let changed = try await change(Params.PlanStay(id: 1, node: 2, until: "12:00"), preparedOn: asked, appliedTo: newest)
        XCTAssertEqual(changed.nodes[1].stay, .until(try XCTUnwrap(WireTime.parse("2022-01-13T12:00", timeZone: zone, now: Clock().now()))))
    }

    func testATimeEditsBareClockFallsOnTheDayOfTheNewestPlan() async throws {
        let asked = try plan(places: 2, leaving: "2022-01-12T08:00")
        let newest = try plan(places: 2, leaving: "2022-01-13T08:00")
        let changed = try await change(Params.PlanTime(id: 1, at: "09:30"), preparedOn: asked, appliedTo: newest)
        XCTAssertEqual(changed.timePreference, .departAt(try XCTUnwrap(WireTime.parse("2022-01-13T09:30", timeZone: zone, now: Clock().now()))))
    }

    func testAStayOnANodeTheNewestPlanNoLongerHasIsRefusedNamingTheNewestPlansNodes() async throws {
        let asked = try plan(places: 4, leaving: "2022-01-12T08:00")
        let newest = try plan(places: 2, leaving: "2022-01-12T08:00")  // another edit removed two places
        do {
            _ = try await change(Params.PlanStay(id: 1, node: 3, durationS: 600), preparedOn: asked, appliedTo: newest)
            XCTFail("a stay on node 3 of a plan of 2 places")
        } catch DaemonError.invalidParams(let message) {
            XCTAssertEqual(message, "node 3 does not exist: plan has nodes 1 to 2")
        }
    }

    func testAStayOnTheNodeOfItsNumberInTheNewestPlan() async throws {
        let asked = try plan(places: 3, leaving: "2022-01-12T08:00")
        var newest = try plan(places: 4, leaving: "2022-01-12T08:00")
        newest = try newest.settingStay(.duration(60), atNode: 1)
        let changed = try await change(Params.PlanStay(id: 1, node: 3, durationS: 600), preparedOn: asked, appliedTo: newest)
        XCTAssertEqual(changed.nodes.map(\.stay), [nil, .duration(60), .duration(600), nil], "the newest plan's node 3; node 2's stay kept")
    }

    /// Runs a prepared edit as `PlanService.edit` does, the legs computed (or the computation
    /// run) only once `gate` lets it: a held computation stands for the window before the
    /// computed write lands.
    private static func run(_ edit: any PlanEditRule, on service: PlanService, holding gate: PlanRepositoryTests.Gate) async throws -> PlanService.Outcome {
        try await service.plans.apply(to: edit.planID, policy: .edit) { current, _ in
            let prepared = try await edit.prepare(on: current, with: service)
            switch prepared.step {
            case .change(let change):
                return PlanChanges(change: change, title: prepared.title) { plan in
                    await gate.pass()
                    return try PlanRepositoryTests.withLeg(plan, seconds: 60)
                }
            case .compute(let computation):
                return PlanChanges(change: nil, title: prepared.title) { plan in
                    await gate.pass()
                    return try await computation(plan)
                }
            }
        }
    }

    /// An edit that comes in while a rename's computation runs reads the new title, and keeps it.
    func testARenameRacingAnotherEditKeepsItsTitle() async throws {
        let service = try XCTUnwrap(service)
        let id = try await store.write(Plans.create(try plan(places: 2, leaving: "2022-01-12T08:00"), title: "t"))
        let gate = PlanRepositoryTests.Gate()
        let renaming = Params.PlanRename(id: id, title: "Mine")
        let rename = Task.detached {
            try await PlanServiceRulesTests.run(renaming, on: service, holding: gate)
        }
        await gate.waitUntilEntered()
        let shown = try await service.plans.show(id: id)
        XCTAssertEqual(shown.title, "Mine", "shown with its title while its legs are computed")
        let other = try await service.plans.userEdit(id: id, change: { $0.settingPace(.fast) }) {
            try PlanRepositoryTests.withLeg($0, seconds: 60)
        }
        XCTAssertEqual(other.title, "Mine")
        await gate.release()
        let renamed = try await rename.value
        XCTAssertEqual(renamed.title, "Mine")
        XCTAssertEqual(renamed.plan.pace, .fast, "answered with the newest plan")
        let stored = try await store.read(Plans.load(id))
        XCTAssertEqual(stored.title, "Mine")
        XCTAssertEqual(stored.plan.pace, .fast)
    }

    /// A rename computes the legs another edit left empty (here a kill), so none stays empty
    /// and unmarked.
    func testARenameOfAPlanWithLegsPendingEndsWithItsLegsComputed() async throws {
        let service = try XCTUnwrap(service)
        let created = try plan(places: 2, leaving: "2022-01-12T08:00")
        let id = try await store.write(Plans.create(created, title: "t"))
        try await store.write(Plans.save(id: id, plan: created, title: "t", legsPending: true, generation: 2))
        let gate = PlanRepositoryTests.Gate()
        await gate.release()
        let renamed = try await Self.run(Params.PlanRename(id: id, title: "Mine"), on: service, holding: gate)
        XCTAssertNotNil(renamed.plan.legs[0])
        let stored = try await store.read(Plans.load(id))
        XCTAssertEqual(stored.title, "Mine")
        XCTAssertEqual(stored.generation, 3)
        XCTAssertNotNil(stored.plan.legs[0], "the empty leg was computed")
        let pending = try await store.read(Plans.withPendingLegs())
        XCTAssertEqual(pending, [])
    }
}
