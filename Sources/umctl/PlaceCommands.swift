import FoundationEssentials
import WireProtocol

let placeHelp = "a saved place's name, LAT,LON, @here, or text to search (first result)"

struct SearchCommand: UmctlCommand {
    static let kinds = ["address", "street", "poi", "stop"]
    static let path = ["search"]
    static let spec = CommandSpec(
        path: path, abstract: "Search addresses, places, streets and stops in the imported regions (recorded in search history).",
        positionals: [.init(name: "TEXT", help: "a name, an address (\"Hämeenkatu 10\", \"10 Downing Street\"), a kind of place (\"pharmacy\", \"cafe Hämeenkatu\"); typos are forgiven", variadic: true)],
        options: [.init(name: "--near", valueName: "PLACE", help: "rank by distance to this place (\(placeHelp))"),
                  .init(name: "--kind", valueName: "KIND", help: "only this kind of result: \(kinds.joined(separator: ", "))"),
                  .init(name: "--limit", valueName: "N", help: "at most N results (1-100, default 10)"),
                  .init(name: "--region", valueName: "NAME", help: "search only this region"),
                  .init(name: "--within", valueName: "BOX", help: "only results inside MINLAT,MINLON,MAXLAT,MAXLON"),
                  .init(name: "--complete", valueName: nil, help: "complete text as it is typed: up to 10 names, one a line (not recorded)")],
        discussion: """
            Every region is searched and the answers ranked as one list: exact names, then prefixes, then typos; \
            within each, places near --near (else the current location) first, then the more important (stations, main roads). \
            When only typos match, the answer starts with "did you mean …". An address whose number is missing answers \
            with the nearest number on that street, marked approximate.
            """)
    var text: String
    var near: String?
    var kind: String?
    var limit: Int?
    var region: String?
    var within: WireBox?
    var complete: Bool

    init(_ arguments: ParsedArguments) throws {
        text = try arguments.string("TEXT")
        near = arguments.optional("--near")
        kind = arguments.optional("--kind")
        limit = try arguments.optionalInt("--limit")
        region = arguments.optional("--region")
        within = try arguments.optional("--within").map(Self.box)
        complete = arguments.flag("--complete")
    }

    /// `MINLAT,MINLON,MAXLAT,MAXLON`.
    static func box(_ text: String) throws -> WireBox {
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingBlanks()) }
        guard numbers.count == 4, let minLat = numbers[0], let minLon = numbers[1], let maxLat = numbers[2], let maxLon = numbers[3] else {
            throw UsageError("--within must be MINLAT,MINLON,MAXLAT,MAXLON (four numbers), got \"\(text)\"")
        }
        return WireBox(minLat: minLat, minLon: minLon, maxLat: maxLat, maxLon: maxLon)
    }

    func validate() throws {
        try Check.oneOf(kind, Self.kinds, "--kind")
        if let limit, !(1...100).contains(limit) { throw UsageError("--limit must be 1 to 100, got \(limit)") }
        if let near { try Check.place(near, "--near") }
        if let within, within.minLat >= within.maxLat || within.minLon >= within.maxLon {
            throw UsageError("--within: each minimum must be below its maximum (MINLAT,MINLON,MAXLAT,MAXLON)")
        }
    }

    func request() throws -> CommandRequest<SearchDocument> {
        try CommandRequest(complete ? Endpoints.searchComplete : Endpoints.search,
                           Params.Search(text: text, near: near, kind: kind, limit: limit, region: region, within: within))
    }

    func render(_ answer: SearchDocument) throws -> String {
        if complete { return answer.results.isEmpty ? "(none)" : answer.results.map(\.name).joined(separator: "\n") }
        let list = Render.places(answer.results.map {
            ($0.address ?? $0.name, $0.kind, $0.lat, $0.lon, $0.distanceM, $0.region, $0.approximate.map { "approximate: \($0)" })
        })
        let notes = (Render.matchNotes(answer.near.map { [$0] } ?? []) + (answer.notes ?? []).map { "note: \($0)" })
            .map { $0 + "\n" }.joined()
        return notes + (answer.didYouMean.map { "did you mean \"\($0)\"?\n\(list)" } ?? list)
    }
}

