import Foundation
import Notifications
import Planner
import Store
import Streets
import Transit
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
    /// `hello`, `status` and `watch` (registered in `table`).
    let status: StatusMethods
    /// Recomputes, in the background of a start, the plans a crash left with legs owed.
    public let recomputeInterruptedPlans: @Sendable () async -> Void
    /// The gpsd connection when one is configured (run by the daemon's services, not here).
    public let gpsd: GpsdLocationSource?
    /// Refreshes plans after a region's timetable changed.
    public let refresher: BackgroundRefresher
    /// Polls the regions' GTFS-Realtime feeds (run by the daemon's services, not here).
    let realtime: RealtimePoller
    /// Warns before a region's transit feed runs out.
    public let expiry: FeedExpiryWatcher
    /// Checks every region's sources on its own; nil with `update_interval = never`.
    public let updates: (@Sendable () async -> Void)?
    /// Keeps `plans.ics` in the data directory (run by the daemon's services, not here).
    public let calendarFile: PlansCalendarFile
    /// Desktop notifications for today's plans (their notifier stops with them); nil with `--notify off`.
    let reminders: ReminderService?

    public init(configuration: DaemonConfiguration, store: Store, streets: any LegEngine, transit: any LegEngine,
                transitImportStep: @escaping @Sendable ([URL]) -> RegionImportStep, clock: any WallClock = SystemClock(),
                live: LiveFeedBoard? = nil, logger: DaemonLogger = DaemonLogger(level: .warning)) {
        let dataDirectory = URL(fileURLWithPath: configuration.dataDirectory, isDirectory: true)
        let location = LocationState()
        let counters = DaemonCounters()
        let live = live ?? LiveFeedBoard(clock: clock)
        let regions = RegionRegistry(dataDirectory: dataDirectory, streets: streets, transit: transit, counters: counters,
                                     live: live)
        let events = EventHub()
        let router = RegionRouter(regions: regions, counters: counters)
        var plannerSettings = PlannerConfiguration()
        plannerSettings.comparedDistanceLimits = configuration.comparedDistanceLimits
        plannerSettings.rideReachRadius = TransitRouter.defaultAccessRadius
        let planner = Planner(routing: router, clock: clock, configuration: plannerSettings)
        let plans = PlanRepository(store: store, counters: counters, events: events) { id, error in
            logger.error("plan edit stored, its computed legs not", ["plan": String(id), "error": "\(error)"])
        }
        let resolver = PlaceResolver(regions: regions, location: location) { name in
            try await store.read(Places.named(name)).map { Place(name: $0.name, coordinate: $0.place.coordinate, kind: .saved) }
        }
        let input = WireInput(clock: clock)
        let mapData = RegionMapData(regions: regions)
        let geofences = GeofenceMonitor(store: store, events: events, clock: clock) { [regions] in regions.timeZone(for: $0) }
        let typedPlaces = TypedPlaceHistory(regions: regions, clock: clock)
        let service = PlanService(planner: planner, plans: plans, resolver: resolver, regions: regions,
                                  location: location, input: input, typedPlaces: typedPlaces)
        let refresher = BackgroundRefresher(job: PlanRefreshJob(service: service, regions: regions, clock: clock,
                                                                events: events),
                                            owedFile: dataDirectory.appendingPathComponent(BackgroundRefresher.owedFileName),
                                            logger: logger)
        let realtime = RealtimePoller(settingsFile: RealtimeSettingsFile(dataDirectory: dataDirectory), board: live,
                                      regions: regions, clock: clock, logger: logger,
                                      allowCrossHostRedirects: configuration.allowCrossHostRedirects) { region in
            counters.countRealtimeOverlayBuilt()
            await refresher.liveTimesChanged(region: region)
        }
        let expiry = FeedExpiryWatcher(regions: regions, events: events, logger: logger, clock: clock,
                                       warningDays: configuration.expiryWarningDays,
                                       stateFile: dataDirectory.appendingPathComponent(FeedExpiryWatcher.stateFileName))
        let gpsd = configuration.gpsd.map { address in
            GpsdLocationSource(address: address, logger: logger) { candidate in
                GeofenceService.take(candidate, location: location, geofences: geofences, now: clock.now(), logger: logger)
            }
        }
        let bestEffortHistory = BestEffortHistory(counters: counters, logger: logger)
        let comparer = TripComparer(planner: planner, store: store, regions: regions, location: location, clock: clock,
                                    history: bestEffortHistory)
        let fences = GeofenceService(store: store, geofences: geofences)
        let history = HistoryService(store: store, bestEffort: bestEffortHistory, clock: clock)

        var table = MethodTable()
        let status = StatusMethods(configuration: configuration, clock: clock, startedAt: clock.now(), regions: regions,
                                   counters: counters, events: events,
                                   background: GeofenceMethods.Status(location: location, fences: fences, gpsd: gpsd,
                                                                      refresher: refresher))
        status.register(in: &table)
        self.status = status
        var importer = RegionImporter(dataDirectory: dataDirectory)
        importer.osmLimit = configuration.importLimits.osm
        var downloader = SourceDownloader(dataDirectory: dataDirectory)
        downloader.stallTimeout = configuration.fetchStallTimeout
        downloader.allowCrossHostRedirects = configuration.allowCrossHostRedirects
        let updater = RegionUpdater(importer: importer, downloader: downloader, limits: configuration.importLimits,
                                    transitImportStep: transitImportStep)
        let checks = RegionCheckLog(interval: configuration.updateInterval, dataDirectory: dataDirectory, logger: logger)
        let imports = RegionImportService(importer: importer, limits: configuration.importLimits, downloader: downloader,
                                          regions: regions, events: events, transitImportStep: transitImportStep,
                                          refresher: refresher, realtime: realtime, expiry: expiry)
        let regionUpdates = RegionUpdateService(updater: updater, downloader: downloader, regions: regions, events: events,
                                                refresher: refresher, expiry: expiry)
        RegionMethods(imports: imports, downloader: downloader, updates: regionUpdates, checks: checks, regions: regions,
                      events: events, realtime: realtime, clock: clock).register(in: &table)
        updates = configuration.updateInterval.map { interval in
            let scheduler = RegionUpdateScheduler(interval: interval, catalog: regions.catalog, checks: checks, logger: logger) {
                let result = WireDocuments.regionUpdate(await regionUpdates.update($0, force: false))
                checks.record(result, at: Date())
                return WireDocuments.summary(of: result)
            }
            return { await scheduler.run() }
        }

        LocationMethods(location: location, regions: regions, clock: clock, events: events, geofences: geofences)
            .register(in: &table)
        let places = PlaceService(store: store, resolver: resolver, fences: fences, events: events)
        PlaceMethods(places: places, resolver: resolver, regions: regions, location: location, fences: fences,
                     history: history).register(in: &table)
        GeofenceMethods(fences: fences, regions: regions).register(in: &table)
        HistoryMethods(history: history, comparer: comparer, plans: service, input: input).register(in: &table)
        let compare = TripCompareService(resolver: resolver, regions: regions, input: input, comparer: comparer, typedPlaces: typedPlaces)
        PlanMethods(service: service, plans: plans, compare: compare, regions: regions, input: input, mapData: mapData)
            .register(in: &table)
        AgendaMethods(agenda: PlanAgendaService(plans: plans, regions: regions, clock: clock)).register(in: &table)
        let calendar = PlanCalendarExport(regions: regions, dataDirectory: dataDirectory)
        MapMethods(plans: plans, regions: regions, mapData: mapData, input: input, calendar: calendar).register(in: &table)
        self.calendarFile = PlansCalendarFile(plans: plans, export: calendar, events: events, clock: clock,
                                              logger: logger, dataDirectory: dataDirectory)
        let edits = PlanEditMethods(service: service)
        edits.register(in: &table)
        DayPlanMethods(edits: edits, refresher: refresher).register(in: &table)
        ReminderMethods(reminders: PlanReminderSettings(store: store, plans: plans, defaultLead: configuration.remindLead),
                        notify: configuration.notify).register(in: &table)
        if configuration.notify {
            let relay = SignalRelay()
            let notifier = DesktopNotifier { signal in relay.pass(signal) }
            let reminders = ReminderService(store: store, plans: plans, notifier: notifier, events: events, clock: clock, regions: regions,
                                            location: location, router: router, logger: logger,
                                            settings: .init(lead: configuration.remindLead, snooze: configuration.remindSnooze))
            relay.send(to: reminders)
            self.reminders = reminders
        } else {
            self.reminders = nil
        }
        self.counters = counters
        self.events = events
        self.regions = regions
        // Two groups registering one method is a programming error: refused here, at start-up,
        // rather than one handler silently shadowing the other.
        precondition(table.duplicates.isEmpty,
                      "methods registered twice: \(table.duplicates.map(\.rawValue).joined(separator: ", "))")
        self.table = table
        self.recomputeInterruptedPlans = {
            do {
                let (done, failed) = try await service.recomputeInterrupted()
                if !done.isEmpty {
                    logger.notice("recomputed plans interrupted by the last stop", ["plans": done.map(String.init).joined(separator: ",")])
                }
                for (id, error) in failed {
                    logger.warning("cannot recompute a plan interrupted by the last stop", ["plan": String(id), "error": "\(error)"])
                }
            } catch is CancellationError {
            } catch {
                logger.error("cannot recompute plans interrupted by the last stop", ["error": "\(error)"])
            }
        }
        self.gpsd = gpsd
        self.refresher = refresher
        self.realtime = realtime
        self.expiry = expiry
    }
}
