import Foundation

/// What kind of thing a place is; used for display and for the "prefer a train station" rule.
public enum PlaceKind: String, Sendable, Codable, CaseIterable {
    case address, street, poi, transitStop = "transit_stop", saved
    /// A point typed as coordinates, named by what is near it ("near Hämeenkatu 10"); links
    /// name it by its coordinates, which are never ambiguous.
    case coordinate
}

/// A named coordinate. Its `id` is the key for locks and history de-duplication.
public struct Place: Hashable, Sendable, Codable {
    public var name: String
    public var coordinate: Coordinate
    public var kind: PlaceKind?

    public init(name: String, coordinate: Coordinate, kind: PlaceKind? = nil) {
        self.name = name
        self.coordinate = coordinate
        self.kind = kind
    }

    /// `"<name>@<lat>,<lon>"` with exactly seven decimals, independent of the locale.
    public var id: String {
        Place.identifier(name: name, coordinate: coordinate)
    }

    public static func identifier(name: String, coordinate: Coordinate) -> String {
        "\(name)@\(sevenDecimals(coordinate.latitude)),\(sevenDecimals(coordinate.longitude))"
    }

    /// `String(format:)` without a locale is the non-localised (POSIX) form: always a decimal
    /// point, whatever the machine's locale, and much cheaper than formatting through a `Locale`.
    static func sevenDecimals(_ value: Double) -> String {
        String(format: "%.7f", value)
    }
}
