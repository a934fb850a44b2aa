import Foundation
import Planner
import Streets
import Transit

/// Walk and car through Routino: a `StreetRouter` per region version, its worker processes
/// started on first use; retries of `no_route` from other nearby roads are counted in `status`.
public struct StreetEngine: LegEngine {
    private let dataDirectory: URL
    private let workers: Int
    /// Prices car legs (`--car-cost-per-km`); nil leaves them without a price.
    private let carCost: CarCost?
    /// The nice value of the worker processes (`HeavyWorkPriority`); nil: the starting thread's.
    private let workerNice: Int32?

    public init(dataDirectory: URL, workers: Int, carCost: CarCost? = nil, workerNice: Int32? = nil) {
        self.dataDirectory = dataDirectory
        self.workers = workers
        self.carCost = carCost
        self.workerNice = workerNice
    }

    public func open(_ region: RegionManifest, directory: URL, counters: DaemonCounters) throws -> any RegionLegSource {
        do {
            return Opened(router: try StreetRouter(regions: [region], dataDirectory: dataDirectory, workers: workers,
                                                    workerNice: workerNice, onRetry: { counters.countNoRouteRetries($0) },
                                                    onKnownNoRoute: { counters.countNoRouteKnownAtImport() }),
                          carCost: carCost, walks: StreetWalkCache())
        } catch let error as StreetsError {
            throw RoutingError.engineFailure(error.description)
        }
    }

    struct Opened: RegionLegSource {
        let router: StreetRouter
        let carCost: CarCost?
        /// Walks asked before on this version (a transit answer's end walks, then the plan's).
        let walks: StreetWalkCache
        func leg(for query: LegQuery) async throws -> RouteLeg {
            let ask = { [router] in
                try await router.leg(from: query.from.coordinate, to: query.to.coordinate, mode: query.mode, pace: query.pace,
                                     access: query.access)
            }
            return query.mode == .walk ? try await walks.leg(for: query) { Self.inWholeSeconds(try await ask()) } : priced(try await ask())
        }
        /// A walk takes whole seconds, rounded up, as the transit engine counts them: a plan shown
        /// arriving at 11:46:00 that walked its last 82.4 s arrived at 11:46:00.4, and asked to
        /// arrive by 11:46 left seven minutes earlier (trial 56's scan).
        static func inWholeSeconds(_ walk: RouteLeg) -> RouteLeg {
            var walk = walk
            walk.expectedTravelTime = walk.expectedTravelTime.rounded(.up)
            return walk
        }
        func alternatives(for query: LegQuery, count: Int) async throws -> [RouteLeg] {
            Array(try await router.alternatives(from: query.from.coordinate, to: query.to.coordinate, mode: query.mode,
                                                pace: query.pace, access: query.access).prefix(max(1, count))).map(priced)
        }
        /// A car leg with its estimated cost.
        private func priced(_ leg: RouteLeg) -> RouteLeg {
            guard leg.mode == .car, let carCost else { return leg }
            var leg = leg
            leg.price = carCost.quote(metres: leg.distance ?? 0)
            return leg
        }
        func close() { router.shutdown() }
    }
}

/// Transit through our RAPTOR engine: a `TransitRouter` (timetable in memory) per region version.
public struct TransitEngine: LegEngine {
    /// The most vehicle changes a journey may have (`--max-transfers`).
    private let maxTransfers: Int
    /// Seconds a vehicle change must save (`--transfer-penalty`).
    private let transferPenalty: Int
    /// The realtime feeds in force per region, laid over a timetable as it opens.
    private let live: LiveFeedBoard?

    public init(maxTransfers: Int = 4, transferPenalty: Int = TransitRouter.defaultTransferPenalty, live: LiveFeedBoard? = nil) {
        self.maxTransfers = maxTransfers
        self.transferPenalty = transferPenalty
        self.live = live
    }

    public func open(_ region: RegionManifest, directory: URL, counters: DaemonCounters) throws -> any RegionLegSource {
        do {
            let router = try TransitRouter(regionDirectory: directory)
            if let live, case let feeds = live.feeds(of: region), !feeds.isEmpty {
                router.applyRealtime(feeds, now: live.clock.now())
            }
            return Opened(router: router, maxTransfers: maxTransfers, transferPenalty: transferPenalty)
        } catch let error as TransitError {
            throw RoutingError.unsupportedInRegion("region \(region.name) has no usable timetable: \(error.description)")
        }
    }

    struct Opened: RegionLegSource {
        let router: TransitRouter
        let maxTransfers: Int
        let transferPenalty: Int

