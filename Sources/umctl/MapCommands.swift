import FoundationEssentials
import Glibc
import WireProtocol

let sizeHelp = "picture size in pixels, WIDTHxHEIGHT (default 800x600)"

struct PlanExportCommand: UmctlCommand {
    static let path = ["plan", "export"]
    static let spec = CommandSpec(
        path: path, abstract: "Write a plan as GeoJSON, GPX or iCalendar, for QGIS, a GPS device, a web map or a calendar.",
        positionals: [.init(name: "ID", help: "plan ID")],
        options: [.init(name: "--format", valueName: "FORMAT", help: "geojson, gpx or ics (default: from the -o file's extension)"),
                  .init(name: "-o", valueName: "FILE", help: "write to FILE (default: standard output)"),
                  .init(name: "--tolerance", valueName: "M", help: "simplify lines to M metres (default 5; 0 keeps every point)")],
        discussion: """
        GeoJSON (RFC 7946): a FeatureCollection with a LineString per leg, ride and walk (mode, line,
        departure, arrival, duration_s, distance_m) and a Point per node (name, time).
        GPX 1.1: a route through the nodes and a track per leg, ride and walk.
        iCalendar (RFC 5545, ics): one event per leg with times (the region's zone), its summary
        ("Bus 6 Rautatieasema C → Opiskelija D", "Walk to X"), location and Google Maps link; UIDs
        stay the same across updates and SEQUENCE is the plan's generation.
        An iCalendar file written with -o has the CRLF line ends RFC 5545 asks for; on standard
        output its lines end in a plain newline.
        With --json the daemon's answer (the text in "content") is printed and no file is written.
        """)
    var id: Int64, format: WireExportFormat, output: String?, tolerance: Double?

    init(_ arguments: ParsedArguments) throws {
        id = try arguments.planID()
        output = arguments.optional("-o")
        let fromExtension = output.flatMap { ["geojson": "geojson", "json": "geojson", "gpx": "gpx", "ics": "ics"][URL(fileURLWithPath: $0).pathExtension.lowercased()] }
        guard let format = arguments.optional("--format") ?? fromExtension else {
            throw UsageError("give --format geojson, gpx or ics (or -o FILE ending in .geojson, .gpx or .ics)")
        }
        self.format = try Check.word(format, "--format")
        tolerance = try arguments.metres("--tolerance")
    }

    func request() throws -> CommandRequest<ExportDocument> {
        try CommandRequest(Endpoints.planExport, Params.PlanExport(id: id, format: format, toleranceM: tolerance))
    }

    func render(_ document: ExportDocument) throws -> String {
        // An iCalendar file's lines end in CRLF, which arrive as visible symbols (`TerminalText`):
        // the file gets them back, a terminal plain line ends. Its names carry no such symbols
        // (the daemon drops them), so only the daemon's line ends turn back into ones.
        let content = document.content
        let crlf = document.format == .ics ? "\u{240D}\u{240A}" : nil
        guard let output else { return crlf.map { content.replacing($0, with: "\n") } ?? content }
        let text = crlf.map { content.replacing($0, with: "\r\n") } ?? content + "\n"
        try OutputFile.write(Data(text.utf8), to: output)
        return "wrote \(output) (\(document.format), plan \(document.id))"
    }
}

struct PlanMapCommand: UmctlCommand {
    static let path = ["plan", "map"]
    static let spec = CommandSpec(
        path: path, abstract: "Draw a plan on the region's streets as a PNG or SVG picture.",
        positionals: [.init(name: "ID", help: "plan ID")],
        options: [.init(name: "-o", valueName: "FILE", help: "the picture to write, ending in .png or .svg"),
                  .init(name: "--size", valueName: "WxH", help: sizeHelp)],
        discussion: """
        Legs are coloured by mode (rides by their line's colour when the feed has one), nodes carry
        their names and times. With --json the daemon's answer (the picture in base64) is printed
        and no file is written.
        """)
    var id: Int64, picture: PictureRequest

    init(_ arguments: ParsedArguments) throws {
        id = try arguments.planID()
        picture = try PictureRequest(arguments, option: "-o")
    }

    func request() throws -> CommandRequest<MapImageDocument> {
        try CommandRequest(Endpoints.planMap, Params.PlanMap(id: id, picture: picture.params))
    }

    func render(_ image: MapImageDocument) throws -> String { try picture.write(image) }
}

/// A picture to draw and the file it goes to (`plan map -o`, `compare --map`).
struct PictureRequest {
    var file: String
    var format: WirePictureFormat
    var size: (width: Int, height: Int)?

    init(_ arguments: ParsedArguments, option: String) throws {
        guard let file = arguments.optional(option) else { throw UsageError("give \(option) FILE, ending in .png or .svg") }
        self.file = file
        let ending = URL(fileURLWithPath: file).pathExtension.lowercased()
        guard let format = WirePictureFormat(rawValue: ending) else {
            throw UsageError("\(option) \"\(file)\" must end in .png or .svg")
        }
        self.format = format
        if let text = arguments.optional("--size") {
            let parts = text.lowercased().split(separator: "x").map { Int($0) }
            guard parts.count == 2, let width = parts[0], let height = parts[1], width > 0, height > 0 else {
                throw UsageError("--size must be WIDTHxHEIGHT in pixels, such as 800x600, got \"\(text)\"")
            }
            size = (width, height)
        }
    }

    var params: Params.MapPicture { Params.MapPicture(format: format, width: size?.width, height: size?.height) }

    func write(_ image: MapImageDocument) throws -> String {
        guard let bytes = Data(base64Encoded: image.data) else { throw UsageError("the daemon sent a picture that is not base64") }
        try OutputFile.write(bytes, to: file)
        return "wrote \(file) (\(image.width)x\(image.height) \(image.format), \(bytes.count / 1024 + 1) KB)"
    }
}

enum OutputFile {
    /// - throws: `UsageError` naming the file when it cannot be written.
    static func write(_ data: Data, to path: String) throws {
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw UsageError("cannot write \(path): \(reason(error))")
        }
    }

    /// The system's words for why a file could not be written ("No such file or directory").
    private static func reason(_ error: any Error) -> String {
        guard let posix = (error as? CocoaError)?.underlying as? POSIXError else { return "\(error)" }
        return String(cString: strerror(posix.code.rawValue))
    }
}

extension ParsedArguments {
    /// A distance in metres: a finite number, 0 or more.
    func metres(_ name: String) throws -> Double? {
        guard let text = optional(name) else { return nil }
        guard let value = Double(text), value.isFinite, value >= 0 else {
            throw UsageError("\(name) must be metres (0 or more), got \"\(text)\"")
        }
        return value
    }
}

extension Render {
    /// How many points each line of `plan show --geometry` has (the points themselves are in `--json`).
    static func geometry(_ plan: PlanDocument) -> String {
        var lines = ["  geometry (points per line; --json for the [lat, lon] pairs):"]
        for (index, segment) in plan.segments.enumerated() {
            guard let leg = segment.leg else { continue }
            var parts: [String] = []
            if let points = leg.geometry { parts.append("\(points.count) points") }
            // Transit: walk, ride, walk, … , walk in travel order.
            for (k, walk) in leg.walks.enumerated() {
                parts.append("walk \(walk.geometry?.count ?? 0)")
                if k < leg.rides.count { parts.append("\(leg.rides[k].line) \(leg.rides[k].geometry?.count ?? 0)") }
            }
            lines.append("    seg \(index + 1) \(segment.mode): \(parts.joined(separator: ", "))")
        }
        return lines.joined(separator: "\n")
    }
}
