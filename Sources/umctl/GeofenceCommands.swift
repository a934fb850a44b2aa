import FoundationEssentials
import WireProtocol

struct PlaceFenceCommand: UmctlCommand {
    static let path = ["place", "fence"]
    static let spec = CommandSpec(
        path: path, abstract: "Turn a saved place's geofence on or off.",
        positionals: [.init(name: "NAME", help: "the saved place"), .init(name: "STATE", help: "on or off")],
        options: [.init(name: "--radius", valueName: "M", help: "with on: enter within M metres (default: as before, else 80; left at 1.5 × M)")],
        discussion: """
        A fence starts unknown (also after a restart); a fix within the enter radius with accuracy \
        within 30 m makes it inside, one beyond the exit radius outside, in between nothing changes. \
        Outside → inside is an `arrived` event, inside → outside `left` (umctl watch, umctl history visits).
        """)
    var name: String
    var on: Bool
    var radius: Double?

    init(_ arguments: ParsedArguments) throws {
        name = try arguments.string("NAME")
        let state = try arguments.string("STATE")
        try Check.oneOf(state, ["on", "off"], "STATE")
        on = state == "on"
        radius = try Check.metres(arguments.optional("--radius"), "--radius")
    }

    func validate() throws {
        if radius != nil, !on { throw UsageError("--radius goes with on") }
    }

    func request() throws -> CommandRequest<PlaceFenceDocument> {
        try CommandRequest(Endpoints.placeFence, Params.PlaceFence(name: name, on: on, radiusM: radius))
    }

    func render(_ answer: PlaceFenceDocument) throws -> String {
        "\(answer.name): " + (answer.geofence.map(Render.fence) ?? "no geofence")
    }
}

struct HistoryVisitsCommand: UmctlCommand {
    static let path = ["history", "visits"]
    static let spec = CommandSpec(
        path: path, abstract: "Show arrivals at and departures from fenced places, newest first.",
        options: [.init(name: "--limit", valueName: "N", help: "at most N entries (1-20)")])
    var limit: Int?

    init(_ arguments: ParsedArguments) throws { limit = try arguments.optionalInt("--limit") }

    func validate() throws {
        if let limit, !(1...20).contains(limit) { throw UsageError("--limit must be 1 to 20, got \(limit)") }
    }

    func request() throws -> CommandRequest<VisitHistoryDocument> {
        try CommandRequest(Endpoints.historyVisits, Params.HistoryList(limit: limit))
    }

    func render(_ answer: VisitHistoryDocument) throws -> String {
        if answer.entries.isEmpty { return "(empty)" }
        return Render.table(["when (\(Render.machineZone))", "event", "place", "fix"], answer.entries.map { entry in
            [Render.machineClock(entry.time), entry.event, entry.place,
             Render.coordinate(entry.fix.lat, entry.fix.lon) + " ±\(Int(entry.fix.accuracyM.rounded())) m"]
        })
    }
}

extension Render {
    /// `geofence on, 80 m in / 120 m out, inside`.
    static func fence(_ fence: FenceDocument) -> String {
        "geofence \(fence.on ? "on" : "off"), \(Int(fence.radiusM.rounded())) m in / \(Int(fence.exitRadiusM.rounded())) m out"
            + (fence.on ? ", \(fenceState(fence.state))" : "")
    }

    /// `place list`'s geofence column: `on 80/120 m, inside`, or `off 80/120 m`.
    static func fenceColumn(_ fence: FenceDocument) -> String {
        "\(fence.on ? "on" : "off") \(Int(fence.radiusM.rounded()))/\(Int(fence.exitRadiusM.rounded())) m"
            + (fence.on ? ", \(fenceState(fence.state))" : "")
    }

    /// A fence's state for a person: `unknown` says what it waits for (a fence is unknown from
    /// the start and after a restart, until a usable fix decides it).
    static func fenceState(_ state: String) -> String {
        state == "unknown" ? "unknown until a fix" : state
    }

    /// The `status` lines about the location source, its ignored fixes and the fences.
    static func location(_ location: LocationStatusDocument) -> [String] {
        var source = location.source
        if let gpsd = location.gpsd {
            source += " \(gpsd) (\(location.connected == true ? "connected" : "not connected")"
                + (location.connections.map { ", \($0) connection\($0 == 1 ? "" : "s")" } ?? "")
                + (location.connected == true ? "" : location.lastError.map { ": \($0)" } ?? "") + ")"
        }
        var lines = ["location:  \(source); current fix from \(location.currentFrom ?? "nowhere yet")"]
        if !location.ignored.isEmpty {
            lines.append("ignored fixes: " + location.ignored.map { "\($0.name) \($0.count)" }.joinedPlainly(separator: ", "))
        }
        if !location.fences.isEmpty {
            lines.append("fences:    " + location.fences.map { "\($0.place) \(fenceState($0.state))" }.joinedPlainly(separator: ", "))
        }
        return lines
    }

    /// The `status` line about plans refreshed in the background.
    static func refreshQueue(_ queue: RefreshQueueDocument) -> String {
        "background refresh: " + (queue.running.map { "refreshing plan \($0), " } ?? "")
            + "\(queue.queued.count) queued, \(queue.refreshed) refreshed, \(queue.retried) retried after edits, "
            + "\(queue.leftAlone) left alone (day passed), \(queue.failed) failed"
    }
}