struct WhereCommand: UmctlCommand {
    static let path = ["where"]
    static let spec = CommandSpec(
        path: path, abstract: "Name what is at a place: the nearest address, place and street, with distances.",
        positionals: [.init(name: "PLACE", help: "LAT,LON (or \(placeHelp))")],
        discussion: "A plan node given as coordinates is shown with the first line's label: an address or place within 50 m, else the street within 300 m.")
    var place: String

    init(_ arguments: ParsedArguments) throws {
        place = try arguments.string("PLACE")
    }

    func validate() throws { try Check.place(place, "PLACE") }

    func request() throws -> CommandRequest<WhereDocument> {
        try CommandRequest(Endpoints.where, Params.Where(place: place))
    }

    func render(_ answer: WhereDocument) throws -> String {
        let here = Render.coordinate(answer.lat, answer.lon)
        guard answer.region != nil else { return "\(here) is outside every imported region" }
        let rows = [("address", answer.address), ("place", answer.place), ("street", answer.street)].compactMap { label, result in
            result.map { [label, $0.address ?? $0.name, $0.distanceM.map { Render.distance($0) } ?? "", $0.kind] }
        }
        guard !rows.isEmpty else { return "\(here): nothing named within 500 m" }
        // The label needs an address or place within 50 m, or a street within 300 m.
        let heading = "\(here): \(answer.label ?? "no name (nothing within 50 m, no street within 300 m)")"
        return heading + "\n" + Render.table(["nearest", "name", "distance", "kind"], rows)
    }
}

struct PlaceSaveCommand: UmctlCommand {
    static let path = ["place", "save"]
    static let spec = CommandSpec(
        path: path, abstract: "Save a place under a name.",
        positionals: [.init(name: "NAME", help: "the name to save it as"), .init(name: "PLACE", help: placeHelp)],
        options: [.init(name: "--note", valueName: "TEXT", help: "a note kept with the place"),
                  .init(name: "--geofence", valueName: nil, help: "watch arrivals and departures (events arrived/left, history visits)"),
                  .init(name: "--radius", valueName: "M", help: "with --geofence: enter within M metres (default 80; left at 1.5 × M)")])
    var name: String
    var place: String
    var note: String?
    var geofence: Bool
    var radius: Double?

    init(_ arguments: ParsedArguments) throws {
        name = try arguments.string("NAME")
        place = try arguments.string("PLACE")
        note = arguments.optional("--note")
        geofence = arguments.flag("--geofence")
        radius = try Check.metres(arguments.optional("--radius"), "--radius")
    }

    func validate() throws {
        try Check.place(name, "NAME")
        try Check.place(place, "PLACE")
        if radius != nil, !geofence { throw UsageError("--radius goes with --geofence") }
    }

    func request() throws -> CommandRequest<PlaceDocument> {
        try CommandRequest(Endpoints.placeSave, Params.PlaceSave(name: name, place: place, note: note,
                                                                 geofence: geofence ? true : nil, radiusM: radius))
    }

    func render(_ place: PlaceDocument) throws -> String {
        "saved \(place.name) at \(Render.coordinate(place.lat, place.lon))" + (place.geofence.map { ", \(Render.fence($0))" } ?? "")
            + Render.matchNotes([place]).map { "\n" + $0 }.joined()
    }
}

struct PlaceListCommand: UmctlCommand {
    static let path = ["place", "list"]
    static let spec = CommandSpec(path: path, abstract: "List saved places.")
    init(_ arguments: ParsedArguments) throws {}
    func request() throws -> CommandRequest<PlaceListDocument> { try CommandRequest(Endpoints.placeList, Params.Empty()) }
    func render(_ answer: PlaceListDocument) throws -> String {
        if answer.places.isEmpty { return "(none)" }
        return Render.table(["name", "lat,lon", "geofence", "note"], answer.places.map {
            [$0.name, Render.coordinate($0.lat, $0.lon), $0.geofence.map(Render.fenceColumn) ?? "", $0.note ?? ""]
        })
    }
}

