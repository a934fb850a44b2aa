import Foundation
import Glibc
import Planner

/// What a region directory holds and where it came from: `manifest.json` in the region.
///
/// The manifest is written last, inside the staging directory, so a region with a manifest is
/// always complete.
public struct RegionManifest: Codable, Hashable, Sendable {
    /// Bumped when the layout of a region directory changes. 2 records `hasTransit` and
    /// `timeZoneSource`; a version 1 manifest reads as having transit when any step ran (the
    /// transit timetable was the only step there was). 3 has the place index of format 2
    /// (addresses, typo trigrams, street lines), leaves GTFS stops beyond the streets out of it,
    /// and records each feed's service hours: importing the same sources again rebuilds a region
    /// of an older format instead of skipping it. 4 has the timetable of schema 3 (each trip's
    /// stop_sequence, direction and agency, which realtime feeds are matched by). 5 has the
    /// timetable of schema 4 (fares). 6 has the timetable of schema 5 (wheelchair_boarding and
    /// wheelchair_accessible, for step-free trips). 7 has the timetable of schema 6 (patterns
    /// grouped by stop sequence across routes, each trip's route stored). 8 records the
    /// region's languages (`languages`). 9 has the timetable of schema 7 (each street-timed
    /// change walk's metres).
    public static let currentFormatVersion = 9

    public var name: String
    public var formatVersion: Int
    /// The OSM file first, then the sources of any additional steps (for example a GTFS feed).
    public var sources: [RegionSourceFile]
    public var importedAt: Date
    /// Seconds the whole import took.
    public var importDuration: TimeInterval
    /// The extent of the OSM data; the street router routes only inside it.
    public var boundingBox: RegionBoundingBox
    /// IANA time zone of the region ("Europe/Helsinki").
    public var timeZone: String
    /// `timeZone` as a zone: the one every time of the region is read and written in (the
    /// machine's zone for an identifier this system does not know).
    public var zone: TimeZone { TimeZone(identifier: timeZone) ?? .current }
    /// How `timeZone` was decided, in words ("agency_timezone of feed tampere.zip"); nil in
    /// manifests written before it was recorded.
    public var timeZoneSource: String?
    /// Whether the region has a transit timetable, recorded by the step that wrote it.
    public var hasTransit: Bool
    /// Names of the additional import steps that ran, in order.
    public var steps: [String]
    /// Sizes for humans and benchmarks: `osm_nodes`, `osm_ways`, `routing_nodes`,
    /// `routing_segments`, `routing_ways`, `places`, `streets`, `pois`.
    public var counts: [String: Int]
    /// Languages the region's names and feeds are written in, English always (ISO 639-1 codes,
    /// sorted): a category word of another language finds nothing here (`PlaceCategory`). Nil
    /// in manifests written before it was recorded: every word counts.
    public var languages: [String]?

    public init(name: String, formatVersion: Int = RegionManifest.currentFormatVersion, sources: [RegionSourceFile],
                importedAt: Date, importDuration: TimeInterval, boundingBox: RegionBoundingBox, timeZone: String,
                timeZoneSource: String? = nil, hasTransit: Bool = false, steps: [String], counts: [String: Int],
                languages: [String]? = nil) {
        self.name = name
        self.formatVersion = formatVersion
        self.sources = sources
        self.importedAt = importedAt
        self.importDuration = importDuration
        self.boundingBox = boundingBox
        self.timeZone = timeZone
        self.timeZoneSource = timeZoneSource
        self.hasTransit = hasTransit
        self.steps = steps
        self.counts = counts
        self.languages = languages
    }

    /// A region's languages: the map's (`name:xx` on enough names), its feeds', and English.
    public static func languages(map: [String], steps: [String]) -> [String] {
        Set(map + steps + [PlaceLanguage.always]).sorted()
    }

