/// `status`: what the daemon is, where its data lives, and what it has done.
public struct StatusDocument: Hashable, Sendable, Codable {
    public var version: String
    public var protocolVersion: Int
    public var databasePath: String
    public var dataDirectory: String
    public var socketPath: String
    public var uptimeS: Double
    public var regions: [RegionDocument]
    public var counters: CountersDocument
    /// Location source and fences (absent from older daemons).
    public var location: LocationStatusDocument?
    /// Background refreshes after a timetable change (absent from older daemons).
    public var refreshQueue: RefreshQueueDocument?

    public init(version: String, protocolVersion: Int, databasePath: String, dataDirectory: String,
                socketPath: String, uptimeS: Double, regions: [RegionDocument], counters: CountersDocument,
                location: LocationStatusDocument? = nil, refreshQueue: RefreshQueueDocument? = nil) {
        self.version = version
        self.protocolVersion = protocolVersion
        self.databasePath = databasePath
        self.dataDirectory = dataDirectory
        self.socketPath = socketPath
        self.uptimeS = uptimeS
        self.regions = regions
        self.counters = counters
        self.location = location
        self.refreshQueue = refreshQueue
    }
}

/// What the daemon counted since it started.
public struct CountersDocument: Hashable, Sendable, Codable {
    public var requests: Int
    public var routingQueries: RoutingQueryCounts
    /// Plans whose legs were (re)computed after an edit or creation.
    public var plansRecomputed: Int
    /// Open client connections right now (this one included).
    public var connections: Int
    /// Running `watch` requests right now.
    public var watchers: Int
    /// Street routes asked again from other nearby roads after Routino found none between the
    /// snapped points (absent from older daemons).
    @NullWhenNil public var noRouteRetries: Int?
    /// Street routes answered `no_route` from the region's street components (known at import)
    /// without asking Routino (absent from older daemons).
    @NullWhenNil public var noRouteKnownAtImport: Int?
    /// Log lines that could not be written (stderr full, or its reader gone) and were dropped
    /// (absent from older daemons).
    @NullWhenNil public var logLinesDropped: Int?
    /// Searches and comparisons answered without their history entry because the disk was full
    /// (absent from older daemons).
    @NullWhenNil public var historyNotRecorded: Int?
    /// Realtime overlays laid over a region's timetable, each followed by one refresh of the
    /// region's plans for today: one per poll round whose feeds changed what is in force, however
    /// many of them changed (absent from older daemons).
    @NullWhenNil public var realtimeOverlaysBuilt: Int?

    public init(requests: Int, routingQueries: RoutingQueryCounts, plansRecomputed: Int,
                connections: Int = 0, watchers: Int = 0, noRouteRetries: Int? = nil, logLinesDropped: Int? = nil,
                historyNotRecorded: Int? = nil, noRouteKnownAtImport: Int? = nil, realtimeOverlaysBuilt: Int? = nil) {
        self.realtimeOverlaysBuilt = realtimeOverlaysBuilt
        self.requests = requests
        self.routingQueries = routingQueries
        self.plansRecomputed = plansRecomputed
        self.connections = connections
        self.watchers = watchers
        self.noRouteRetries = noRouteRetries
        self.logLinesDropped = logLinesDropped
        self.historyNotRecorded = historyNotRecorded
        self.noRouteKnownAtImport = noRouteKnownAtImport
    }
}

/// One routing query is one leg asked of an engine.
public struct RoutingQueryCounts: Hashable, Sendable, Codable {
    public var total: Int
    public var walk: Int
    public var transit: Int
    public var car: Int
    public var bike: Int

    public init(walk: Int, transit: Int, car: Int, bike: Int = 0) {
        self.walk = walk
        self.transit = transit
        self.car = car
        self.bike = bike
        self.total = walk + transit + car + bike
    }
}

/// An imported region.
public struct RegionDocument: Hashable, Sendable, Codable {
    public var name: String
    public var hasTransit: Bool
    @NullWhenNil public var timeZone: String?
    /// How the zone was decided ("agency_timezone of GTFS feed tampere.zip", "given with --time-zone").
    @NullWhenNil public var timeZoneSource: String?
    @NullWhenNil public var importedAt: String?
    /// `[min_lat, min_lon, max_lat, max_lon]` when known.
    @NullWhenNil public var bounds: [Double]?
    /// Each GTFS feed's service period: feeds go stale, and this is where the user sees why
    /// transit answers vanished.
    @NullWhenNil public var transitFeeds: [TransitFeedDocument]?
    /// The GTFS-Realtime feeds laid over the timetable (`region set --realtime`); null when none.
    @NullWhenNil public var realtimeFeeds: [RealtimeFeedDocument]?
    /// What the region was imported from, OSM extract first; absent from older daemons.
    public var sources: [RegionSourceDocument]?
    /// The last check of its sources since the daemon started; absent before the first.
    public var lastCheck: RegionCheckDocument?
    /// Footpaths between stops its import timed as a straight line because the streets could
    /// not time them; null when every footpath follows the streets (or it has no transit).
    @NullWhenNil public var straightLineFootpaths: Int?
    /// Languages its names and feeds are written in, English always (ISO 639-1 codes): the
    /// category words search takes there; absent for a region imported before they were recorded.
    public var languages: [String]?

