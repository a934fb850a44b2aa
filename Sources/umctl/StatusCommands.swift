import FoundationEssentials
import Glibc
import WireProtocol

struct StatusCommand: UmctlCommand {
    static let path = ["status"]
    static let spec = CommandSpec(path: path, abstract: "Show the daemon's version, database, regions and counters.")
    init(_ arguments: ParsedArguments) throws {}
    func request() throws -> CommandRequest<StatusDocument> { try CommandRequest(Endpoints.status, Params.Empty()) }
    func render(_ answer: StatusDocument) throws -> String { Render.status(answer) }
}

struct WatchCommand: UmctlCommand {
    static let path = ["watch"]
    static let spec = CommandSpec(
        path: path, abstract: "Print daemon events (plan recomputed, pending update, import progress) until interrupted.",
        discussion: "Each event is one line; with --json, one JSON notification per line.")
    init(_ arguments: ParsedArguments) throws {}
    func request() throws -> CommandRequest<WatchEndDocument> { try CommandRequest(Endpoints.watch, Params.Empty()) }
    func render(_ answer: WatchEndDocument) throws -> String { "watch ended: the daemon is stopping" }

    func show(_ notification: WireNotification, json: Bool) {
        if json {
            if let line = try? WireCodec.line(for: notification) { StandardStream.writeOutput(line) }
            return
        }
        guard case .object(let fields) = notification.params else { return }
        let kind = fields["kind"]?.stringValue ?? "event"
        let details = fields.filter { $0.key != "kind" && $0.key != "request_id" && $0.key != "at" }
            .sorted { $0.key < $1.key }
            .map { key, value -> String in
                switch value {
                case .string(let text): "\(key)=\(text)"
                case .number(let number): "\(key)=\(number.rounded() == number ? String(Int64(number)) : String(number))"
                default: "\(key)=\(String(decoding: (try? WireCodec.encoder.encode(value)) ?? Data(), as: UTF8.self))"
                }
            }
        // Unbuffered, so a pipe sees each event as it happens.
        // The clock is this machine's, named on every line (events come from every region).
        let clock = "\(Render.machineClock(fields["at"]?.stringValue, withDate: false)) \(Render.machineZone)"
        StandardStream.writeOutput(Data("\(clock) \(kind) \(details.joined(separator: " "))\n".utf8))
    }
}

struct RegionImportCommand: UmctlCommand {
    static let path = ["region", "import"]
    static let spec = CommandSpec(
        path: path, abstract: "Import an OpenStreetMap extract (and GTFS feeds) as a region, with live progress.",
        positionals: [.init(name: "NAME", help: "region name: lowercase letters, digits, - and _")],
        options: [.init(name: "--osm", valueName: "FILE|URL", help: "the .osm.pbf extract, a file or an http(s) URL (required)"),
                  .init(name: "--gtfs", valueName: "FILE|URL", help: "a GTFS zip, a file or an http(s) URL; repeat for several feeds",
                        repeatable: true),
                  .init(name: "--time-zone", valueName: "ZONE",
                        help: "the region's IANA zone (default: the feeds' agency_timezone, else derived from the position)"),
                  .init(name: "--no-transit", valueName: nil, help: "drop the region's transit (without --gtfs its feeds are kept)"),
                  .init(name: "--force", valueName: nil, help: "import again even if the files did not change")],
        discussion: "Re-importing without --gtfs keeps the region's current feeds; the report says how the zone was decided. "
            + "A URL is fetched by the daemon (an interrupted download resumes on the next import); only http and https are accepted.")
    var name: String
    var osm: String?
    var gtfs: [String]
    var force: Bool
    var timeZone: String?
    var noTransit: Bool

    init(_ arguments: ParsedArguments) throws {
        name = try arguments.string("NAME")
        osm = arguments.optional("--osm")
        gtfs = arguments.all("--gtfs")
        force = arguments.flag("--force")
        timeZone = arguments.optional("--time-zone")
        noTransit = arguments.flag("--no-transit")
    }

    func validate() throws {
        guard let osm else { throw UsageError("--osm FILE is required") }
        if noTransit && !gtfs.isEmpty { throw UsageError("give --gtfs or --no-transit, not both") }
        for file in [osm] + gtfs where !Self.isURL(file) {
            if let problem = ReadableFile.problem(absolute(file), shownAs: file) { throw UsageError(problem) }
        }
    }

