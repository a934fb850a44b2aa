import Foundation
import Planner
import Transit
import WireProtocol

/// Where the daemon keeps its data, where it listens and how much it logs.
///
/// Each setting is taken from, in order: a command-line flag, an environment variable, the
/// config file, the default. `docs/operations.md` lists them all.
///
/// ```swift
/// let configuration = try DaemonConfiguration.resolve(arguments: ["--log-level", "debug"],
///                                                     environment: ProcessInfo.processInfo.environment)
/// ```
public struct DaemonConfiguration: Hashable, Sendable {
    public var dataDirectory: String
    public var socketPath: String
    public var logLevel: LogLevel
    /// The config file that was read, if any.
    public var configFile: String?
    /// How long in-flight requests may run after SIGTERM before they are cancelled.
    public var shutdownGraceSeconds: Double
    /// Routino worker processes for street routing, per region.
    public var streetWorkers: Int
    /// One worker per street profile (walk, bike, car, wheelchair), so that `compare`'s street
    /// modes, asked at once, never wait for each other's worker. Idle workers cost nothing:
    /// each starts on first use.
    public static let defaultStreetWorkers = 4
    /// The most vehicle changes a transit journey may have.
    public var maxTransfers: Int
    /// What one GTFS feed may use when a region is imported (sizes, ratio, line, memory).
    public var gtfsLimits = GTFSLimits()
    /// How large an import's sources may be, and the free space a pipe's copy leaves.
    public var importLimits = ImportSourceLimits()
    /// Seconds one more vehicle change must save for a journey to take it.
    public var transferPenalty: Int = TransitRouter.defaultTransferPenalty
    /// What one client may cost: connections, idle time, requests in flight, queued output.
    public var connectionLimits = ConnectionLimits()
    /// Where gpsd listens; nil: the location comes only from `location.set`.
    public var gpsd: GpsdAddress?
    /// The instant the daemon's clock starts at (it then runs on); nil: the real time. For
    /// replaying an old timetable (tests, demos): "today" and "now" follow this clock.
    public var clockStart: Date?
    /// Days before a feed's last service day that the daemon starts warning (`FeedExpiryWatcher`).
    public var expiryWarningDays = 7
    /// Seconds a download of a region source may go without a byte before it counts as stalled.
    public var fetchStallTimeout: Double = 60
    /// Follow redirects of a source or realtime feed URL to another host or port
    /// (`--allow-cross-host-redirects`); off by default, so a feed cannot point the daemon elsewhere.
    public var allowCrossHostRedirects = false
    /// Seconds between the daemon's own checks of every region's sources; nil: never.
    public var updateInterval: TimeInterval? = 86_400
    /// What driving costs per kilometre; nil (the default): car options have no price.
    public var carCost: CarCost?
    /// Beyond these straight-line distances (metres) `compare` answers walk or bike `too_far`
    /// without asking Routino (`--compare-walk-limit-km`, `--compare-bike-limit-km`).
    public var comparedDistanceLimits = PlannerConfiguration().comparedDistanceLimits
    /// Desktop notifications (`--notify on|off`): reminders to leave and change notices.
    public var notify = true
    /// How long before leaving a plan's reminder comes, unless the plan sets its own (`--remind-lead`).
    public var remindLead: TimeInterval = 600
    /// How much later "In 5 min" sends a reminder again (`--remind-snooze`; tests shorten it).
    public var remindSnooze: TimeInterval = 300
    /// Where the web app is served (`--http 127.0.0.1:PORT`, loopback only); nil (the default): not served.
    public var http: WebAddress?
    /// Bytes of the web map's squares kept on disk (`--tile-cache-mb`, default 256 MiB); past it
    /// the squares used longest ago are removed.
    public var tileCacheBytes = 256 << 20

