/// `status.location`: where fixes come from and what became of them.
public struct LocationStatusDocument: Hashable, Sendable, Codable {
    /// `manual` (only `location.set`) or `gpsd`.
    public var source: String
    /// The gpsd address, when the source is gpsd.
    public var gpsd: String?
    /// Whether the daemon is connected to gpsd right now.
    public var connected: Bool?
    /// Connections made to gpsd since the daemon started (more than 1: it reconnected).
    public var connections: Int?
    public var lastError: String?
    /// Where the current fix came from (`manual` or `gpsd`), nil without one.
    public var currentFrom: String?
    /// Fixes taken, per source.
    public var accepted: [CountDocument]
    /// Fixes ignored, per reason (`no_2d_fix`, `no_accuracy`, `accuracy_over_30m`, `older_than_latest`,
    /// `in_the_future`, `invalid`).
    public var ignored: [CountDocument]
    /// Each fence that is on and its state (`unknown`, `inside`, `outside`).
    public var fences: [FenceStateDocument]

    public init(source: String, gpsd: String? = nil, connected: Bool? = nil, connections: Int? = nil,
                lastError: String? = nil, currentFrom: String? = nil, accepted: [CountDocument], ignored: [CountDocument],
                fences: [FenceStateDocument]) {
        self.source = source
        self.gpsd = gpsd
        self.connected = connected
        self.connections = connections
        self.lastError = lastError
        self.currentFrom = currentFrom
        self.accepted = accepted
        self.ignored = ignored
        self.fences = fences
    }
}

/// How many of something, by name (a list, so names are never rewritten as JSON keys).
public struct CountDocument: Hashable, Sendable, Codable {
    public var name: String
    public var count: Int

    public init(name: String, count: Int) {
        self.name = name
        self.count = count
    }
}

/// A fenced place and its state now.
public struct FenceStateDocument: Hashable, Sendable, Codable {
    public var place: String
    public var state: String

    public init(place: String, state: String) {
        self.place = place
        self.state = state
    }
}

/// A saved place's geofence.
public struct FenceDocument: Hashable, Sendable, Codable {
    public var on: Bool
    /// Enter radius in metres.
    public var radiusM: Double
    /// Exit radius in metres (1.5 × the enter radius).
    public var exitRadiusM: Double
    /// `unknown`, `inside`, `outside`, or `off`.
    public var state: String

    public init(on: Bool, radiusM: Double, exitRadiusM: Double, state: String) {
        self.on = on
        self.radiusM = radiusM
        self.exitRadiusM = exitRadiusM
        self.state = state
    }
}

/// `place.fence` result.
public struct PlaceFenceDocument: Hashable, Sendable, Codable {
    public var name: String
    public var geofence: FenceDocument?

    public init(name: String, geofence: FenceDocument?) {
        self.name = name
        self.geofence = geofence
    }
}

/// A fix as a visit or an `arrived`/`left` event reports it.
public struct FixDocument: Hashable, Sendable, Codable {
    public var lat: Double
    public var lon: Double
    public var accuracyM: Double
    public var time: String

    public init(lat: Double, lon: Double, accuracyM: Double, time: String) {
        self.lat = lat
        self.lon = lon
        self.accuracyM = accuracyM
        self.time = time
    }
}

/// An arrival at or a departure from a fenced saved place.
public struct VisitDocument: Hashable, Sendable, Codable {
    public var place: String
    /// `arrived` or `left`.
    public var event: String
    /// The deciding fix's time.
    public var time: String
    public var fix: FixDocument
    /// When the daemon recorded it.
    public var at: String

    public init(place: String, event: String, time: String, fix: FixDocument, at: String) {
        self.place = place
        self.event = event
        self.time = time
        self.fix = fix
        self.at = at
    }
}

/// `history.visits` result, newest first.
public struct VisitHistoryDocument: Hashable, Sendable, Codable {
    public var entries: [VisitDocument]

    public init(entries: [VisitDocument]) { self.entries = entries }
}

/// `status.refresh_queue`: plans being refreshed in the background after a timetable changed.
public struct RefreshQueueDocument: Hashable, Sendable, Codable {
    /// The plan being refreshed now (null when none: the key is always present).
    @NullWhenNil public var running: Int64?
    /// Plans waiting, in order.
    public var queued: [Int64]
    public var refreshed: Int
    /// Refreshes started again because the user edited the plan meanwhile.
    public var retried: Int
    /// Plans left alone because their day had passed.
    public var leftAlone: Int
    public var failed: Int

    public init(running: Int64?, queued: [Int64], refreshed: Int, retried: Int, leftAlone: Int, failed: Int) {
        self.running = running
        self.queued = queued
        self.refreshed = refreshed
        self.retried = retried
        self.leftAlone = leftAlone
        self.failed = failed
    }
}

// MARK: - Reading `status`'s parts (`JSONFields`: the one decoder of these documents)

extension LocationStatusDocument {
    public init(from decoder: any Decoder) throws { try self.init(JSONFields(decoder)) }

    public init(_ fields: JSONFields) throws {
        self.init(source: try fields.string("source"), gpsd: try fields.optionalString("gpsd"), connected: try fields.optionalBool("connected"),
                  connections: try fields.optionalInt("connections"), lastError: try fields.optionalString("last_error"),
                  currentFrom: try fields.optionalString("current_from"), accepted: try fields.objects("accepted") { try CountDocument($0) },
                  ignored: try fields.objects("ignored") { try CountDocument($0) },
                  fences: try fields.objects("fences") { try FenceStateDocument($0) })
    }
}

extension CountDocument {
    public init(from decoder: any Decoder) throws { try self.init(JSONFields(decoder)) }

    public init(_ fields: JSONFields) throws {
        self.init(name: try fields.string("name"), count: try fields.int("count"))
    }
}

extension FenceStateDocument {
    public init(from decoder: any Decoder) throws { try self.init(JSONFields(decoder)) }

    public init(_ fields: JSONFields) throws {
        self.init(place: try fields.string("place"), state: try fields.string("state"))
    }
}

extension RefreshQueueDocument {
    public init(from decoder: any Decoder) throws { try self.init(JSONFields(decoder)) }

    public init(_ fields: JSONFields) throws {
        self.init(running: try fields.optionalInt64("running"), queued: try fields.int64s("queued"), refreshed: try fields.int("refreshed"),
                  retried: try fields.int("retried"), leftAlone: try fields.int("left_alone"), failed: try fields.int("failed"))
    }
}
