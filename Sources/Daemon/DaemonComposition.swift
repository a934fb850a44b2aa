import Foundation
import Planner
import Store
import Streets
import WireProtocol

/// Wires the daemon's parts once (called by `UsefulMapDaemon`, the composition root): the
/// shared state, then one small group of handlers per area, each given only what it needs.
public struct DaemonComposition: Sendable {
    public let counters: DaemonCounters
    public let events: EventHub
    /// The imported regions and their open engines (closed together at shutdown).
    public let regions: RegionRegistry
    /// Every method's handler.
    public let table: MethodTable

    public init(configuration: DaemonConfiguration, store: Store, streets: (any LegEngine)?, transit: (any LegEngine)?,
                transitImportStep: (@Sendable ([URL]) -> RegionImportStep)?, clock: any WallClock = SystemClock()) {
        let dataDirectory = URL(fileURLWithPath: configuration.dataDirectory, isDirectory: true)
        let location = LocationState()
        let counters = DaemonCounters()
        let regions = RegionRegistry(dataDirectory: dataDirectory, streets: streets, transit: transit, counters: counters)
        let events = EventHub()
        let router = RegionRouter(regions: regions, counters: counters)
        let planner = Planner(routing: router, clock: clock)
        let plans = PlanCoordinator(store: store, counters: counters, events: events)
        let resolver = PlaceResolver(regions: regions, location: location) { name in
            try store.place(named: name).map { Place(name: $0.name, coordinate: $0.place.coordinate, kind: .saved) }
        }
        let input = WireInput(clock: clock)
        let typedPlaces = TypedPlaceHistory(store: store, resolver: resolver, regions: regions, clock: clock)
        let comparer = TripComparer(planner: planner, store: store, regions: regions, location: location, input: input)

        var table = MethodTable()
        StatusMethods(configuration: configuration, clock: clock, startedAt: clock.now(), regions: regions,
                      counters: counters, events: events).register(in: &table)
        RegionMethods(importer: RegionImporter(dataDirectory: dataDirectory), regions: regions, events: events,
                      transitImportStep: transitImportStep).register(in: &table)
        LocationMethods(location: location, regions: regions, clock: clock, events: events).register(in: &table)
        PlaceMethods(places: store, resolver: resolver, regions: regions, location: location, clock: clock,
                     events: events).register(in: &table)
        HistoryMethods(history: store, comparer: comparer, input: input).register(in: &table)
        PlanMethods(planner: planner, plans: plans, store: store, resolver: resolver, regions: regions, location: location,
                    input: input, counters: counters, events: events, comparer: comparer,
                    typedPlaces: typedPlaces).register(in: &table)
        PlanEditMethods(planner: planner, plans: plans, resolver: resolver, regions: regions,
                        location: location, input: input, typedPlaces: typedPlaces).register(in: &table)
        self.counters = counters
        self.events = events
        self.regions = regions
        self.table = table
    }
}
