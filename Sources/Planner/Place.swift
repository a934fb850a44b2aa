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
    public var name: String { didSet { id = Place.identifier(name: name, coordinate: coordinate) } }
    public var coordinate: Coordinate { didSet { id = Place.identifier(name: name, coordinate: coordinate) } }
    public var kind: PlaceKind?
    /// `"<name>@<lat>,<lon>"` with exactly seven decimals, independent of the locale. Kept, not
    /// computed per read: segment keys, locks, pins and notes ask for it many times per edit, and
    /// formatting four numbers each time was a sixth of a one-segment edit's CPU.
    public private(set) var id: String

    public init(name: String, coordinate: Coordinate, kind: PlaceKind? = nil) {
        self.name = name
        self.coordinate = coordinate
        self.kind = kind
        id = Place.identifier(name: name, coordinate: coordinate)
    }

    private enum CodingKeys: String, CodingKey { case name, coordinate, kind }

    public init(from decoder: Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        self.init(name: try fields.decode(String.self, forKey: .name),
                  coordinate: try fields.decode(Coordinate.self, forKey: .coordinate),
                  kind: try fields.decodeIfPresent(PlaceKind.self, forKey: .kind))
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
