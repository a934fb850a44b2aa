import CRoutino
import Foundation
import Glibc

// usefulmap-routino-worker --database DIR
//
// Routino keeps its state in globals and is not thread-safe, so the Streets module runs it in
// these worker processes, one query at a time each. The line protocol (docs/streets.md):
//
//   on start        ← ready                      (or ← fatal MESSAGE, then exit 1)
//   → ping          ← pong
//   → route walk|wheelchair|bike|car FROM_LAT FROM_LON TO_LAT TO_LON [shortest]   (degrees, '.' decimals;
//                                                 the quickest route unless `shortest`)
//                   ← ok DISTANCE_M DURATION_S LAT,LON LAT,LON …   (first point = snapped start)
//                   ← error no_road_nearby from|to
//                   ← error no_route
//                   ← error no_profile_data bike|wheelchair   (the region's database was built without
//                                                 what that profile needs: re-import it)
//                   ← error bad_request MESSAGE
//                   ← error engine ROUTINO_ERRNO
//   → time walk|wheelchair|bike|car FROM_LAT FROM_LON TO_LAT TO_LON [shortest]
//                   ← ok DISTANCE_M DURATION_S LAT,LON LAT,LON   (`route`'s answer with only its first
//                                                 and last points: the same route, distance and
//                                                 duration, without formatting the geometry;
//                                                 the errors are `route`'s)
//
// The worker works in a private directory that it deletes straight after start-up, so the
// library's FILE_* outputs (which write into the working directory) can never litter.

/// Writes one whole line to stdout, unbuffered, so the pool never waits on a partial answer.
func reply(_ line: String) {
    var bytes = Array((line + "\n").utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { exit(0) } // the pool went away
        bytes = bytes.dropFirst(written)
    }
}

func fatal(_ message: String) -> Never {
    reply("fatal " + message)
    exit(1)
}

func databaseArgument() -> String {
    let arguments = CommandLine.arguments
    guard let flag = arguments.firstIndex(of: "--database"), flag + 1 < arguments.count else {
        fatal("usage: usefulmap-routino-worker --database DIRECTORY")
    }
    return arguments[flag + 1]
}