    public init(name: String, hasTransit: Bool, timeZone: String?, timeZoneSource: String? = nil, importedAt: String?,
                bounds: [Double]?, transitFeeds: [TransitFeedDocument]? = nil, realtimeFeeds: [RealtimeFeedDocument]? = nil,
                sources: [RegionSourceDocument]? = nil, straightLineFootpaths: Int? = nil, languages: [String]? = nil) {
        self.languages = languages
        self.sources = sources
        self.straightLineFootpaths = straightLineFootpaths
        self.name = name
        self.hasTransit = hasTransit
        self.timeZone = timeZone
        self.timeZoneSource = timeZoneSource
        self.importedAt = importedAt
        self.bounds = bounds
        self.transitFeeds = transitFeeds
        self.realtimeFeeds = realtimeFeeds
    }
}

/// One source of a region: a file by its path, or a URL with its credentials, query and
/// fragment left out (`https://***@host/path`), and what the last fetch got.
public struct RegionSourceDocument: Hashable, Sendable, Codable {
    /// "osm", or the import step that read it ("transit timetable").
    public var role: String
    /// The file's path, or the URL redacted.
    public var source: String
    /// True for a source fetched by URL.
    public var remote: Bool
    public var size: Int64
    public var sha256: String
    /// The server's validators of the copy held (URL sources).
    public var etag: String?
    public var lastModified: String?
    /// When the copy held was fetched (or last confirmed current), in the machine's zone.
    public var fetchedAt: String?

    public init(role: String, source: String, remote: Bool, size: Int64, sha256: String, etag: String? = nil,
                lastModified: String? = nil, fetchedAt: String? = nil) {
        self.role = role
        self.source = source
        self.remote = remote
        self.size = size
        self.sha256 = sha256
        self.etag = etag
        self.lastModified = lastModified
        self.fetchedAt = fetchedAt
    }
}

/// One imported GTFS feed: the dates it covers (local dates, inclusive, from its calendar cut
/// to its `feed_info.txt` validity), how many days are left, when it was last checked and last
/// changed, and its service hours on the day asked.
public struct TransitFeedDocument: Hashable, Sendable, Codable {
    public var feed: String
    /// The first and the last covered service day.
    public var firstDate: String
    public var lastDate: String
    /// The day asked (`date`, default today on the daemon's clock), "2022-01-12" in the region's
    /// zone; absent from older daemons, and for a feed imported before its hours were recorded.
    public var serviceDay: String?
    /// The first departure and the last arrival of that service day's trips (the last may be
    /// after midnight); null when nothing runs that day.
    @NullWhenNil public var firstDeparture: String?
    @NullWhenNil public var lastArrival: String?
    /// Service days from today (on the daemon's clock, in the region's zone) to `lastDate`: 0 on
    /// the last day, negative once it has passed. Absent from older daemons.
    public var daysLeft: Int?
    /// `feed_info.txt`'s `feed_end_date` when the feed declares one; absent otherwise.
    public var feedEndDate: String?
    /// When this feed's source was last looked at for a newer version, and when the feed in use
    /// last changed (it was imported); the machine's zone, like `imported_at`. Until sources are
    /// checked for updates the last check is the import. Absent from older daemons.
    public var lastCheck: String?
    public var lastChange: String?

    public init(feed: String, firstDate: String, lastDate: String, serviceDay: String? = nil,
                firstDeparture: String? = nil, lastArrival: String? = nil, daysLeft: Int? = nil, feedEndDate: String? = nil,
                lastCheck: String? = nil, lastChange: String? = nil) {
        self.feed = feed
        self.firstDate = firstDate
        self.lastDate = lastDate
        self.serviceDay = serviceDay
        self.firstDeparture = firstDeparture
        self.lastArrival = lastArrival
        self.daysLeft = daysLeft
        self.feedEndDate = feedEndDate
        self.lastCheck = lastCheck
        self.lastChange = lastChange
    }
}

/// `hello` result: who answered and which protocol versions it speaks.
public struct HelloDocument: Hashable, Sendable, Codable {
    public var server: String
    public var version: String
    public var protocolVersion: Int
    public var oldestSupportedVersion: Int