    public init(dataDirectory: String, socketPath: String, logLevel: LogLevel = .info, configFile: String? = nil,
                shutdownGraceSeconds: Double = 5, streetWorkers: Int = DaemonConfiguration.defaultStreetWorkers,
                maxTransfers: Int = 4) {
        self.dataDirectory = dataDirectory
        self.socketPath = socketPath
        self.logLevel = logLevel
        self.configFile = configFile
        self.shutdownGraceSeconds = shutdownGraceSeconds
        self.streetWorkers = streetWorkers
        self.maxTransfers = maxTransfers
    }

    public var databasePath: String { (dataDirectory as NSString).appendingPathComponent("usefulmap.sqlite") }

    /// The settings: flag name, environment variable, config-file key.
    static let settings: [(flag: String, environment: String, key: String)] = [
        ("--data-dir", "USEFULMAP_DATA_DIR", "data_dir"),
        ("--socket", DefaultSocketPath.environmentVariable, "socket"),
        ("--log-level", "USEFULMAP_LOG_LEVEL", "log_level"),
        ("--shutdown-grace", "USEFULMAP_SHUTDOWN_GRACE", "shutdown_grace"),
        ("--street-workers", "USEFULMAP_STREET_WORKERS", "street_workers"),
        ("--max-transfers", "USEFULMAP_MAX_TRANSFERS", "max_transfers"),
        ("--gtfs-max-file-mb", "USEFULMAP_GTFS_MAX_FILE_MB", "gtfs_max_file_mb"),
        ("--gtfs-max-feed-mb", "USEFULMAP_GTFS_MAX_FEED_MB", "gtfs_max_feed_mb"),
        ("--gtfs-max-ratio", "USEFULMAP_GTFS_MAX_RATIO", "gtfs_max_ratio"),
        ("--gtfs-max-line-kb", "USEFULMAP_GTFS_MAX_LINE_KB", "gtfs_max_line_kb"),
        ("--import-memory-mb", "USEFULMAP_IMPORT_MEMORY_MB", "import_memory_mb"),
        ("--osm-max-mb", "USEFULMAP_OSM_MAX_MB", "osm_max_mb"),
        ("--min-free-mb", "USEFULMAP_MIN_FREE_MB", "min_free_mb"),
        ("--transfer-penalty", "USEFULMAP_TRANSFER_PENALTY", "transfer_penalty"),
        ("--max-connections", "USEFULMAP_MAX_CONNECTIONS", "max_connections"),
        ("--idle-timeout", "USEFULMAP_IDLE_TIMEOUT", "idle_timeout"),
        ("--max-in-flight", "USEFULMAP_MAX_IN_FLIGHT", "max_in_flight"),
        ("--max-output-kb", "USEFULMAP_MAX_OUTPUT_KB", "max_output_kb"),
        ("--gpsd", "USEFULMAP_GPSD", "gpsd"),
        ("--clock-start", "USEFULMAP_CLOCK_START", "clock_start"),
        ("--expiry-warning", "USEFULMAP_EXPIRY_WARNING", "expiry_warning"),
        ("--fetch-stall-timeout", "USEFULMAP_FETCH_STALL_TIMEOUT", "fetch_stall_timeout"),
        ("--allow-cross-host-redirects", "USEFULMAP_ALLOW_CROSS_HOST_REDIRECTS", "allow_cross_host_redirects"),
        ("--update-interval", "USEFULMAP_UPDATE_INTERVAL", "update_interval"),
        ("--car-cost-per-km", "USEFULMAP_CAR_COST_PER_KM", "car_cost_per_km"),
        ("--compare-walk-limit-km", "USEFULMAP_COMPARE_WALK_LIMIT_KM", "compare_walk_limit_km"),
        ("--compare-bike-limit-km", "USEFULMAP_COMPARE_BIKE_LIMIT_KM", "compare_bike_limit_km"),
        ("--notify", "USEFULMAP_NOTIFY", "notify"),
        ("--remind-lead", "USEFULMAP_REMIND_LEAD", "remind_lead"),
        ("--remind-snooze", "USEFULMAP_REMIND_SNOOZE", "remind_snooze"),
        ("--http", "USEFULMAP_HTTP", "http"),
        ("--tile-cache-mb", "USEFULMAP_TILE_CACHE_MB", "tile_cache_mb"),
    ]
    /// Flags whose value is two words on the command line ("--car-cost-per-km 0.25 EUR").
    static let twoWordFlags: Set<String> = ["--car-cost-per-km"]
    /// Flags that mean "on" alone; an `on` or `off` after them is their value.
    static let switchFlags: Set<String> = ["--allow-cross-host-redirects"]