        func leg(for query: LegQuery) async throws -> RouteLeg {
            try await leg(for: query, knownWalks: KnownEndWalks())
        }

        func leg(for query: LegQuery, knownWalks: KnownEndWalks) async throws -> RouteLeg {
            try Task.checkCancellation()
            let leg = try router.leg(from: query.from.coordinate, to: query.to.coordinate, timing: query.timing, pace: query.pace,
                                     maxTransfers: maxTransfers, transferPenalty: transferPenalty, avoiding: query.avoiding,
                                     access: query.access, knownWalks: knownWalks, travellerEnds: query.travellerEnds,
                                     riding: query.riding).best
            return named(leg, query)
        }

        func alternatives(for query: LegQuery, count: Int) async throws -> [RouteLeg] {
            try await alternatives(for: query, count: count, knownWalks: KnownEndWalks())
        }

        func alternatives(for query: LegQuery, count: Int, knownWalks: KnownEndWalks) async throws -> [RouteLeg] {
            try Task.checkCancellation()
            return try router.journeys(from: query.from.coordinate, to: query.to.coordinate, timing: query.timing,
                                       pace: query.pace, count: count, maxTransfers: maxTransfers,
                                       transferPenalty: transferPenalty, avoiding: query.avoiding,
                                       access: query.access, knownWalks: knownWalks, travellerEnds: query.travellerEnds,
                                       riding: query.riding).map { named($0, query) }
        }

        func close() {}

        func liveLeg(_ leg: RouteLeg) -> RouteLeg {
            leg.retimed(rides: leg.rides.map(router.liveRide))
        }

        func applyRealtime(_ feeds: [RealtimeFeed], now: Date) -> RealtimeApplyReport? {
            router.applyRealtime(feeds, now: now)
        }

        func tickets(for rides: [TransitRide]) -> FareTickets? { router.tickets(for: rides) }

        func calls(ofTripOf ride: TransitRide) -> [TripCall] { router.calls(ofTripOf: ride) }

        /// The engine only knows coordinates; name the walks' ends after the plan's places.
        private func named(_ leg: RouteLeg, _ query: LegQuery) -> RouteLeg {
            var leg = leg
            for index in leg.walks.indices {
                if leg.walks[index].kind == .access { leg.walks[index].fromName = query.from.name }
                if leg.walks[index].kind == .egress { leg.walks[index].toName = query.to.name }
            }
            return leg
        }
    }

    /// The import count of stops left out of the place index because no street of the OpenStreetMap
    /// extract is within Routino's snapping distance of them.
    public static let stopsBeyondStreets = "stops_beyond_streets"
    /// The import count of footpaths between stops timed as a stretched straight line because
    /// the streets could not time them (no road near, or the street router could not start).
    public static let straightLineFootpaths = "straight_line_footpaths"
    /// The count, in a timetable rebuilt on kept streets, of footpaths whose times were taken
    /// from the version before (`KnownFootpathTimes`) rather than timed again.
    public static let footpathsKept = "footpaths_kept"
    /// The count, in a timetable rebuilt on kept streets, of feeds merged from the parts the
    /// version before kept (`FeedPart`) rather than parsed again: all but the updated one.
    public static let feedsKept = "feeds_kept"