    /// The daemon has its own working directory, so paths go as absolute ones.
    func absolute(_ path: String) -> String {
        path.hasPrefix("/") || Self.isURL(path) ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// Text with a scheme (`https://`, `ftp://`, `file://`) goes to the daemon as it is: the
    /// daemon fetches http and https, and says why it refuses any other scheme.
    static func isURL(_ text: String) -> Bool {
        guard let separator = text.firstRange(of: "://") else { return false }
        let scheme = text[..<separator.lowerBound]
        return !scheme.isEmpty && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    /// The files go open with the request, so the daemon reads them whatever its sandbox lets
    /// it see by path (they stay open until umctl exits).
    /// With a URL among the sources, the files go by path (the daemon reads them itself).
    func request() throws -> CommandRequest<RegionImportDocument> {
        let paths = [absolute(osm ?? "")] + gtfs.map(absolute)
        if paths.contains(where: Self.isURL) {
            return try CommandRequest(Endpoints.regionImport,
                                      Params.RegionImport(name: name, osm: paths[0], gtfs: Array(paths.dropFirst()),
                                                          force: force ? true : nil, timeZone: timeZone,
                                                          noTransit: noTransit ? true : nil))
        }
        guard paths.count <= DescriptorPassing.maximumPerMessage else {
            throw UsageError("at most \(DescriptorPassing.maximumPerMessage - 1) --gtfs feeds in one import")
        }
        let files = try paths.map { path -> Int32 in
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw UsageError(ReadableFile.reason(path, errno: errno)) }
            return descriptor
        }
        return try CommandRequest(Endpoints.regionImport,
                                  Params.RegionImport(name: name, osm: paths[0], gtfs: Array(paths.dropFirst()),
                                                      force: force ? true : nil, timeZone: timeZone,
                                                      noTransit: noTransit ? true : nil, passedFiles: true),
                                  files: files)
    }

    func render(_ region: RegionImportDocument) throws -> String {
        if region.skipped { return "region \(region.name) is up to date (same files); use --force to import again" }
        let notes = region.notes.map { "\nnote: \($0)" }.joined()
        return "imported region \(region.name) in \(Render.elapsed(region.importDurationS)) (transit: \(region.hasTransit ? "yes" : "no"))"
            + "\ntime zone \(region.timeZone ?? "?"): \(region.timeZoneSource ?? "")" + notes
    }

    func show(_ notification: WireNotification, json: Bool) {
        if json {
            if let line = try? WireCodec.line(for: notification) { StandardStream.writeOutput(line) }
            return
        }
        ProgressLine.standardError.show(ProgressLine.text(
            phase: notification.params["phase"]?.stringValue ?? "", detail: notification.params["detail"]?.stringValue ?? "",
            overall: notification.params["overall"]?.numberValue, fraction: notification.params["fraction"]?.numberValue))
    }
}

struct RegionListCommand: UmctlCommand {
    static let path = ["region", "list"]
    static let spec = CommandSpec(
        path: path, abstract: "List imported regions, each feed's covered dates, days left, last check and change, and service hours on one day.",
        options: [.init(name: "--date", valueName: "DATE", help: "the day whose service hours to show, YYYY-MM-DD (default today)")])
    var date: String?
    init(_ arguments: ParsedArguments) throws { date = arguments.optional("--date") }
    func validate() throws {
        if let date, DayMark.dayNumber(date) == nil || date.count != 10 { throw UsageError("--date must be YYYY-MM-DD, got \(date)") }
    }
    func request() throws -> CommandRequest<RegionListDocument> { try CommandRequest(Endpoints.regionList, Params.ServiceDay(date: date)) }
    func render(_ answer: RegionListDocument) throws -> String {
        let regions = answer.regions
        if regions.isEmpty { return "(no regions imported)" }
        let day = date ?? regions.lazy.compactMap { $0.transitFeeds?.first?.serviceDay }.first
        func perFeed(_ feeds: [TransitFeedDocument], _ text: (TransitFeedDocument) -> String) -> String {
            feeds.isEmpty ? "-" : feeds.map(text).joined(separator: "; ")
        }
        // A region whose last check failed says so under the table (it keeps serving).
        let failures = regions.compactMap { region -> String? in
            guard let check = region.lastCheck, let error = check.error else { return nil }
            return "\nnote: region \(region.name) was not updated at \(Render.machineClock(check.at)): \(error.message)"
                + (check.nextCheck.map { "; tried again at \(Render.machineClock($0))" } ?? "")
        }
        return Render.table(["name", "transit timetable", "service hours" + (day.map { " \($0)" } ?? ""), "time zone",
                             "imported (\(Render.machineZone))", "feed last checked", "feed last changed", "zone decided by",
                             "sources"],
                            regions.map { region in
            let feeds = region.transitFeeds ?? []
            return [region.name,
                    feeds.isEmpty ? "none" : perFeed(feeds) { feed in
                        "\(feed.feed) \(feed.firstDate) – \(feed.lastDate)" + (DayMark.daysLeft(feed).map { " (\($0))" } ?? "")
                    },
                    perFeed(feeds, DayMark.serviceHours), region.timeZone ?? "", Render.machineClock(region.importedAt),
                    perFeed(feeds) { Render.machineClock($0.lastCheck) }, perFeed(feeds) { Render.machineClock($0.lastChange) },
                    region.timeZoneSource ?? "(not recorded)", Self.sources(region.sources ?? [])]
        }) + failures.joined() + regions.flatMap { region in
            (region.realtimeFeeds ?? []).map { "\n" + Render.realtimeFeed($0, region: region.name) }
        }.joined()
    }
}

extension RegionListCommand {
    /// A URL as the daemon shows it (credentials hidden), a file by its name.
    static func sources(_ sources: [RegionSourceDocument]) -> String {
        sources.isEmpty ? "-" : sources.map { source in
            source.remote ? source.source : URL(fileURLWithPath: source.source).lastPathComponent
        }.joined(separator: ", ")
    }
}

struct RegionUpdateCommand: UmctlCommand {
    static let path = ["region", "update"]
    static let spec = CommandSpec(
        path: path, abstract: "Check regions' sources and rebuild only what changed.",
        positionals: [.init(name: "NAME", help: "the regions to check (default: every region)", optional: true, variadic: true)],
        options: [.init(name: "--force", valueName: nil, help: "fetch every URL whole and rebuild even if nothing changed"),
                  .init(name: "--feed", valueName: "FEED",
                        help: "check only this GTFS feed of the one region named (its name as `status` shows it, without .zip, "
                            + "or its position from 1); the other sources are not fetched")],
        discussion: "A URL is asked whether it changed (If-None-Match / If-Modified-Since), a file by its size, time and sha256. "
            + "A new GTFS feed rebuilds the timetable and keeps the streets; a new OSM extract rebuilds the streets and footpaths. "
            + "With --feed only that feed is asked; if it changed, it alone is parsed and the timetable rebuilt from it and the "
            + "other feeds' parts kept at import, the streets kept. A region whose source can't be checked keeps serving and says why.")
    var names: [String]
    var force: Bool
    var feed: String?
    init(_ arguments: ParsedArguments) throws {
        names = arguments.words("NAME")
        force = arguments.flag("--force")
        feed = arguments.optional("--feed")
    }
    func validate() throws {
        if feed != nil, names.count != 1 { throw UsageError("--feed FEED needs exactly one region: umctl region update NAME --feed FEED") }
    }
    func request() throws -> CommandRequest<RegionUpdateDocument> {
        try CommandRequest(Endpoints.regionUpdate, Params.RegionUpdate(names: names.isEmpty ? nil : names, force: force ? true : nil,
                                                                       feed: feed))
    }
    func render(_ answer: RegionUpdateDocument) throws -> String {
        if answer.regions.isEmpty { return "(no regions imported)" }
        return answer.regions.map { region in
            var lines = ["region \(region.name): " + (region.error.map { "not updated: \($0.message)" }
                ?? (region.rebuilt == "nothing" ? "nothing changed" : "rebuilt \(region.rebuilt)"))]
            for source in region.sources {
                let state = source.error.map { "failed: \($0.message)" } ?? (source.changed ? "changed" : "unchanged")
                lines.append("  \(source.role) \(source.source): \(state)")
            }
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }
}

struct RegionSetCommand: UmctlCommand {
    static let path = ["region", "set"]
    static let spec = CommandSpec(
        path: path, abstract: "Change a region without importing it again: its time zone, its realtime feeds.",
        positionals: [.init(name: "NAME", help: "the region")],
        options: [.init(name: "--time-zone", valueName: "ZONE", help: "its IANA time zone, e.g. Asia/Tokyo"),
                  .init(name: "--realtime", valueName: "[FEED=]URL",
                        help: "a GTFS-Realtime feed (http(s):// URL or file) laid over the timetable; FEED= ties it to one of the "
                            + "region's GTFS feeds (its name as `status` shows it, without .zip, or its position from 1); "
                            + "repeat for several, none removes them",
                        repeatable: true),
                  .init(name: "--realtime-interval", valueName: "SECONDS",
                        help: "how often each feed is fetched: 30s (default), 1m, … at least 10s")],
        discussion: "Plans in the region show their times in the new zone the next time they are shown or computed. "
            + "Realtime feeds (TripUpdates and Alerts) are polled in the background; today's plans follow their delays, "
            + "cancellations and alerts, and `umctl status` shows each feed's state. Setting the feeds again polls them at once. "
            + "A feed tied to a GTFS feed (--realtime south=https://…) names that feed's trips, routes and stops alone, "
            + "where the region's feeds share IDs; an untied one's trip that several feeds have is refused (ambiguous_trip).")
    var name: String
    var timeZone: String?
    var realtime: [String]?
    var interval: Int?
    /// The daemon's bounds for `--realtime-interval`, checked here so the refusal names the option.
    static let intervalRange = 10...86_400
    init(_ arguments: ParsedArguments) throws {
        name = try arguments.string("NAME")
        timeZone = arguments.optional("--time-zone")
        let feeds = arguments.all("--realtime")
        realtime = feeds.isEmpty ? nil : feeds == ["none"] ? [] : feeds.map(Self.absoluteUnlessURL)
        interval = try arguments.optional("--realtime-interval").map { text in
            guard let seconds = DurationText.seconds(text, bareUnit: 1), seconds < Double(Int.max) else {
                throw UsageError("--realtime-interval \"\(text)\" is not a duration: use 30s, 2m or seconds (30)")
            }
            guard Self.intervalRange.contains(Int(seconds)) else {
                throw UsageError("--realtime-interval \"\(text)\" must be from 10s to 24h")
            }
            return Int(seconds)
        }
    }
    func validate() throws {
        guard timeZone != nil || realtime != nil || interval != nil else {
            throw UsageError("give --time-zone ZONE, --realtime URL or --realtime-interval SECONDS")
        }
        if let realtime, realtime.isEmpty, interval != nil { throw UsageError("--realtime none takes no --realtime-interval") }
        if let feeds = realtime, feeds.count > 1, feeds.contains("none") { throw UsageError("--realtime none removes every feed: give it alone") }
    }
    func request() throws -> CommandRequest<RegionDocument> {
        try CommandRequest(Endpoints.regionSet, Params.RegionSet(name: name, timeZone: timeZone, realtime: realtime,
                                                                 realtimeIntervalS: interval))
    }
    func render(_ region: RegionDocument) throws -> String {
        var lines = ["region \(region.name): time zone \(region.timeZone ?? "?") (\(region.timeZoneSource ?? ""))"]
        if realtime != nil || interval != nil {
            let feeds = region.realtimeFeeds ?? []
            lines.append(feeds.isEmpty ? "no realtime feeds" : "realtime feeds (polled now, then every \(feeds[0].intervalS) s):")
            lines += feeds.map { "  \($0.source)" + ($0.gtfsFeed.map { " (GTFS feed \($0))" } ?? "") }
        }
        return lines.joined(separator: "\n")
    }

    /// A file path made absolute (the daemon reads it from its own directory); URLs as given;
    /// a tie to a GTFS feed (`FEED=`) kept in front.
    static func absoluteUnlessURL(_ text: String) -> String {
        let (gtfsFeed, source) = RealtimeFeedEntry.split(text)
        let absolute = source.contains("://") || source.hasPrefix("/") ? source : FileManager.default.currentDirectoryPath + "/" + source
        return RealtimeFeedEntry.joined(gtfsFeed: gtfsFeed, source: absolute)
    }
}

struct RegionRemoveCommand: UmctlCommand {
    static let path = ["region", "remove"]
    static let spec = CommandSpec(path: path, abstract: "Remove a region and its files.",
                                  positionals: [.init(name: "NAME", help: "the region to remove")])
    var name: String
    init(_ arguments: ParsedArguments) throws { name = try arguments.string("NAME") }
    func request() throws -> CommandRequest<RemovedDocument> { try CommandRequest(Endpoints.regionRemove, Params.Name(name: name)) }
    func render(_ answer: RemovedDocument) throws -> String { "removed region \(answer.removed)" }
}