    /// The line a bad command line is answered with, after the one line naming what was wrong.
    public static let usageLine = "usage: usefulmapd [OPTION]... (usefulmapd --help lists every option)"

    /// `usefulmapd --help`: the usage line, then each option once with its default.
    public static let usage = """
    \(usageLine)

      --config FILE          config file (default $XDG_CONFIG_HOME/usefulmap/usefulmapd.conf
                             when it exists; env USEFULMAP_CONFIG)
      --data-dir DIR         database and regions (default $XDG_DATA_HOME/usefulmap;
                             env USEFULMAP_DATA_DIR; config data_dir)
      --socket PATH          Unix socket (default $XDG_RUNTIME_DIR/usefulmap/usefulmapd.sock;
                             env USEFULMAP_SOCKET; config socket)
      --log-level LEVEL      debug, info, notice, warning or error (default info;
                             env USEFULMAP_LOG_LEVEL; config log_level)
      --shutdown-grace S     seconds in-flight requests may finish after SIGTERM (default 5)
      --street-workers N     Routino worker processes per region (default 4)
      --max-transfers N      most vehicle changes in a transit journey, 0 to 8 (default 4)
      --gtfs-max-file-mb N   uncompressed MiB of one file of a GTFS zip (default 1024)
      --gtfs-max-feed-mb N   uncompressed MiB of the files read from one feed (default 2048)
      --gtfs-max-ratio N     compression ratio N:1 refused for files over 1 MiB (default 100)
      --gtfs-max-line-kb N   KiB of one line of a GTFS file (default 64)
      --import-memory-mb N   MiB a GTFS import may add to the daemon's memory (default 2048)
      --osm-max-mb N         MiB of an OSM file to import (default 16384)
      --min-free-mb N        MiB a copy of a piped source leaves free on the data
                             directory's disk (default 1024)
      --transfer-penalty S   seconds of arrival a vehicle change must save, 0 to 1800 (default 180)
      --max-connections N    open client connections at most (default 256)
      --idle-timeout S       seconds a silent connection with nothing running stays open (default 300)
      --max-in-flight N      unanswered requests per connection before reading pauses (default 16)
      --max-output-kb N      KiB queued for one client before a watcher loses old events and
                             another client is disconnected (default 4096)
      --gpsd ADDRESS|off     take the location from gpsd at HOST:PORT (port default 2947) or
                             a Unix socket path (default off: only `umctl location set`)
      --clock-start TIME     start the daemon's clock at this ISO 8601 instant, e.g. to
                             replay an old timetable (default: the real time)
      --expiry-warning DAYS  warn this many days before a transit feed's last service
                             day, 0 to 365 (default 7)
      --fetch-stall-timeout S  seconds a download of a source by URL may go without a byte
                             before it is given up (default 60)
      --allow-cross-host-redirects [on|off]  follow a source's or realtime feed's
                             redirect to another host or port (default off: refused)
      --update-interval T|never  how often the daemon checks every region's sources and
                             rebuilds what changed: seconds, or 30m, 6h, 1d (default 1d)
      --car-cost-per-km AMOUNT CURRENCY  what driving costs per km, e.g. 0.25 EUR
                             (ISO 4217): car options get an estimated price (default none)
      --compare-walk-limit-km N  ends farther apart than N km in a straight line: compare
                             answers the walk too_far without computing it (default 30)
      --compare-bike-limit-km N  the same for the bike (default 100)
      --notify on|off        desktop notifications on the session bus: reminders to leave
                             and change notices for today's plans (default on)
      --remind-lead TIME     how long before leaving a reminder comes, e.g. 10m, 1h
                             (default 10m; `umctl plan remind` sets a plan's own)
      --remind-snooze TIME   how much later "In 5 min" reminds again (default 5m)
      --http ADDRESS|off     serve the web app at 127.0.0.1:PORT, loopback only; `umctl web`
                             opens it (default off)
      --tile-cache-mb N      MiB of the web map's squares kept on disk; past it the
                             squares used longest ago go (default 256)
    Config file lines are `key = value`; `#` starts a comment.
    """