    /// The import step that adds GTFS feeds to a region: the timetable, with footpaths between
    /// stops timed on the streets of the region being imported, then its stops in the place
    /// index (so searches and nearby-stop lookups find them). It runs beside planetsplitter:
    /// once the place index is built (its memory must not count against the feed's budget), the
    /// feeds are read while planetsplitter still works, and the footpaths wait for its routing
    /// database (`RegionImportStreets`).
    /// - parameter walkWorkers: Routino worker processes that time the footpaths in parallel.
    /// - parameter limits: what a feed may use (sizes, compression ratio, line length, memory).
    public static func importStep(feeds: [URL], walkWorkers: Int = ProcessInfo.processInfo.activeProcessorCount,
                                  limits: GTFSLimits = GTFSLimits()) -> RegionImportStep {
        RegionImportStep(name: "transit timetable", sources: feeds, sourceLimit: ImportSourceLimits.feedLimit(limits.maxFeedBytes)) {
            staging, streets, progress in
            // After the place index, beside planetsplitter (another process): the feed's memory
            // budget is the daemon's growth while it imports, which the place index's would spend.
            try streets.waitForPlaceIndex()
            // The place index's freed working memory (the OSM parse, names, trigrams) back to the
            // system before the feeds are read: it was freed on another thread, into an arena the
            // feeds' allocations would not reuse, so the import's peak would be the two summed.
            MemoryTrim.releaseFreePages()
            progress(RegionImportProgress(phase: "transit timetable", fraction: 0,
                                          detail: "reading \(feeds.map(\.lastPathComponent).joined(separator: ", ")), timing footpaths on the streets"))
            let timer: StreetWalkTimer?
            do {
                timer = try StreetWalkTimer(regionDirectory: staging, workers: walkWorkers)
            } catch {
                timer = nil  // said, not silent: the step's counts and the import's notes tell it too
                progress(RegionImportProgress(phase: "transit timetable", fraction: 0,
                                              detail: "the streets cannot time footpaths (\(error)): straight lines instead"))
            }
            defer { timer?.shutdown() }
            var importer = GTFSImporter()
            importer.limits = limits
            var imported: [(feed: Int, stop: TransitStop)] = []
            var footpathsKept: Int?
            let report = try withoutActuallyEscaping(progress) { progress in
                // The estimator reports on this import thread, while `progress` is in scope.
                let relay = ImportProgressRelay(progress)
                let streetWalking: any WalkingTimeEstimator = timer.map { timer in
                    StreetWalkingEstimator(timer: timer, streets: streets, progress: { timed, total in
                        relay.report(RegionImportProgress(phase: "transit timetable", fraction: 0.1 + 0.7 * Double(timed) / Double(total),
                                                          detail: "timing footpaths on the streets: \(timed) of \(total)"))
                    }, failed: { reason in
                        relay.report(RegionImportProgress(phase: "transit timetable", fraction: 0.1,
                                                          detail: "the streets cannot time footpaths (\(reason)): straight lines instead"))
                    })
                } ?? StraightLineWalking()
                // On streets kept from the version before (a feed updated), the footpaths it timed
                // between stops that did not move are taken as they are, not timed again.
                // (Held only inside this block: the street estimator holds `progress`.)
                let known = timer == nil ? nil : streets.keptFrom.map { KnownFootpathTimes(regionDirectory: $0, streets: streetWalking) }
                defer { footpathsKept = known?.reused }
                return try importer.importFeeds(feeds, intoRegionDirectory: staging, walking: known ?? streetWalking,
                                                stopsReady: { imported = $0 })
            }
            // The streets' own error is the import's when they failed.
            try streets.waitForAll()
            progress(RegionImportProgress(phase: "transit timetable", fraction: 0.8, detail: "indexing stops"))
            // A feed may reach past the street map: a stop no road snaps to is never offered by search.
            let reach = try StreetLayer.read(regionDirectory: staging).map { StreetReach(streets: $0) }
            let reachable = imported.filter { reach?.reaches($0.stop.coordinate) ?? true }
            let stops = reachable.map {
                IndexedStop(id: $0.stop.id, feed: $0.feed, name: $0.stop.name, coordinate: $0.stop.coordinate, modes: $0.stop.modes)
            }
            try PlaceIndex.addStops(stops, toRegionDirectory: staging)
            let beyond = imported.count - reachable.count
            progress(RegionImportProgress(phase: "transit timetable", fraction: 1,
                                          detail: "\(stops.count) stops" + (beyond > 0 ? " (\(beyond) beyond the streets left out)" : "")
                                            + "; " + report.summary.replacingOccurrences(of: "\n", with: "; ")))
            let names = feeds.map(\.lastPathComponent).joined(separator: ", ")
            return RegionImportStep.Outcome(
                timeZone: RegionTimeZoneDecision(zone: report.timeZone, source: "agency_timezone of GTFS feed \(names)"),
                providesTransit: true,
                counts: [Self.stopsBeyondStreets: beyond, Self.straightLineFootpaths: report.straightLineFootpaths]
                    .merging(footpathsKept.map { [Self.footpathsKept: $0] } ?? [:]) { $1 }
                    .merging(streets.keptFrom == nil ? [:] : [Self.feedsKept: report.feedsKept]) { $1 },
                languages: report.languages.compactMap(PlaceLanguage.code(of:)))
        }
    }
}

extension TransitError: CodedError {}

/// Lets the footpath estimator (which must be `Sendable`) call an import step's progress
/// closure. Sound because the estimator runs synchronously on the step's own thread, inside
/// the step, while the closure is alive.
private final class ImportProgressRelay: @unchecked Sendable {
    let report: (RegionImportProgress) -> Void
    init(_ report: @escaping (RegionImportProgress) -> Void) { self.report = report }
}
