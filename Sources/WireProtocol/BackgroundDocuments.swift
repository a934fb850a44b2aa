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
    public var accepted: [String: Int]
    /// Fixes ignored, per reason (`no_2d_fix`, `no_accuracy`, `accuracy_over_30m`, `older_than_latest`, `invalid`).
    public var ignored: [String: Int]
    /// Each fence that is on and its state (`unknown`, `inside`, `outside`).
    public var fences: [String: String]

    public init(source: String, gpsd: String? = nil, connected: Bool? = nil, connections: Int? = nil,
                lastError: String? = nil, currentFrom: String? = nil, accepted: [String: Int], ignored: [String: Int],
                fences: [String: String]) {
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

    enum CodingKeys: String, CodingKey {
        case source, gpsd, connected, connections, accepted, ignored, fences
        case lastError = "last_error"
        case currentFrom = "current_from"
    }
}

/// `status.refresh_queue`: plans being refreshed in the background after a timetable changed.
public struct RefreshQueueDocument: Hashable, Sendable, Codable {
    /// The plan being refreshed now.
    public var running: Int64?
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

    enum CodingKeys: String, CodingKey {
        case running, queued, refreshed, retried, failed
        case leftAlone = "left_alone"
    }
}
