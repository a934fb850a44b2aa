import Foundation
import Planner

/// Turns what a person typed into a plan node: `@here` (the current location), `lat,lon`,
/// a saved place's name, or text that is searched (first result).
public struct PlaceResolver: Sendable {
    let regions: RegionRegistry
    let location: LocationState
    /// Looks up a saved place by exact name; nil when there is none.
    let savedPlace: @Sendable (String) throws -> Place?

    public init(regions: RegionRegistry, location: LocationState, savedPlace: @escaping @Sendable (String) throws -> Place?) {
        self.regions = regions
        self.location = location
        self.savedPlace = savedPlace
    }

    public static let hereToken = "@here"

    /// - throws: `DaemonError.noLocation` for `@here` without a fix, `.invalidParams` for a bad
    ///   coordinate or empty text, `.noRegion` when text must be searched and nothing is imported,
    ///   `.placeNotFound` when the search finds nothing.
    public func resolve(_ text: String, near: Coordinate? = nil) throws -> PlanNode {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw DaemonError.invalidParams("a place must not be empty") }
        if trimmed == Self.hereToken {
            guard let fix = location.current else { throw DaemonError.noLocation }
            return PlanNode(place: Place(name: "Current location", coordinate: fix.coordinate), isCurrentLocation: true)
        }
        if let coordinate = try Self.coordinate(from: trimmed) {
            return PlanNode(place: Place(name: Self.label(coordinate), coordinate: coordinate))
        }
        if let saved = try savedPlace(trimmed) {
            return PlanNode(place: saved)
        }
        let region = try regions.primaryRegion(for: near ?? location.current?.coordinate)
        let results = try regions.placeIndex(of: region).search(trimmed, near: near ?? location.current?.coordinate, limit: 1)
        guard let first = results.first else { throw DaemonError.placeNotFound(trimmed) }
        return PlanNode(place: first.place)
    }

    /// `61.4981,23.7610` (spaces allowed after the comma). Nil when the text is not two numbers;
    /// throws when it is two numbers that are not a valid coordinate.
    public static func coordinate(from text: String) throws -> Coordinate? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) else { return nil }
        let coordinate = Coordinate(latitude: lat, longitude: lon)
        guard coordinate.isValid else {
            throw DaemonError.invalidParams("invalid coordinate \(text): latitude must be within ±90 and longitude within ±180")
        }
        return coordinate
    }

    static func label(_ coordinate: Coordinate) -> String {
        String(format: "%.5f,%.5f", locale: Locale(identifier: "en_US_POSIX"), coordinate.latitude, coordinate.longitude)
    }
}
