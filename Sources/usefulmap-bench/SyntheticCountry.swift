import Foundation
import Planner

/// The synthetic country of issue 43, built from Tampere in a scratch folder (never committed):
/// twelve copies of the region (or `copies`) on a grid of 4 columns × 3 rows 28 km apart, their
/// streets renumbered per copy and merged into one OSM file (the `osmium` command), each copy
/// its own GTFS feed keeping Tampere's IDs (so the feeds' IDs collide), and an intercity train
/// feed joining the copies' railway stations (with two copies or more). With
/// `separateRegions`, each copy's streets are a file of their own and there is no train: one
/// region per city.
struct SyntheticCountry {
    static let defaultCopies = 12
    static let columns = 4
    static let spacingMetres = 28_000.0
    /// Where the intercity train stops in each copy: beside Tampere's railway station, whose
    /// tram and bus stops (Rautatieasema) are a short walk away.
    static let station = Coordinate(latitude: 61.4985, longitude: 23.7733)

    let copies: Int
    /// The merged streets, or with `separateRegions` each copy's in copy order.
    let osm: [URL]
    /// The cities' feeds in copy order, then the intercity feed (not with `separateRegions`).
    let feeds: [URL]

    /// A point of Tampere moved into copy `copy` (copy 0 stays where it is).
    static func shifted(_ c: Coordinate, copy: Int) -> Coordinate {
        let degreesOfLatitude = spacingMetres / 111_195
        let degreesOfLongitude = spacingMetres / (111_195 * cos(61.5 * Double.pi / 180))
        return Coordinate(latitude: c.latitude + degreesOfLatitude * Double(copy / columns),
                          longitude: c.longitude + degreesOfLongitude * Double(copy % columns))
    }

    /// The train's calling order: along each row of the grid, every other row backwards, so
    /// consecutive stations are 28 km apart.
    static func trainOrder(copies: Int) -> [Int] {
        stride(from: 0, to: copies, by: columns).enumerated().flatMap { row, first in
            let line = Array(first..<min(copies, first + columns))
            return row.isMultiple(of: 2) ? line : line.reversed()
        }
    }

    /// Writes the country from Tampere's `tampere.osm.pbf` and `tampere.zip` in `source` into `work`.
    init(from source: URL, in work: URL, copies: Int = defaultCopies, separateRegions: Bool = false) throws {
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        self.copies = copies
        osm = try Self.writeStreets(from: source.appendingPathComponent("tampere.osm.pbf"), in: work, copies: copies,
                                    merged: !separateRegions)
        var feeds = try Self.writeCityFeeds(from: source.appendingPathComponent("tampere.zip"), in: work, copies: copies)
        if copies > 1, !separateRegions { feeds.append(try Self.writeIntercityFeed(in: work, copies: copies)) }
        self.feeds = feeds
    }

