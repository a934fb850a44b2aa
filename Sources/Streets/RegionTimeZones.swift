import Foundation
import Planner

/// A region's time zone and how it was decided, in words a person can check ("agency_timezone
/// of feed tampere.zip"), recorded in the manifest and shown by `region list`.
public struct RegionTimeZoneDecision: Hashable, Sendable {
    public var zone: String
    public var source: String

    public init(zone: String, source: String) {
        self.zone = zone
        self.source = source
    }
}

/// Derives a time zone from a position with the system's time-zone database: `zone.tab` lists
/// one principal location per zone (Helsinki for Europe/Helsinki, São Paulo for
/// America/Sao_Paulo) and the nearest one names the zone. Only used when neither the user nor a
/// GTFS feed says which zone a region is in, and the import report says so.
///
/// ```swift
/// let table = try RegionTimeZones.systemTable()
/// table.decision(for: Coordinate(latitude: 35.68, longitude: 139.77))?.zone // "Asia/Tokyo"
/// ```
public struct RegionTimeZones: Sendable {
    public struct Location: Hashable, Sendable {
        public var zone: String
        public var coordinate: Coordinate
    }

    /// `zone.tab` first: it keeps country-specific names (Europe/Stockholm) that `zone1970.tab`
    /// folds into another country's zone (Europe/Berlin).
    public static let systemFiles = ["/usr/share/zoneinfo/zone.tab", "/usr/share/zoneinfo/zone1970.tab"]
    /// A principal location further away than this decides nothing (open sea, a missing zone).
    public static let maximumDistance = 2_000_000.0

    public let file: String
    public let locations: [Location]

    /// Reads a `zone.tab`-style file: `CC<TAB>±DDMM[SS]±DDDMM[SS]<TAB>Zone…`; comment lines start with `#`.
    /// Zones the system cannot load are skipped.
    public init(file: String) throws {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw StreetsError.timeZoneUndecided("cannot read the time-zone table \(file)")
        }
        self.file = file
        locations = text.split(separator: "\n").compactMap { line -> Location? in
            guard !line.hasPrefix("#") else { return nil }
            let fields = line.split(separator: "\t")
            guard fields.count >= 3, let coordinate = Self.coordinate(String(fields[1])),
                  TimeZone(identifier: String(fields[2])) != nil else { return nil }
            return Location(zone: String(fields[2]), coordinate: coordinate)
        }
    }

    /// True for a zone name of the system's database ("Europe/Helsinki", "UTC"); false for what
    /// Foundation accepts besides ("GMT+0200", abbreviations).
    public static func isKnown(_ name: String) -> Bool {
        guard TimeZone(identifier: name) != nil, !name.hasPrefix("/"), !name.contains("..") else { return false }
        return name == "UTC" || FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/\(name)")
    }

    /// The first readable table of `systemFiles`.
    public static func systemTable() throws -> RegionTimeZones {
        for file in systemFiles where FileManager.default.isReadableFile(atPath: file) {
            return try RegionTimeZones(file: file)
        }
        throw StreetsError.timeZoneUndecided("the system's time-zone database (\(systemFiles.joined(separator: ", "))) is not installed")
    }

    /// The zone of the nearest principal location, or nil when none is within `maximumDistance`.
    public func decision(for point: Coordinate) -> RegionTimeZoneDecision? {
        guard let nearest = locations.min(by: { $0.coordinate.distance(to: point) < $1.coordinate.distance(to: point) }) else {
            return nil
        }
        let distance = nearest.coordinate.distance(to: point)
        guard distance <= Self.maximumDistance else { return nil }
        let position = String(format: "%.4f,%.4f", locale: Locale(identifier: "en_US_POSIX"), point.latitude, point.longitude)
        return RegionTimeZoneDecision(
            zone: nearest.zone,
            source: "derived from the region's position \(position): the nearest principal location in \(file) "
                + "is \(nearest.zone)'s, \(Int((distance / 1000).rounded())) km away")
    }

    /// `+6010+02458` or `+353916+1394441` (degrees, minutes and optional seconds).
    static func coordinate(_ text: String) -> Coordinate? {
        let characters = Array(text)
        guard let split = characters.indices.dropFirst().first(where: { characters[$0] == "+" || characters[$0] == "-" }) else {
            return nil
        }
        func degrees(_ part: ArraySlice<Character>, degreeDigits: Int) -> Double? {
            guard let sign = part.first, sign == "+" || sign == "-" else { return nil }
            let digits = part.dropFirst()
            guard digits.count == degreeDigits + 2 || digits.count == degreeDigits + 4,
                  digits.allSatisfy(\.isASCII), let number = Int(String(digits)) else { return nil }
            let hasSeconds = digits.count == degreeDigits + 4
            let seconds = hasSeconds ? number % 100 : 0
            let minutes = hasSeconds ? number / 100 % 100 : number % 100
            let whole = hasSeconds ? number / 10_000 : number / 100
            let value = Double(whole) + Double(minutes) / 60 + Double(seconds) / 3_600
            return sign == "-" ? -value : value
        }
        guard let latitude = degrees(characters[..<split], degreeDigits: 2),
              let longitude = degrees(characters[split...], degreeDigits: 3) else { return nil }
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        return coordinate.isValid ? coordinate : nil
    }
}
