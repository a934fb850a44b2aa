@testable import Daemon
import Foundation
import Planner
import Store
import Streets
import Synchronization
import TestSupport
import Transit
import WireProtocol
import XCTest

/// The background refresh gives way to a user's edit as the daemon wires them (issue 27, review):
/// `PlanService.edit` marks the plan busy from its first read, through its slow preparation, and
/// `PlanRefreshJob.run` waits for it, then refreshes the plan as the user left it.
final class BackgroundRefreshWaitsForServiceEditsTests: XCTestCase {
    /// Every leg takes a minute: enough for a refresh to store its answer.
    private struct MinuteLegs: LegEngine, RegionLegSource {
        func open(_ region: RegionManifest, directory: URL, counters: DaemonCounters) throws -> any RegionLegSource { self }
        func leg(for query: LegQuery) async throws -> RouteLeg { RouteLeg(mode: query.mode, expectedTravelTime: 60) }
        func alternatives(for query: LegQuery, count: Int) async throws -> [RouteLeg] { [try await leg(for: query)] }
        func close() {}
        func liveLeg(_ leg: RouteLeg) -> RouteLeg { leg }
        func applyRealtime(_ feeds: [RealtimeFeed], now: Date) -> RealtimeApplyReport? { nil }
    }

    private struct Clock: WallClock {
        func now() -> Date { Date(timeIntervalSince1970: 1_641_970_800) } // 2022-01-12 07:00 UTC
    }

    /// The saved place whose look-up is held at the gate: a user's edit held in its preparation.
    private static let heldPlace = Place(name: "Held", coordinate: Coordinate(latitude: 61.47, longitude: 23.80))

    private var directory: URL!
    private var service: PlanService!
    /// The store behind `service`, where the tests put plans as they were before a request.
    private var store: Store!
    private var job: PlanRefreshJob!
    private let gate = PlanRepositoryTests.Gate()

    override func setUpWithError() throws {
        directory = try DaemonHarness.temporaryDirectory()
        try Self.writeRegion(in: directory)
        let counters = DaemonCounters(), events = EventHub(), clock = Clock(), location = LocationState()
        let store = try Store(path: directory.appendingPathComponent("db.sqlite").path)
        self.store = store
        let regions = RegionRegistry(dataDirectory: directory, streets: MinuteLegs(), transit: MinuteLegs(), counters: counters,
                                     live: LiveFeedBoard(clock: clock))
        let gate = gate
        let resolver = PlaceResolver(regions: regions, location: location) { name in
            guard name == Self.heldPlace.name else { return nil }
            await gate.pass()
            return Self.heldPlace
        }
        service = PlanService(planner: Planner(routing: RegionRouter(regions: regions, counters: counters), clock: clock),
                              plans: PlanRepository(store: store, counters: counters, events: events),
                              resolver: resolver, regions: regions, location: location, input: WireInput(clock: clock),
                              typedPlaces: TypedPlaceHistory(regions: regions, clock: clock))
        job = PlanRefreshJob(service: service, regions: regions, clock: clock, events: events)
    }

    override func tearDown() {
        if let directory { try? FileManager.default.removeItem(at: directory) }
        super.tearDown()
    }

    /// A region's manifest alone (no routing files: `MinuteLegs` answers every leg).
    private static func writeRegion(in directory: URL) throws {
        let manifest = RegionManifest(name: "here", sources: [], importedAt: Date(timeIntervalSince1970: 1_641_900_000),
                                      importDuration: 1,
                                      boundingBox: RegionBoundingBox(minLatitude: 61.4, minLongitude: 23.6, maxLatitude: 61.6, maxLongitude: 24.0),
                                      timeZone: "Europe/Helsinki", steps: [], counts: [:])
        let region = directory.appendingPathComponent("regions/here", isDirectory: true)
        try FileManager.default.createDirectory(at: region, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        try encoder.encode(manifest).write(to: region.appendingPathComponent("manifest.json"))
    }

    func testARefreshWaitsForAUsersEditBeingPreparedThenRefreshesThePlanAsTheUserLeftIt() async throws {
        try await assertRefreshWaits { service, insert in try await service.edit(insert, expectedGeneration: nil) }
    }

    func testARefreshWaitsForAUsersPlanEditsBeingPreparedThenRefreshesThePlanAsTheUserLeftIt() async throws {
        try await assertRefreshWaits { service, insert in
            try await service.apply([insert], to: insert.planID, dryRun: false, expectedGeneration: nil)
        }
    }

    /// Holds `userEdit` (an insert of the held place after node 1) in its preparation, starts
    /// the refresh, and checks that it stores nothing until the user's edit is answered, then
    /// refreshes the plan the user left.
    private func assertRefreshWaits(_ userEdit: @escaping @Sendable (PlanService, Params.PlanInsert) async throws -> PlanService.Outcome,
                                    file: StaticString = #filePath, line: UInt = #line) async throws {
        let service = try XCTUnwrap(service), job = try XCTUnwrap(job)
        let nodes = [PlanNode(place: Place(name: "A", coordinate: Coordinate(latitude: 61.49, longitude: 23.76))),
                     PlanNode(place: Place(name: "B", coordinate: Coordinate(latitude: 61.45, longitude: 23.85)))]
        let leaving = Date(timeIntervalSince1970: 1_641_970_800 + 3600) // that day, 10:00 in Tampere
        let id = try await store.write(Plans.create(try RoutePlan(nodes: nodes, modes: [.walk], timePreference: .departAt(leaving)),
                                                    title: "t"))
        let insert = Params.PlanInsert(id: id, after: 1, place: Self.heldPlace.name)
        let user = Task.detached { try await userEdit(service, insert) }
        await gate.waitUntilEntered() // the user's edit is looking its place up
        let refreshEnded = Mutex(false)
        let refresh = Task.detached {
            defer { refreshEnded.withLock { $0 = true } }
            return try await job.run(planID: id, live: false)
        }
        // The refresh either waits for the plan to be free or (wrongly) goes on and ends.
        while service.plans.freeWaiterCount == 0, !refreshEnded.withLock({ $0 }) { await Task.yield() }
        let meanwhile = try await store.read(Plans.load(id))
        XCTAssertEqual(meanwhile.generation, 1, "the refresh stored nothing while the user's edit was being prepared",
                       file: file, line: line)
        await gate.release()
        let edited = try await user.value
        XCTAssertEqual(edited.generation, 2, "the user's edit is the next generation", file: file, line: line)
        let outcome = try await refresh.value
        XCTAssertEqual(outcome, .refreshed, file: file, line: line)
        let stored = try await store.read(Plans.load(id))
        XCTAssertEqual(stored.generation, 3, "refreshed once, after the user's edit", file: file, line: line)
        XCTAssertEqual(stored.plan.nodes.map(\.place.name), ["A", "Held", "B"], "refreshed on top of the user's edit",
                       file: file, line: line)
    }
}
