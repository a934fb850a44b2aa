import Foundation
import WireProtocol

let placeHelp = "a saved place's name, LAT,LON, @here, or text to search (first result)"

struct SearchCommand: UmctlCommand {
    static let spec = CommandSpec(
        path: ["search"], abstract: "Search places in the imported regions (recorded in search history).",
        positionals: [.init(name: "TEXT", help: "words to look for (prefixes match)", variadic: true)],
        options: [.init(name: "--near", valueName: "PLACE", help: "rank by distance to this place (\(placeHelp))"),
                  .init(name: "--kind", valueName: "KIND", help: "street, poi or stop"),
                  .init(name: "--limit", valueName: "N", help: "at most N results (1-100, default 10)"),
                  .init(name: "--region", valueName: "NAME", help: "search only this region")],
        discussion: "Every region is searched, the one containing --near (else the current location) first; each result names its region.")
    var text: String
    var near: String?
    var kind: String?
    var limit: Int?
    var region: String?

    init(_ arguments: ParsedArguments) throws {
        text = try arguments.string("TEXT")
        near = arguments.optional("--near")
        kind = arguments.optional("--kind")
        limit = try arguments.optionalInt("--limit")
        region = arguments.optional("--region")
    }

    func validate() throws {
        try Check.oneOf(kind, ["street", "poi", "stop"], "--kind")
        if let limit, !(1...100).contains(limit) { throw UsageError("--limit must be 1 to 100, got \(limit)") }
        if let near { try Check.place(near, "--near") }
    }

    func request() throws -> (WireMethod, JSONValue) {
        (.search, params(["text": .string(text), "near": near.json, "kind": kind.json, "limit": limit.json, "region": region.json]))
    }

    func render(_ result: JSONValue) throws -> String { Render.places(result, key: "results") }
}

struct PlaceSaveCommand: UmctlCommand {
    static let spec = CommandSpec(
        path: ["place", "save"], abstract: "Save a place under a name.",
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

    func request() throws -> (WireMethod, JSONValue) {
        (.placeSave, params(["name": .string(name), "place": .string(place), "note": note.json,
                             "geofence": geofence ? .bool(true) : nil, "radius_m": radius.map(JSONValue.number)]))
    }

    func render(_ result: JSONValue) throws -> String {
        let place = try result.decode(as: PlaceDocument.self)
        return "saved \(place.name) at \(Render.coordinate(place.lat, place.lon))"
            + (result["geofence"].flatMap(Render.fence).map { ", \($0)" } ?? "")
    }
}

struct PlaceListCommand: UmctlCommand {
    static let spec = CommandSpec(path: ["place", "list"], abstract: "List saved places.")
    init(_ arguments: ParsedArguments) throws {}
    func request() throws -> (WireMethod, JSONValue) { (.placeList, .object([:])) }
    func render(_ result: JSONValue) throws -> String { Render.places(result, key: "places") }
}

struct PlaceRenameCommand: UmctlCommand {
    static let spec = CommandSpec(path: ["place", "rename"], abstract: "Rename a saved place.",
                                  positionals: [.init(name: "OLD", help: "its current name"), .init(name: "NEW", help: "the new name")])
    var old: String
    var new: String
    init(_ arguments: ParsedArguments) throws {
        old = try arguments.string("OLD")
        new = try arguments.string("NEW")
    }
    func validate() throws { try Check.place(new, "NEW") }
    func request() throws -> (WireMethod, JSONValue) { (.placeRename, .object(["old": .string(old), "new": .string(new)])) }
    func render(_ result: JSONValue) throws -> String { "renamed \(old) to \(new)" }
}

struct PlaceRemoveCommand: UmctlCommand {
    static let spec = CommandSpec(path: ["place", "remove"], abstract: "Remove a saved place.",
                                  positionals: [.init(name: "NAME", help: "the saved place")])
    var name: String
    init(_ arguments: ParsedArguments) throws { name = try arguments.string("NAME") }
    func request() throws -> (WireMethod, JSONValue) { (.placeRemove, .object(["name": .string(name)])) }
    func render(_ result: JSONValue) throws -> String { "removed \(name)" }
}

struct LocationSetCommand: UmctlCommand {
    static let spec = CommandSpec(
        path: ["location", "set"], abstract: "Set the current location that @here and current-location nodes use.",
        positionals: [.init(name: "LAT,LON", help: "degrees, e.g. 61.4978,23.7610")],
        options: [.init(name: "--accuracy", valueName: "M", help: "horizontal accuracy in metres")],
        discussion: "The location stays in the daemon's memory; it is never written to disk.")
    var lat: Double
    var lon: Double
    var accuracy: Double?