struct PlaceRenameCommand: UmctlCommand {
    static let path = ["place", "rename"]
    static let spec = CommandSpec(path: path, abstract: "Rename a saved place.",
                                  positionals: [.init(name: "OLD", help: "its current name"), .init(name: "NEW", help: "the new name")])
    var old: String
    var new: String
    init(_ arguments: ParsedArguments) throws {
        old = try arguments.string("OLD")
        new = try arguments.string("NEW")
    }
    func validate() throws { try Check.place(new, "NEW") }
    func request() throws -> CommandRequest<RenamedDocument> { try CommandRequest(Endpoints.placeRename, Params.PlaceRename(old: old, new: new)) }
    func render(_ answer: RenamedDocument) throws -> String { "renamed \(answer.renamed) to \(answer.to)" }
}

struct PlaceRemoveCommand: UmctlCommand {
    static let path = ["place", "remove"]
    static let spec = CommandSpec(path: path, abstract: "Remove a saved place.",
                                  positionals: [.init(name: "NAME", help: "the saved place")])
    var name: String
    init(_ arguments: ParsedArguments) throws { name = try arguments.string("NAME") }
    func request() throws -> CommandRequest<RemovedDocument> { try CommandRequest(Endpoints.placeRemove, Params.Name(name: name)) }
    func render(_ answer: RemovedDocument) throws -> String { "removed \(answer.removed)" }
}

struct LocationSetCommand: UmctlCommand {
    static let path = ["location", "set"]
    static let spec = CommandSpec(
        path: path, abstract: "Set the current location that @here and current-location nodes use.",
        positionals: [.init(name: "LAT,LON", help: "degrees, e.g. 61.4978,23.7610")],
        options: [.init(name: "--accuracy", valueName: "M", help: "horizontal accuracy in metres")],
        discussion: "The location stays in the daemon's memory; it is never written to disk.")
    var lat: Double
    var lon: Double
    var accuracy: Double?

    init(_ arguments: ParsedArguments) throws {
        let text = try arguments.string("LAT,LON")
        let parts = text.split(separator: ",").map { $0.trimmingBlanks() }
        guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) else {
            throw UsageError("LAT,LON must be two numbers separated by a comma, got \"\(text)\"")
        }
        self.lat = lat
        self.lon = lon
        if let text = arguments.optional("--accuracy") {
            guard let value = Double(text) else { throw UsageError("--accuracy must be a number of metres, got \"\(text)\"") }
            accuracy = value
        }
    }

    func validate() throws {
        guard lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180 else {
            throw UsageError("LAT,LON out of range: latitude must be within ±90 and longitude within ±180")
        }
        if let accuracy, !(accuracy.isFinite && accuracy >= 0) { throw UsageError("--accuracy must be 0 or more metres") }
    }

    func request() throws -> CommandRequest<LocationDocument> {
        try CommandRequest(Endpoints.locationSet, Params.LocationSet(lat: lat, lon: lon, accuracyM: accuracy))
    }

    func render(_ location: LocationDocument) throws -> String {
        "location \(Render.coordinate(location.lat, location.lon))" + (location.accuracyM.map { " ±\(Int($0)) m" } ?? "")
            + (location.source.map { " (current fix from \($0))" } ?? "")
    }
}

struct LocationShowCommand: UmctlCommand {
    static let path = ["location", "show"]
    static let spec = CommandSpec(path: path, abstract: "Show the current location.")
    init(_ arguments: ParsedArguments) throws {}
    func request() throws -> CommandRequest<LocationDocument> { try CommandRequest(Endpoints.locationShow, Params.Empty()) }
    func render(_ location: LocationDocument) throws -> String {
        "location \(Render.coordinate(location.lat, location.lon))"
            + (location.accuracyM.map { " ±\(Int($0)) m" } ?? "") + ", set \(Render.machineClock(location.at)) \(Render.machineZone)"
            + (location.source.map { " by \($0)" } ?? "")
    }
}