    /// Reads flags, environment and config file.
    /// - throws: `ConfigurationError` naming the flag, variable or file line that is wrong.
    public static func resolve(arguments: [String], environment: [String: String]) throws -> DaemonConfiguration {
        var flags: [String: String] = [:]
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let known = settings.map(\.flag) + ["--config"]
            var name = argument
            var value: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            guard known.contains(name) else { throw ConfigurationError.unknownFlag(argument) }
            if value == nil, switchFlags.contains(name) {
                let next = index + 1 < arguments.count ? arguments[index + 1].lowercased() : ""
                if next == "on" || next == "off" { index += 1 }
                value = next == "off" ? "off" : "on"
            }
            if value == nil {
                index += 1
                guard index < arguments.count else { throw ConfigurationError.missingValue(flag: name) }
                value = arguments[index]
                if twoWordFlags.contains(name), index + 1 < arguments.count, !arguments[index + 1].hasPrefix("--") {
                    index += 1
                    value = "\(arguments[index - 1]) \(arguments[index])"
                }
            }
            flags[name] = value
            index += 1
        }

        let home = environment["HOME"] ?? NSHomeDirectory()
        var configFile = flags["--config"] ?? environment["USEFULMAP_CONFIG"]
        let configRequired = configFile != nil
        if configFile == nil {
            let configHome = nonEmpty(environment["XDG_CONFIG_HOME"]) ?? "\(home)/.config"
            configFile = "\(configHome)/usefulmap/usefulmapd.conf"
        }
        var fileValues: [String: String] = [:]
        if let path = configFile {
            if FileManager.default.fileExists(atPath: path) {
                fileValues = try parseConfigFile(path)
            } else if configRequired {
                throw ConfigurationError.unreadableConfig(path: path, reason: "no such file")
            } else {
                configFile = nil
            }
        }

        func value(_ flag: String) -> String? {
            guard let setting = settings.first(where: { $0.flag == flag }) else { return nil }
            return flags[flag] ?? nonEmpty(environment[setting.environment]) ?? fileValues[setting.key]
        }