    public init(server: String, version: String, protocolVersion: Int, oldestSupportedVersion: Int) {
        self.server = server
        self.version = version
        self.protocolVersion = protocolVersion
        self.oldestSupportedVersion = oldestSupportedVersion
    }
}

// MARK: - Reading (`JSONFields`: the one decoder of these documents, `init(from:)` included)

extension StatusDocument {
    public init(from decoder: any Decoder) throws { try self.init(JSONFields(decoder)) }

    public init(_ fields: JSONFields) throws {
        self.init(version: try fields.string("version"), protocolVersion: try fields.int("protocol_version"),
                  databasePath: try fields.string("database_path"), dataDirectory: try fields.string("data_directory"),
                  socketPath: try fields.string("socket_path"), uptimeS: try fields.double("uptime_s"),
                  regions: try fields.objects("regions") { try RegionDocument($0) },
                  counters: try fields.object("counters") { try CountersDocument($0) },
                  location: try fields.optionalObject("location") { try LocationStatusDocument($0) },
                  refreshQueue: try fields.optionalObject("refresh_queue") { try RefreshQueueDocument($0) })
    }
}

extension CountersDocument {
    public init(from decoder: any Decoder) throws { try self.init(JSONFields(decoder)) }

    public init(_ fields: JSONFields) throws {
        self.init(requests: try fields.int("requests"), routingQueries: try fields.object("routing_queries") { try RoutingQueryCounts($0) },
                  plansRecomputed: try fields.int("plans_recomputed"), connections: try fields.int("connections"),
                  watchers: try fields.int("watchers"), noRouteRetries: try fields.optionalInt("no_route_retries"),
                  logLinesDropped: try fields.optionalInt("log_lines_dropped"),
                  historyNotRecorded: try fields.optionalInt("history_not_recorded"),
                  noRouteKnownAtImport: try fields.optionalInt("no_route_known_at_import"),
                  realtimeOverlaysBuilt: try fields.optionalInt("realtime_overlays_built"))
    }
}

extension RoutingQueryCounts {
    public init(from decoder: any Decoder) throws { try self.init(JSONFields(decoder)) }

    /// `total` as sent, as any other field.
    public init(_ fields: JSONFields) throws {
        let total = try fields.int("total")
        self.init(walk: try fields.int("walk"), transit: try fields.int("transit"), car: try fields.int("car"), bike: try fields.int("bike"))
        self.total = total
    }
}

extension RegionDocument {
    public init(from decoder: any Decoder) throws { try self.init(JSONFields(decoder)) }

    public init(_ fields: JSONFields) throws {
        self.init(name: try fields.string("name"), hasTransit: try fields.bool("has_transit"), timeZone: try fields.optionalString("time_zone"),
                  timeZoneSource: try fields.optionalString("time_zone_source"), importedAt: try fields.optionalString("imported_at"),
                  bounds: try fields.optionalDoubles("bounds"),
                  transitFeeds: try fields.optionalObjects("transit_feeds") { try TransitFeedDocument($0) },
                  realtimeFeeds: try fields.optionalObjects("realtime_feeds") { try RealtimeFeedDocument($0) },
                  sources: try fields.optionalObjects("sources") { try RegionSourceDocument($0) },
                  straightLineFootpaths: try fields.optionalInt("straight_line_footpaths"),
                  languages: try fields.optionalDecoded("languages", as: [String].self))
        lastCheck = try fields.optionalObject("last_check") { try RegionCheckDocument($0) }
    }
}

extension RegionSourceDocument {
    public init(from decoder: any Decoder) throws { try self.init(JSONFields(decoder)) }

    public init(_ fields: JSONFields) throws {
        self.init(role: try fields.string("role"), source: try fields.string("source"), remote: try fields.bool("remote"),
                  size: try fields.int64("size"), sha256: try fields.string("sha256"), etag: try fields.optionalString("etag"),
                  lastModified: try fields.optionalString("last_modified"), fetchedAt: try fields.optionalString("fetched_at"))
    }
}

extension TransitFeedDocument {
    public init(from decoder: any Decoder) throws { try self.init(JSONFields(decoder)) }

    public init(_ fields: JSONFields) throws {
        self.init(feed: try fields.string("feed"), firstDate: try fields.string("first_date"), lastDate: try fields.string("last_date"),
                  serviceDay: try fields.optionalString("service_day"), firstDeparture: try fields.optionalString("first_departure"),
                  lastArrival: try fields.optionalString("last_arrival"), daysLeft: try fields.optionalInt("days_left"),
                  feedEndDate: try fields.optionalString("feed_end_date"), lastCheck: try fields.optionalString("last_check"),
                  lastChange: try fields.optionalString("last_change"))
    }
}