struct HistoryCommand: UmctlCommand {
    static let path = ["history"]
    static let spec = CommandSpec(
        path: path, abstract: "Show search or route history, newest first, with entry IDs.",
        positionals: [.init(name: "WHICH", help: "searches or routes")],
        options: [.init(name: "--text", valueName: "T", help: "only entries whose typed text contains T"),
                  .init(name: "--place", valueName: "P", help: "only entries with a place whose name contains P"),
                  .init(name: "--mode", valueName: "M", help: "only routes with mode M: walk, transit, car or bike"),
                  .init(name: "--since", valueName: "DATE",
                        help: "recorded on or after DATE: today, yesterday, YYYY-MM-DD or a date and time (this machine's zone)"),
                  .init(name: "--until", valueName: "DATE", help: "recorded before DATE's end (today, yesterday, YYYY-MM-DD) or before the instant"),
                  .init(name: "--limit", valueName: "N", help: "at most N entries (1-20)")],
        discussion: """
        umctl history searches|routes [--text T] [--place P] [--mode M] [--since DATE] [--until DATE] [--limit N]
        umctl history visits [--limit N]
        umctl history rerun ID [--at TIME]
        umctl history delete ID
        umctl history clear searches|routes|visits
        """)
    var which: String
    var filters: Params.HistoryList

    init(_ arguments: ParsedArguments) throws {
        which = try arguments.string("WHICH")
        filters = Params.HistoryList(limit: try arguments.optionalInt("--limit"), text: arguments.optional("--text"),
                                     place: arguments.optional("--place"), mode: try Check.word(arguments.optional("--mode"), "--mode"),
                                     since: arguments.optional("--since"), until: arguments.optional("--until"))
    }

    func validate() throws {
        try Check.oneOf(which, ["searches", "routes"], "WHICH")
        if let limit = filters.limit, !(1...20).contains(limit) { throw UsageError("--limit must be 1 to 20, got \(limit)") }
        if filters.mode != nil && which == "searches" { throw UsageError("--mode filters routes, not searches") }
    }

    func request() throws -> CommandRequest<HistoryDocument> {
        try CommandRequest(which == "routes" ? Endpoints.historyRoutes : Endpoints.historySearches, filters)
    }

    func render(_ answer: HistoryDocument) throws -> String {
        if answer.entries.isEmpty { return "(empty)" }
        if which == "searches" {
            return Render.table(["id", "when (\(Render.machineZone))", "search", "place", "region"], answer.entries.map {
                [$0.id, Render.machineClock($0.at), $0.label, $0.place.map { "\($0.name) \(Render.coordinate($0.lat, $0.lon))" } ?? "",
                 $0.region ?? ""]
            })
        }
        return Render.table(["id", "when (\(Render.machineZone))", "route", "asked for", "answer"], answer.entries.map { entry in
            let time = entry.requestedTime.map { asked in
                asked.kind == "leave_now" ? "now"
                    : "\(asked.kind.replacing("_", with: " ")) \(Render.clock(asked.time, withDate: true))"
            }
            let asked = ([time] + (entry.compare.map(Self.compareOptions) ?? [])).compactMap { $0 }.joined(separator: "; ")
            let answer = entry.answers.map { answers in
                answers.map { "\($0.mode) \(Render.duration($0.durationS.map(Double.init)))\($0.mode == entry.fastest ? "*" : "")" }
                    .joined(separator: ", ")
            } ?? Self.planAnswer(entry)
            return [entry.id, Render.machineClock(entry.at), entry.label, asked, answer]
        }) + (answer.entries.contains { $0.fastest != nil } ? "\n* fastest" : "")
    }

    /// A comparison's options that are not the defaults (`pace slow`, `step-free`, `modes walk,
    /// transit`), which a rerun asks again.
    static func compareOptions(_ options: HistoryCompareDocument) -> [String] {
        var words: [String] = []
        if options.pace != .normal { words.append("pace \(options.pace.rawValue)") }
        switch options.access {
        case .any: break
        case .wheelchair: words.append("step-free")
        case .wheelchairStrict: words.append("step-free (strict)")
        }
        if Set(options.modes) != Set(WireMode.allCases) {
            words.append("modes " + options.modes.map(\.rawValue).joined(separator: ", "))
        }
        return words
    }

