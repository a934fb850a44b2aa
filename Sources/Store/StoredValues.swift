import Foundation
import Planner
import SQLite

/// How domain values become columns and back, and the checks on what the store accepts.
enum StoredValues {
    /// A position as stored in a string list ("61.4978000,23.7610000", POSIX digits, 7 decimals).
    static func position(_ coordinate: Coordinate) -> String {
        String(format: "%.7f,%.7f", locale: Locale(identifier: "en_US_POSIX"), coordinate.latitude, coordinate.longitude)
    }

    /// A position read back from `position(_:)`.
    /// - throws: `corruptRecord` for anything else.
    static func position(_ text: String) throws -> Coordinate {
        let parts = text.split(separator: ",").compactMap { Double($0) }
        guard parts.count == 2, Coordinate(latitude: parts[0], longitude: parts[1]).isValid else {
            throw StoreError.corruptRecord("a stored position is not latitude,longitude: \(text)")
        }
        return Coordinate(latitude: parts[0], longitude: parts[1])
    }

    /// Text the user typed. Rejects Google Maps directions links: a time-stamped link goes
    /// stale, so links are rebuilt from places and times when needed, never stored.
    static func userText(_ text: String, field: String, allowEmpty: Bool = false) throws -> SQLiteValue {
        if !allowEmpty, text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw StoreError.invalidInput("\(field) is empty")
        }
        if GoogleMapsLink.containsDirectionsLink(text) {
            throw StoreError.invalidInput(
                "\(field) contains a Google Maps directions link; links are rebuilt on demand, never stored")
        }
        return .text(text)
    }

    /// A name (a saved place's, a plan's title): user text without a NUL. SQLite's `length()`
    /// and the schema's checks read text only up to a NUL, so one would fail them as a
    /// `database_error`. (The daemon refuses every control character in names given by hand;
    /// the store takes the others, e.g. in titles made from OpenStreetMap names.)
    static func name(_ text: String, field: String) throws -> SQLiteValue {
        if text.unicodeScalars.contains("\u{0}") {
            throw StoreError.invalidInput("\(field) must not contain a NUL character (U+0000)")
        }
        return try userText(text, field: field)
    }

    /// A number for a REAL column. NaN is refused because SQLite would store it as NULL.
    static func real(_ value: Double, field: String) throws -> SQLiteValue {
        guard !value.isNaN else { throw StoreError.invalidInput("\(field) is not a number (NaN)") }
        return .real(value)
    }

    static func optionalReal(_ value: Double?, field: String) throws -> SQLiteValue {
        guard let value else { return .null }
        return try real(value, field: field)
    }

    static func date(_ value: Date, field: String) throws -> SQLiteValue {
        try real(value.timeIntervalSinceReferenceDate, field: field)
    }

    static func optionalDate(_ value: Date?, field: String) throws -> SQLiteValue {
        guard let value else { return .null }
        return try date(value, field: field)
    }

    /// name, latitude, longitude, kind
    static func place(_ place: Place, field: String) throws -> [SQLiteValue] {
        [.text(place.name),
         try real(place.coordinate.latitude, field: "\(field) latitude"),
         try real(place.coordinate.longitude, field: "\(field) longitude"),
         .optional(place.kind?.rawValue)]
    }

    /// Reads name, latitude, longitude, kind from four columns starting at `column`.
    static func place(_ row: Row, at column: Int) throws -> Place {
        Place(name: row.string(column),
              coordinate: Coordinate(latitude: row.double(column + 1), longitude: row.double(column + 2)),
              kind: try kind(row.optionalString(column + 3)))
    }

    static func kind(_ raw: String?) throws -> PlaceKind? {
        guard let raw else { return nil }
        guard let kind = PlaceKind(rawValue: raw) else { throw StoreError.corruptRecord("unknown place kind \(raw)") }
        return kind
    }

    static func mode(_ raw: String) throws -> TravelMode {
        guard let mode = TravelMode(rawValue: raw) else { throw StoreError.corruptRecord("unknown travel mode \(raw)") }
        return mode
    }

    static func pace(_ raw: String) throws -> WalkingPace {
        guard let pace = WalkingPace(rawValue: raw) else { throw StoreError.corruptRecord("unknown walking pace \(raw)") }
        return pace
    }

    static func access(_ raw: String) throws -> AccessNeed {
        guard let access = AccessNeed(rawValue: raw) else { throw StoreError.corruptRecord("unknown access need \(raw)") }
        return access
    }

    static func date(_ row: Row, _ column: Int) -> Date {
        Date(timeIntervalSinceReferenceDate: row.double(column))
    }

    static func optionalDate(_ row: Row, _ column: Int) -> Date? {
        row.optionalDouble(column).map(Date.init(timeIntervalSinceReferenceDate:))
    }
}