    enum CodingKeys: String, CodingKey {
        case name, formatVersion, sources, importedAt, importDuration, boundingBox, timeZone, timeZoneSource, hasTransit,
             steps, counts, languages
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        formatVersion = try c.decode(Int.self, forKey: .formatVersion)
        sources = try c.decode([RegionSourceFile].self, forKey: .sources)
        importedAt = try c.decode(Date.self, forKey: .importedAt)
        importDuration = try c.decode(TimeInterval.self, forKey: .importDuration)
        boundingBox = try c.decode(RegionBoundingBox.self, forKey: .boundingBox)
        timeZone = try c.decode(String.self, forKey: .timeZone)
        timeZoneSource = try c.decodeIfPresent(String.self, forKey: .timeZoneSource)
        steps = try c.decode([String].self, forKey: .steps)
        counts = try c.decode([String: Int].self, forKey: .counts)
        hasTransit = try c.decodeIfPresent(Bool.self, forKey: .hasTransit) ?? !steps.isEmpty
        languages = try c.decodeIfPresent([String].self, forKey: .languages)
    }

    static let fileName = "manifest.json"

    static func read(from directory: URL, name: String) throws -> RegionManifest {
        let file = directory.appendingPathComponent(fileName)
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(RegionManifest.self, from: Data(contentsOf: file))
        } catch {
            throw StreetsError.corruptManifest(region: name, message: "\(error)")
        }
    }

    /// Replaces the manifest in one rename; the file is readable by its owner alone, as a
    /// source's URL may carry credentials.
    func write(to directory: URL) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(self)
        do {
            try OwnerOnlyFile.replace(directory.appendingPathComponent(Self.fileName), with: data)
        } catch let failure as OwnerOnlyFile.Failure {
            throw StreetsError.importFailed(phase: "writing the manifest", message: failure.message)
        }
    }
}

/// One source file of an import, identified by content.
public struct RegionSourceFile: Codable, Hashable, Sendable {
    /// "osm", or the name of the import step that declared it.
    public var role: String
    public var path: String
    public var sha256: String
    public var size: Int64
    /// For a source fetched by URL: the URL and the server's validators (`path` is the copy
    /// the daemon keeps); nil for a file the user gave.
    public var origin: RegionSourceOrigin?
    /// The file's modification time (whole seconds) when it was read: a check finds a file
    /// of the same size and time unchanged without reading it. Nil in older manifests.
    public var modified: Date?

    public init(role: String, path: String, sha256: String, size: Int64, origin: RegionSourceOrigin? = nil, modified: Date? = nil) {
        self.modified = modified
        self.role = role
        self.path = path
        self.sha256 = sha256
        self.size = size
        self.origin = origin
    }
}

/// A latitude/longitude rectangle (regions never cross the antimeridian in practice; one that
/// does is stored as its full longitude span, which still contains every point).
public struct RegionBoundingBox: Codable, Hashable, Sendable {
    /// How far outside its box a point still belongs to a region (data near the edge): the one
    /// margin every lookup uses, the same as Routino's snapping limit.
    public static let margin = 1_000.0

    public var minLatitude: Double
    public var minLongitude: Double
    public var maxLatitude: Double
    public var maxLongitude: Double

    public init(minLatitude: Double, minLongitude: Double, maxLatitude: Double, maxLongitude: Double) {
        self.minLatitude = minLatitude
        self.minLongitude = minLongitude
        self.maxLatitude = maxLatitude
        self.maxLongitude = maxLongitude
    }

    public var center: Coordinate {
        Coordinate(latitude: (minLatitude + maxLatitude) / 2, longitude: (minLongitude + maxLongitude) / 2)
    }

    /// Square degrees, to prefer the smallest of overlapping regions.
    public var area: Double { (maxLatitude - minLatitude) * (maxLongitude - minLongitude) }

    /// True when `coordinate` is inside, allowing `margin` metres outside the edges.
    public func contains(_ coordinate: Coordinate, margin: Double = RegionBoundingBox.margin) -> Bool {
        let latMargin = margin / 111_195
        let lonMargin = margin / max(1, 111_195 * cos(coordinate.latitude * .pi / 180))
        return coordinate.latitude >= minLatitude - latMargin && coordinate.latitude <= maxLatitude + latMargin
            && coordinate.longitude >= minLongitude - lonMargin && coordinate.longitude <= maxLongitude + lonMargin
    }
}