    /// A plan's answer: its title and its modes, each once (`plan "Home → Work": walk, transit`);
    /// entries recorded before plans kept their title show the modes only.
    static func planAnswer(_ entry: HistoryEntryDocument) -> String {
        var modes: [WireMode] = []
        for mode in entry.modes ?? [] where !modes.contains(mode) { modes.append(mode) }
        let listed = modes.map(\.rawValue).joined(separator: ", ")
        guard let plan = entry.plan else { return listed }
        return modes.isEmpty ? "plan \"\(plan.title)\"" : "plan \"\(plan.title)\": \(listed)"
    }
}

struct HistoryRerunCommand: UmctlCommand {
    static let path = ["history", "rerun"]
    static let spec = CommandSpec(
        path: path,
        abstract: "Run a route from history again: a comparison is compared again, a plan becomes a new plan (the entry becomes the newest).",
        positionals: [.init(name: "ID", help: "a route entry's ID (r<N>, from umctl history routes)")],
        options: [.init(name: "--at", valueName: "TIME", help: "depart at (\(timeHelp)); default the entry's own time")],
        discussion: "A plan is made again from the places and options recorded with it (its stops between the ends, mode, pace, and a title you gave); the plan it made first is left as it is.")
    var id: String, at: String?
    init(_ arguments: ParsedArguments) throws {
        id = try arguments.string("ID")
        at = arguments.optional("--at")
    }
    func validate() throws {
        guard id.hasPrefix("r"), Int(id.dropFirst()) != nil else { throw UsageError("ID must be a route entry's ID such as r7, got \"\(id)\"") }
        try Check.time(at, "--at")
    }
    func request() throws -> CommandRequest<RerunDocument> {
        try CommandRequest(Endpoints.historyRerun, Params.HistoryRerun(id: id, at: at))
    }
    func render(_ answer: RerunDocument) throws -> String {
        switch answer {
        case .compare(let comparison): Render.compare(comparison)
        case .plan(let plan): Render.plan(plan)
        }
    }
    /// A plan it makes may lack a route (exit code 4, as `plan new`); a comparison has no segments.
    static var computesPlan: Bool { true }
}

struct HistoryDeleteCommand: UmctlCommand {
    static let path = ["history", "delete"]
    static let spec = CommandSpec(
        path: path, abstract: "Delete one history entry.",
        positionals: [.init(name: "ID", help: "an entry's ID (s<N> a search, r<N> a route)")])
    var id: String
    init(_ arguments: ParsedArguments) throws { id = try arguments.string("ID") }
    func validate() throws {
        guard let first = id.first, first == "s" || first == "r", Int(id.dropFirst()) != nil else {
            throw UsageError("ID must be an entry's ID such as s3 or r7, got \"\(id)\"")
        }
    }
    func request() throws -> CommandRequest<HistoryDeletedDocument> {
        try CommandRequest(Endpoints.historyDelete, Params.HistoryEntryID(id: id))
    }
    func render(_ answer: HistoryDeletedDocument) throws -> String { "deleted history entry \(answer.deleted)" }
}

struct HistoryClearCommand: UmctlCommand {
    static let path = ["history", "clear"]
    static let spec = CommandSpec(
        path: path, abstract: "Clear search, route or visit history.",
        positionals: [.init(name: "WHAT", help: "searches, routes or visits")])
    var what: String

    init(_ arguments: ParsedArguments) throws { what = try arguments.string("WHAT") }
    func validate() throws { try Check.oneOf(what, ["searches", "routes", "visits"], "WHAT") }
    func request() throws -> CommandRequest<ClearedDocument> {
        try CommandRequest(Endpoints.historyClear, Params.HistoryClear(which: what))
    }
    func render(_ answer: ClearedDocument) throws -> String { "cleared \(answer.cleared) history" }
}