    init(_ arguments: ParsedArguments) throws {
        let text = try arguments.string("LAT,LON")
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
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

    func request() throws -> (WireMethod, JSONValue) {
        (.locationSet, params(["lat": .number(lat), "lon": .number(lon), "accuracy_m": accuracy.map(JSONValue.number)]))
    }

    func render(_ result: JSONValue) throws -> String {
        let location = try result.decode(as: LocationDocument.self)
        return "location \(Render.coordinate(location.lat, location.lon))" + (location.accuracyM.map { " ±\(Int($0)) m" } ?? "")
            + (location.source.map { " (current fix from \($0))" } ?? "")
    }
}

struct LocationShowCommand: UmctlCommand {
    static let spec = CommandSpec(path: ["location", "show"], abstract: "Show the current location.")
    init(_ arguments: ParsedArguments) throws {}
    func request() throws -> (WireMethod, JSONValue) { (.locationShow, .object([:])) }
    func render(_ result: JSONValue) throws -> String {
        let location = try result.decode(as: LocationDocument.self)
        return "location \(Render.coordinate(location.lat, location.lon))"
            + (location.accuracyM.map { " ±\(Int($0)) m" } ?? "") + ", set \(Render.machineClock(location.at)) \(Render.machineZone)"
            + (location.source.map { " by \($0)" } ?? "")
    }
}

struct HistoryCommand: UmctlCommand {
    static let spec = CommandSpec(
        path: ["history"], abstract: "Show search, route or visit history (newest first), or clear it.",
        positionals: [.init(name: "WHICH", help: "searches, routes, visits, or clear"),
                      .init(name: "WHAT", help: "with clear: searches, routes or visits", optional: true)],
        options: [.init(name: "--limit", valueName: "N", help: "at most N entries (1-20)")],
        discussion: "umctl history searches [--limit N]\numctl history routes [--limit N]\numctl history visits [--limit N]\numctl history clear searches|routes|visits")
    var which: String
    var what: String?
    var limit: Int?

    init(_ arguments: ParsedArguments) throws {
        which = try arguments.string("WHICH")
        what = arguments.optional("WHAT")
        limit = try arguments.optionalInt("--limit")
    }

    func validate() throws {
        try Check.oneOf(which, ["searches", "routes", "visits", "clear"], "WHICH")
        if which == "clear" {
            guard let what else { throw UsageError("history clear needs searches, routes or visits") }
            try Check.oneOf(what, ["searches", "routes", "visits"], "WHAT")
        } else if let what {
            throw UsageError("unexpected argument \"\(what)\"")
        }
        if let limit, !(1...20).contains(limit) { throw UsageError("--limit must be 1 to 20, got \(limit)") }
    }

    func request() throws -> (WireMethod, JSONValue) {
        switch which {
        case "clear": (.historyClear, .object(["which": .string(what ?? "")]))
        case "routes": (.historyRoutes, params(["limit": limit.json]))
        case "visits": (.historyVisits, params(["limit": limit.json]))
        default: (.historySearches, params(["limit": limit.json]))
        }
    }

    func render(_ result: JSONValue) throws -> String {
        if which == "clear" { return "cleared \(what ?? "") history" }
        if which == "visits" { return Render.visits(result["entries"]?.arrayValue ?? []) }
        let entries = try (result["entries"] ?? .array([])).decode(as: [HistoryEntryDocument].self)
        if entries.isEmpty { return "(empty)" }
        return Render.table(["when (\(Render.machineZone))", which == "routes" ? "route" : "search", "place"], entries.map {
            [Render.machineClock($0.at), $0.label, $0.place.map { "\($0.name) \(Render.coordinate($0.lat, $0.lon))" } ?? ""]
        })
    }
}
