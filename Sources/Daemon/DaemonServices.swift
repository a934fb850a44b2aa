import Foundation
import Planner
import Store
import Streets
import WireProtocol

/// Everything the method handlers share, wired once by `UsefulMapDaemon` (the composition root).
public final class DaemonServices: Sendable {
    public let configuration: DaemonConfiguration
    public let regions: RegionRegistry
    public let location: LocationState
    public let counters: DaemonCounters
    public let events: EventHub
    public let router: RegionRouter
    public let planner: Planner
    public let clock: any WallClock
    public let startedAt: Date
    public let store: Store
    public let plans: PlanCoordinator
    public let resolver: PlaceResolver
    public let geofences: GeofenceMonitor
    public let refresher: BackgroundRefresher
    /// The gpsd connection when one is configured (started by the daemon, not here).
    public let gpsd: GpsdLocationSource?
    /// Import steps for GTFS feeds; nil when this build has no transit importer.
    let transitImportStep: (@Sendable ([URL]) -> RegionImportStep)?

    public init(configuration: DaemonConfiguration, store: Store, streets: (any LegEngine)?, transit: (any LegEngine)?,
                transitImportStep: (@Sendable ([URL]) -> RegionImportStep)?, clock: any WallClock = SystemClock(),
                logger: DaemonLogger = DaemonLogger(level: .warning)) {
        self.configuration = configuration
        let dataDirectory = URL(fileURLWithPath: configuration.dataDirectory, isDirectory: true)
        location = LocationState()
        counters = DaemonCounters()
        regions = RegionRegistry(dataDirectory: dataDirectory, streets: streets, transit: transit, counters: counters)
        events = EventHub()
        router = RegionRouter(regions: regions, counters: counters)
        planner = Planner(routing: router, clock: clock)
        self.clock = clock
        self.transitImportStep = transitImportStep
        startedAt = clock.now()
        self.store = store
        plans = PlanCoordinator(store: store, counters: counters, events: events)
        resolver = PlaceResolver(regions: regions, location: location) { name in
            try store.place(named: name).map { Place(name: $0.name, coordinate: $0.place.coordinate, kind: .saved) }
        }
        let geofences = GeofenceMonitor(store: store, events: events, clock: clock) { [regions] in regions.timeZone(for: $0) }
        self.geofences = geofences
        refresher = BackgroundRefresher(job: PlanRefreshJob(store: store, plans: plans, planner: planner, regions: regions,
                                                            location: location, clock: clock), logger: logger)
        gpsd = configuration.gpsd.map { [location] address in
            GpsdLocationSource(address: address, logger: logger) { candidate in
                Self.take(candidate, location: location, geofences: geofences, logger: logger)
            }
        }
    }

    public var dataDirectory: URL { URL(fileURLWithPath: configuration.dataDirectory, isDirectory: true) }

    /// Every method's handler.
    public func handlers() -> [WireMethod: RequestDispatcher.Handler] {
        var all: [WireMethod: RequestDispatcher.Handler] = [:]
        for group in [statusHandlers(), regionHandlers(), locationHandlers(), placeHandlers(), historyHandlers(),
                      planHandlers(), planEditHandlers(), geofenceHandlers()] {
            all.merge(group) { first, _ in first }
        }
        return all
    }

    // MARK: - Helpers for handlers

    /// Reads a time a person typed, in `timeZone`.
    /// - parameter day: the day a bare `HH:MM` falls on (default today).
    func time(_ text: String, param: String, timeZone: TimeZone, day: Date? = nil) throws -> Date {
        guard let date = WireTime.parse(text, timeZone: timeZone, now: day ?? clock.now()) else {
            throw DaemonError.invalidParams("\(param) \"\(text)\" is not a time: use HH:MM or ISO 8601 (2022-01-12T08:15, 2022-01-12T08:15+02:00)")
        }
        return date
    }

    /// `at` / `arrive_by` / neither (leave now); both is an error.
    func timePreference(at: String?, arriveBy: String?, timeZone: TimeZone, day: Date? = nil) throws -> TimePreference {
        switch (at, arriveBy) {
        case (nil, nil): return .leaveNow
        case (let at?, nil): return .departAt(try time(at, param: "at", timeZone: timeZone, day: day))
        case (nil, let by?): return .arriveBy(try time(by, param: "arrive_by", timeZone: timeZone, day: day))
        case (.some, .some): throw DaemonError.invalidParams("give either at or arrive_by, not both")
        }
    }

    func pace(_ text: String?) throws -> WalkingPace {
        guard let text else { return .normal }
        guard let pace = WalkingPace(rawValue: text) else {
            throw DaemonError.invalidParams("pace \"\(text)\" must be slow, normal or fast")
        }
        return pace
    }

    func mode(_ text: String, param: String = "mode") throws -> TravelMode {
        guard let mode = TravelMode(rawValue: text) else {
            throw DaemonError.invalidParams("\(param) \"\(text)\" must be walk, transit or car")
        }
        return mode
    }

    func preset(_ text: String) throws -> PlanPreset {
        guard let preset = PlanPreset(rawValue: text) else {
            throw DaemonError.invalidParams("preset \"\(text)\" must be walk, transit, car or fastest")
        }
        return preset
    }
}

/// Runs blocking work (an import, a long SQLite job) on its own thread so it never holds one
/// of the few cooperative threads Swift concurrency has.
func runBlocking<T: Sendable>(_ name: String, _ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
        }
        thread.name = name
        thread.start()
    }
}

extension StreetsError: CodedError {}
extension StoreError: CodedError {}