    /// Each copy renumbered by `osmium renumber` from its own first IDs (node, way and relation
    /// IDs never shared), its nodes moved in the OPL text, then all merged into one `.osm.pbf`
    /// (or each converted to its own).
    private static func writeStreets(from pbf: URL, in work: URL, copies: Int, merged: Bool) throws -> [URL] {
        var parts: [String] = []
        for copy in 0..<copies {
            let opl = work.appendingPathComponent("streets-\(copy).opl")
            try runTool("/usr/bin/osmium", ["renumber", "--overwrite", "-s", "\(copy * 1_000_000 + 1),\(copy * 100_000 + 1),\(copy * 1_000 + 1)",
                                            "-f", "opl", "-o", opl.path, pbf.path])
            if copy > 0 {
                let text = try String(contentsOf: opl, encoding: .utf8)
                var moved = ""
                moved.reserveCapacity(text.utf8.count + text.utf8.count / 50)
                for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
                    moved += line.first == "n" ? movedNodeLine(line, copy: copy) : String(line)
                    moved += "\n"
                }
                try moved.write(to: opl, atomically: false, encoding: .utf8)
            }
            parts.append(opl.path)
        }
        defer { for part in parts { try? FileManager.default.removeItem(atPath: part) } }
        guard merged else {
            return try parts.enumerated().map { copy, part in
                let file = work.appendingPathComponent("city-\(copy).osm.pbf")
                try runTool("/usr/bin/osmium", ["cat", "--overwrite", "-o", file.path, part])
                return file
            }
        }
        let country = work.appendingPathComponent("country.osm.pbf")
        try runTool("/usr/bin/osmium", ["merge", "--overwrite", "-o", country.path] + parts)
        return [country]
    }

    /// An OPL node line with its `x` (longitude) and `y` (latitude) fields moved into `copy`.
    /// Tags cannot hold a bare space in OPL, so the line's fields split on spaces.
    private static func movedNodeLine(_ line: Substring, copy: Int) -> String {
        var fields = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard let x = fields.firstIndex(where: { $0.hasPrefix("x") }), let y = fields.firstIndex(where: { $0.hasPrefix("y") }),
              let longitude = Double(fields[x].dropFirst()), let latitude = Double(fields[y].dropFirst()) else { return String(line) }
        let moved = shifted(Coordinate(latitude: latitude, longitude: longitude), copy: copy)
        fields[x] = "x" + String(format: "%.7f", moved.longitude)
        fields[y] = "y" + String(format: "%.7f", moved.latitude)
        return fields.joined(separator: " ")
    }

    /// Copy 0 is `tampere.zip` itself; every other copy is the same zip with `stops.txt` and
    /// `shapes.txt` moved into its tile, every ID kept.
    private static func writeCityFeeds(from zip: URL, in work: URL, copies: Int) throws -> [URL] {
        let unpacked = work.appendingPathComponent("feed-source")
        try runTool("/usr/bin/unzip", ["-q", "-o", zip.path, "stops.txt", "shapes.txt", "-d", unpacked.path])
        let moved: [(file: String, latitude: String, longitude: String)] = [("stops.txt", "stop_lat", "stop_lon"),
                                                                           ("shapes.txt", "shape_pt_lat", "shape_pt_lon")]
        let tables = try moved.map { try String(contentsOf: unpacked.appendingPathComponent($0.file), encoding: .utf8) }
        var feeds = [zip]
        for copy in 1..<copies {
            let folder = work.appendingPathComponent("feed-\(copy)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (index, table) in moved.enumerated() {
                try movedTable(tables[index], latitude: table.latitude, longitude: table.longitude, copy: copy)
                    .write(to: folder.appendingPathComponent(table.file), atomically: false, encoding: .utf8)
            }
            let copyZip = work.appendingPathComponent("tampere-\(copy).zip")
            try? FileManager.default.removeItem(at: copyZip)
            try FileManager.default.copyItem(at: zip, to: copyZip)
            try runTool("/usr/bin/zip", ["-q", "-j", copyZip.path] + moved.map { folder.appendingPathComponent($0.file).path })
            try FileManager.default.removeItem(at: folder)
            feeds.append(copyZip)
        }
        return feeds
    }

    /// A CSV table with its latitude and longitude columns moved into `copy`.
    private static func movedTable(_ text: String, latitude: String, longitude: String, copy: Int) -> String {
        var lines = text.split(whereSeparator: \.isNewline)
        guard !lines.isEmpty else { return text }
        let headerLine = lines.removeFirst()
        let header = csvFields(headerLine).map { $0.trimmingCharacters(in: .init(charactersIn: "\u{FEFF}\" ")) }
        guard let lat = header.firstIndex(of: latitude), let lon = header.firstIndex(of: longitude) else { return text }
        var out = String(headerLine) + "\n"
        for line in lines {
            var fields = csvFields(line).map(String.init)
            if max(lat, lon) < fields.count, let y = Double(fields[lat].trimmingCharacters(in: .init(charactersIn: "\" "))),
               let x = Double(fields[lon].trimmingCharacters(in: .init(charactersIn: "\" "))) {
                let moved = shifted(Coordinate(latitude: y, longitude: x), copy: copy)
                fields[lat] = String(format: "%.6f", moved.latitude)
                fields[lon] = String(format: "%.6f", moved.longitude)
            }
            out += fields.joined(separator: ",") + "\n"
        }
        return out
    }

    /// One rail line calling at every copy's station in `trainOrder`: 15 minutes between
    /// stations and a minute's stop, every 30 minutes each way from 05:00 to 22:30, every day
    /// of Tampere's feed period.
    private static func writeIntercityFeed(in work: URL, copies: Int) throws -> URL {
        let folder = work.appendingPathComponent("intercity")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let order = trainOrder(copies: copies)
        var stops = "stop_id,stop_name,stop_lat,stop_lon\n"
        for copy in order {
            let at = shifted(station, copy: copy)
            stops += "IC\(copy),City \(copy + 1) station,\(String(format: "%.6f", at.latitude)),\(String(format: "%.6f", at.longitude))\n"
        }
        var trips = "route_id,service_id,trip_id,direction_id\n"
        var stopTimes = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        func clock(_ minutes: Int) -> String { String(format: "%02d:%02d:00", minutes / 60, minutes % 60) }
        for direction in 0..<2 {
            let calls = direction == 0 ? order : order.reversed()
            for start in stride(from: 5 * 60, through: 22 * 60 + 30, by: 30) {
                let trip = "IC-\(direction)-\(clock(start).prefix(5))"
                trips += "IC,DAILY,\(trip),\(direction)\n"
                for (index, copy) in calls.enumerated() {
                    let arrival = start + index * 16
                    let departure = index == 0 ? arrival : arrival + 1
                    stopTimes += "\(trip),\(clock(arrival)),\(clock(index == calls.count - 1 ? arrival : departure)),IC\(copy),\(index + 1)\n"
                }
            }
        }
        let files = [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nIC,Intercity,https://example.org/intercity,Europe/Helsinki\n",
            "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nIC,IC,IC,Intercity,2\n",
            "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
                + "DAILY,1,1,1,1,1,1,1,20211212,20220228\n",
            "stops.txt": stops, "trips.txt": trips, "stop_times.txt": stopTimes,
        ]
        for (name, text) in files { try text.write(to: folder.appendingPathComponent(name), atomically: false, encoding: .utf8) }
        let zip = work.appendingPathComponent("intercity.zip")
        try? FileManager.default.removeItem(at: zip)
        try runTool("/usr/bin/zip", ["-q", "-j", zip.path] + files.keys.sorted().map { folder.appendingPathComponent($0).path })
        try FileManager.default.removeItem(at: folder)
        return zip
    }
}
