import Foundation
import WireProtocol

struct PlaceFenceCommand: UmctlCommand {
    static let spec = CommandSpec(
        path: ["place", "fence"], abstract: "Turn a saved place's geofence on or off.",
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

    func request() throws -> (WireMethod, JSONValue) {
        (.placeFence, params(["name": .string(name), "on": .bool(on), "radius_m": radius.map(JSONValue.number)]))
    }

    func render(_ result: JSONValue) throws -> String {
        "\(name): " + (result["geofence"].flatMap(Render.fence) ?? "no geofence")
    }
}

extension Render {
    /// `geofence on, 80 m in / 120 m out, inside` for a place's `geofence` object.
    static func fence(_ value: JSONValue) -> String? {
        guard let radius = value["radius_m"]?.numberValue else { return nil }
        let exit = value["exit_radius_m"]?.numberValue ?? radius * 1.5
        let on = value["on"] == .bool(true)
        return "geofence \(on ? "on" : "off"), \(Int(radius.rounded())) m in / \(Int(exit.rounded())) m out"
            + (on ? ", \(value["state"]?.stringValue ?? "unknown")" : "")
    }

    /// `history visits`: when, arrived/left, where, the deciding fix.
    static func visits(_ entries: [JSONValue]) -> String {
        if entries.isEmpty { return "(empty)" }
        return table(["when (\(machineZone))", "event", "place", "fix"], entries.map { entry in
            let fix = entry["fix"] ?? .null
            return [machineClock(entry["time"]?.stringValue), entry["event"]?.stringValue ?? "", entry["place"]?.stringValue ?? "",
                    coordinate(fix["lat"]?.numberValue ?? 0, fix["lon"]?.numberValue ?? 0)
                        + (fix["accuracy_m"]?.numberValue.map { " ±\(Int($0)) m" } ?? "")]
        })
    }
}