        let dataHome = nonEmpty(environment["XDG_DATA_HOME"]) ?? "\(home)/.local/share"
        var configuration = DaemonConfiguration(
            dataDirectory: value("--data-dir") ?? "\(dataHome)/usefulmap",
            socketPath: value("--socket") ?? DefaultSocketPath.resolve(environment: environment),
            configFile: configFile)
        if let text = value("--log-level") {
            guard let level = LogLevel(rawValue: text.lowercased()) else {
                throw ConfigurationError.invalidValue(setting: "log level", value: text,
                                                      expected: LogLevel.allCases.map(\.rawValue).joined(separator: ", "))
            }
            configuration.logLevel = level
        }
        if let text = value("--shutdown-grace") {
            guard let seconds = Double(text), seconds >= 0, seconds.isFinite else {
                throw ConfigurationError.invalidValue(setting: "shutdown grace", value: text, expected: "seconds ≥ 0")
            }
            configuration.shutdownGraceSeconds = seconds
        }
        if let text = value("--street-workers") {
            guard let workers = Int(text), (1...64).contains(workers) else {
                throw ConfigurationError.invalidValue(setting: "street workers", value: text, expected: "1 to 64")
            }
            configuration.streetWorkers = workers
        }
        if let text = value("--max-transfers") {
            guard let transfers = Int(text), (0...8).contains(transfers) else {
                throw ConfigurationError.invalidValue(setting: "max transfers", value: text, expected: "0 to 8")
            }
            configuration.maxTransfers = transfers
        }
        func count(_ flag: String, _ setting: String) throws -> Int64? {
            guard let text = value(flag) else { return nil }
            guard let number = Int64(text), (1...(1 << 30)).contains(number) else {
                throw ConfigurationError.invalidValue(setting: setting, value: text, expected: "a whole number ≥ 1")
            }
            return number
        }
        var limits = configuration.gtfsLimits
        limits.maxFileBytes = try count("--gtfs-max-file-mb", "GTFS file limit").map { $0 << 20 } ?? limits.maxFileBytes
        limits.maxFeedBytes = try count("--gtfs-max-feed-mb", "GTFS feed limit").map { $0 << 20 } ?? limits.maxFeedBytes
        limits.maxCompressionRatio = try count("--gtfs-max-ratio", "GTFS compression ratio") ?? limits.maxCompressionRatio
        limits.maxLineBytes = try count("--gtfs-max-line-kb", "GTFS line limit").map { Int($0) << 10 } ?? limits.maxLineBytes
        limits.maxImportMemoryBytes = try count("--import-memory-mb", "import memory").map { $0 << 20 } ?? limits.maxImportMemoryBytes
        configuration.gtfsLimits = limits
        var sources = configuration.importLimits
        sources.osm.bytes = try count("--osm-max-mb", "OSM file limit").map { $0 << 20 } ?? sources.osm.bytes
        sources.feed = ImportSourceLimits.feedLimit(limits.maxFeedBytes)
        sources.minimumFreeBytes = try count("--min-free-mb", "free space to keep").map { $0 << 20 } ?? sources.minimumFreeBytes
        configuration.importLimits = sources
        configuration.tileCacheBytes = try count("--tile-cache-mb", "tile cache size").map { Int($0) << 20 } ?? configuration.tileCacheBytes
        if let text = value("--transfer-penalty") {
            guard let seconds = Int(text), (0...1800).contains(seconds) else {
                throw ConfigurationError.invalidValue(setting: "transfer penalty", value: text, expected: "0 to 1800 seconds")
            }
            configuration.transferPenalty = seconds
        }
        var connections = configuration.connectionLimits
        connections.maxConnections = try count("--max-connections", "max connections").map { Int($0) } ?? connections.maxConnections
        connections.maxInFlight = try count("--max-in-flight", "max in flight").map { Int($0) } ?? connections.maxInFlight
        connections.maxOutputBytes = try count("--max-output-kb", "max output").map { Int($0) << 10 } ?? connections.maxOutputBytes
        if let text = value("--idle-timeout") {
            guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                throw ConfigurationError.invalidValue(setting: "idle timeout", value: text, expected: "seconds > 0")
            }
            connections.idleTimeoutSeconds = seconds
        }
        configuration.connectionLimits = connections
        if let text = value("--gpsd"), text.lowercased() != "off" {
            guard let address = GpsdAddress(text) else {
                throw ConfigurationError.invalidValue(setting: "gpsd address", value: text,
                                                      expected: "off, HOST:PORT, HOST, [IPv6]:PORT or an absolute socket path")
            }
            configuration.gpsd = address
        }
        if let text = value("--clock-start") {
            guard let start = WireTime.date(from: text) else {
                throw ConfigurationError.invalidValue(setting: "clock start", value: text,
                                                      expected: "an ISO 8601 time with its offset, e.g. 2022-01-12T07:00:00+02:00")
            }
            configuration.clockStart = start
        }
        if let text = value("--expiry-warning") {
            guard let days = Int(text), (0...365).contains(days) else {
                throw ConfigurationError.invalidValue(setting: "expiry warning", value: text, expected: "0 to 365 days")
            }
            configuration.expiryWarningDays = days
        }
        if let text = value("--fetch-stall-timeout") {
            guard let seconds = Double(text), seconds >= 1, seconds <= 3600 else {
                throw ConfigurationError.invalidValue(setting: "fetch stall timeout", value: text, expected: "1 to 3600 seconds")
            }
            configuration.fetchStallTimeout = seconds
        }
        if let text = value("--allow-cross-host-redirects") {
            switch text.lowercased() {
            case "on": configuration.allowCrossHostRedirects = true
            case "off": configuration.allowCrossHostRedirects = false
            default: throw ConfigurationError.invalidValue(setting: "allow cross-host redirects", value: text, expected: "on or off")
            }
        }
        if let text = value("--update-interval") {
            if ["never", "off"].contains(text.lowercased()) {
                configuration.updateInterval = nil
            } else {
                guard let seconds = DurationText.seconds(text, bareUnit: 1), seconds >= 1 else {
                    throw ConfigurationError.invalidValue(setting: "update interval", value: text,
                                                          expected: "never, or a duration of at least 1 s: 45, 30m, 6h, 1d")
                }
                configuration.updateInterval = seconds
            }
        }
        if let text = value("--car-cost-per-km"), text.lowercased() != "none" {
            guard let money = Money(parsing: text) else {
                throw ConfigurationError.invalidValue(setting: "car cost per km", value: text,
                                                      expected: "an amount ≥ 0 and an ISO 4217 currency, e.g. 0.25 EUR")
            }
            configuration.carCost = CarCost(perKilometre: money)
        }
        for (flag, mode) in [("--compare-walk-limit-km", TravelMode.walk), ("--compare-bike-limit-km", .bike)] {
            guard let text = value(flag) else { continue }
            guard let kilometres = Double(text), kilometres >= 1, kilometres <= 20_000 else {
                throw ConfigurationError.invalidValue(setting: "compare \(mode.rawValue) limit", value: text,
                                                      expected: "1 to 20000 km")
            }
            configuration.comparedDistanceLimits[mode] = kilometres * 1000
        }
        if let text = value("--notify") {
            switch text.lowercased() {
            case "on": configuration.notify = true
            case "off": configuration.notify = false
            default: throw ConfigurationError.invalidValue(setting: "notify", value: text, expected: "on or off")
            }
        }
        for (flag, setting, limit) in [("--remind-lead", "reminder lead", 86_400.0), ("--remind-snooze", "reminder snooze", 86_400.0)] {
            guard let text = value(flag) else { continue }
            guard let seconds = DurationText.seconds(text), seconds <= limit, flag == "--remind-lead" || seconds > 0 else {
                throw ConfigurationError.invalidValue(setting: setting, value: text, expected: "a duration up to a day, e.g. 10m, 90s, 1h")
            }
            if flag == "--remind-lead" { configuration.remindLead = seconds } else { configuration.remindSnooze = seconds }
        }
        if let text = value("--http"), text.lowercased() != "off" {
            configuration.http = try WebAddress(text)
        }
        return configuration
    }


    static func parseConfigFile(_ path: String) throws -> [String: String] {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigurationError.unreadableConfig(path: path, reason: "\(error.localizedDescription)")
        }
        var values: [String: String] = [:]
        let keys = Set(settings.map(\.key))
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first
                .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            if line.isEmpty { continue }
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, keys.contains(parts[0]) else {
                throw ConfigurationError.badConfigLine(path: path, line: number + 1, text: String(raw))
            }
            values[parts[0]] = parts[1]
        }
        return values
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}

/// A configuration the daemon refuses to start with.
public enum ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    case unknownFlag(String)
    case missingValue(flag: String)
    case invalidValue(setting: String, value: String, expected: String)
    case unreadableConfig(path: String, reason: String)
    case badConfigLine(path: String, line: Int, text: String)

    public var description: String {
        switch self {
        case .unknownFlag(let flag): "unknown option \(flag)"
        case .missingValue(let flag): "\(flag) needs a value"
        case let .invalidValue(setting, value, expected): "invalid \(setting) \"\(value)\": expected \(expected)"
        case let .unreadableConfig(path, reason): "cannot read config file \(path): \(reason)"
        case let .badConfigLine(path, line, text): "\(path):\(line): not a known `key = value` setting: \(text)"
        }
    }
}