/// Creates a private working directory, loads the profiles from it, then removes it while
/// staying inside: later file writes by the library fail instead of littering.
func loadProfilesInPrivateDirectory() {
    var template = Array((NSTemporaryDirectory() + "/usefulmap-routino-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { fatal("cannot create a private directory (errno \(errno))") }
    let directory = String(cString: made)
    guard chdir(directory) == 0 else { fatal("cannot enter \(directory) (errno \(errno))") }
    let file = directory + "/profiles.xml"
    guard FileManager.default.createFile(atPath: file, contents: Data(RoutinoProfiles.xml.utf8)) else {
        fatal("cannot write \(file)")
    }
    let status = Routino_ParseXMLProfiles(file)
    unlink(file)
    rmdir(directory)
    guard status == 0 else { fatal("our profiles were rejected (Routino error \(routino_last_error()))") }
}

/// The loaded database and validated profiles for the worker's whole life.
struct Engine {
    var database: OpaquePointer
    var walk: OpaquePointer
    var car: OpaquePointer
    /// Nil when the database holds no bicycle data (a region imported with another tagging):
    /// bike routes are then refused, walk and car still work.
    var bike: OpaquePointer?
    /// Nil when the database holds no wheelchair data: step-free walks are then refused.
    var wheelchair: OpaquePointer?
    var translation: OpaquePointer
    /// Stops and street anchors come back often: their waypoints are found once.
    let waypoints = WaypointCache()

    static func load(directory: String) -> Engine {
        guard Routino_Check_API_Version(ROUTINO_API_VERSION) == 0 else {
            fatal("libroutino API version mismatch (built for \(ROUTINO_API_VERSION))")
        }
        loadProfilesInPrivateDirectory()
        guard let database = Routino_LoadDatabase(directory, nil) else {
            fatal("cannot load the Routino database in \(directory) (Routino error \(routino_last_error()))")
        }
        guard let walk = Routino_GetProfile(RoutinoProfiles.walk), let car = Routino_GetProfile(RoutinoProfiles.car),
              let bike = Routino_GetProfile(RoutinoProfiles.bike),
              let wheelchair = Routino_GetProfile(RoutinoProfiles.wheelchair) else {
            fatal("our profiles are missing after parsing")
        }
        for (name, profile) in [(RoutinoProfiles.walk, walk), (RoutinoProfiles.car, car)] {
            guard Routino_ValidateProfile(database, profile) == 0 else {
                fatal("profile \(name) does not work with this database (Routino error \(routino_last_error()))")
            }
        }
        guard let translation = Routino_GetTranslation(nil) else {
            fatal("no built-in translation (Routino error \(routino_last_error()))")
        }
        let usableBike = Routino_ValidateProfile(database, bike) == 0 ? bike : nil
        let usableWheelchair = Routino_ValidateProfile(database, wheelchair) == 0 ? wheelchair : nil
        return Engine(database: database, walk: walk, car: car, bike: usableBike, wheelchair: usableWheelchair,
                      translation: translation)
    }

    /// `route` (the whole geometry) or `time` (`endsOnly`: the first and last points).
    func route(_ fields: [Substring], endsOnly: Bool = false) -> String {
        guard fields.count == 6 || (fields.count == 7 && fields[6] == "shortest") else {
            return "error bad_request expected: \(fields[0]) walk|wheelchair|bike|car LAT LON LAT LON [shortest]"
        }
        let profile: OpaquePointer
        switch fields[1] {
        case "walk": profile = walk
        case "car": profile = car
        case "bike":
            guard let bike else { return "error no_profile_data bike" }
            profile = bike
        case "wheelchair":
            guard let wheelchair else { return "error no_profile_data wheelchair" }
            profile = wheelchair
        default: return "error bad_request unknown profile \(fields[1])"
        }
        let numbers = fields[2..<6].compactMap { Double($0) }
        guard numbers.count == 4, numbers.allSatisfy(\.isFinite) else {
            return "error bad_request coordinates must be four decimal numbers"
        }
        guard let from = waypoints.find(database: database, profile: profile, latitude: numbers[0], longitude: numbers[1]) else {
            return routino_last_error() == ROUTINO_ERROR_NO_NEARBY_HIGHWAY
                ? "error no_road_nearby from" : "error engine \(routino_last_error())"
        }
        guard let to = waypoints.find(database: database, profile: profile, latitude: numbers[2], longitude: numbers[3]) else {
            return routino_last_error() == ROUTINO_ERROR_NO_NEARBY_HIGHWAY
                ? "error no_road_nearby to" : "error engine \(routino_last_error())"
        }
        var waypoints: [OpaquePointer?] = [from, to]
        let preference = fields.count == 7 ? ROUTINO_ROUTE_SHORTEST : ROUTINO_ROUTE_QUICKEST
        let options = Int32(preference | ROUTINO_ROUTE_LIST_TEXT_ALL)
        guard let output = Routino_CalculateRoute(database, profile, translation, &waypoints, 2, options, nil) else {
            let code = routino_last_error()
            return code >= ROUTINO_ERROR_NO_ROUTE_1 ? "error no_route" : "error engine \(code)"
        }
        defer { Routino_DeleteRoute(output) }
        return Engine.describe(output, endsOnly: endsOnly)
    }

    /// `time` is cumulative minutes (despite the header), `dist` cumulative km, lat/lon radians.
    /// With `endsOnly`, only the first and last points are written (the timer needs no more,
    /// and formatting every point cost more than routing a short walk).
    static func describe(_ head: UnsafeMutablePointer<Routino_Output>, endsOnly: Bool = false) -> String {
        func text(_ point: Routino_Output) -> String {
            // C's snprintf: a long walk has hundreds of points, and String(format:) was a tenth of the route's cost.
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
                let count = routino_format_point(buffer.baseAddress, buffer.count, Double(point.lat) * 180 / .pi,
                                                 Double(point.lon) * 180 / .pi)
                return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: Int(max(0, min(count, 63)))),
                              as: UTF8.self)
            }
        }
        var points: [String] = []
        var last = head.pointee
        var node: UnsafeMutablePointer<Routino_Output>? = head
        while let current = node {
            last = current.pointee
            if !endsOnly || current == head { points.append(text(last)) }
            node = last.next
        }
        if endsOnly, head.pointee.next != nil { points.append(text(last)) }
        return String(format: "ok %.1f %.1f ", Double(last.dist) * 1000, Double(last.time) * 60)
            + points.joined(separator: " ")
    }
}

signal(SIGPIPE, SIG_IGN)
let engine = Engine.load(directory: databaseArgument())
reply("ready")
while let line = readLine() {
    let fields = line.split(separator: " ")
    switch fields.first {
    case "ping": reply("pong")
    case "route": reply(engine.route(fields))
    case "time": reply(engine.route(fields, endsOnly: true))
    case nil: reply("error bad_request empty line")
    default: reply("error bad_request unknown command \(fields[0])")
    }
}
