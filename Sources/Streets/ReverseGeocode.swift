import Planner

/// What is at a coordinate: the nearest address, place (point of interest or stop) and street,
/// each with its distance in metres (`PlaceSearchResult.distance`).
public struct ReverseGeocode: Hashable, Sendable {
    public var address: PlaceSearchResult?
    public var place: PlaceSearchResult?
    public var street: PlaceSearchResult?

    public init(address: PlaceSearchResult? = nil, place: PlaceSearchResult? = nil, street: PlaceSearchResult? = nil) {
        self.address = address
        self.place = place
        self.street = street
    }

    /// An address or place this close is what the coordinate is "near".
    public static let pointRadius = 50.0
    /// Else a street this close names it.
    public static let streetRadius = 300.0

    /// "near Hämeenkatu 10" (an address or place within 50 m, the nearer of the two), else
    /// "near Hämeenkatu" (a street within 300 m), else nil.
    public var label: String? {
        let points = [address, place].compactMap { $0 }.filter { ($0.distance ?? .infinity) <= Self.pointRadius }
        if let nearest = points.min(by: { ($0.distance ?? 0) < ($1.distance ?? 0) }) { return "near \(nearest.name)" }
        if let street, (street.distance ?? .infinity) <= Self.streetRadius { return "near \(street.name)" }
        return nil
    }

    /// The nearest of the three.
    public var nearest: PlaceSearchResult? {
        [address, place, street].compactMap { $0 }.min { ($0.distance ?? .infinity) < ($1.distance ?? .infinity) }
    }
}
