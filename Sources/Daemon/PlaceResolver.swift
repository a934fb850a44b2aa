import Foundation
import Planner

/// Turns what a person typed into a plan node: `@here` (the current location), `lat,lon`,
/// a saved place's name, or text that is searched in every region (first result).
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

    /// - parameter near: where text is looked up first (the region containing it, ranked by
    ///   distance from it); default the current location.
    /// - parameter region: search text only in this region.
    /// - throws: `DaemonError.noLocation` for `@here` without a fix, `.invalidParams` for a bad
    ///   coordinate or empty text, `.noRegion` when text must be searched and nothing is imported,
    ///   `.notFound` for an unknown region, `.placeNotFound` when the search finds nothing.
    public func resolve(_ text: String, near: Coordinate? = nil, region: String? = nil) throws -> PlanNode {
        if let node = try resolveWithoutSearch(text) { return node }
        return try searched(text, near: near ?? location.current?.coordinate, region: region)
    }

    /// Both ends of a trip. Text is looked up first in the region containing `near` (`--near`),
    /// else the other end when that one needs no search, else the current location; then in
    /// every other region.
    public func resolveTrip(from: String, to: String, near: Coordinate? = nil, region: String? = nil) throws -> (PlanNode, PlanNode) {
        let fixedFrom = try resolveWithoutSearch(from), fixedTo = try resolveWithoutSearch(to)
        let origin = try fixedFrom
            ?? searched(from, near: near ?? fixedTo?.place.coordinate ?? location.current?.coordinate, region: region)
        let destination = try fixedTo ?? searched(to, near: near ?? origin.place.coordinate, region: region)
        return (origin, destination)
    }

    /// `@here`, `lat,lon` or a saved place's name; nil for text that must be searched.
    func resolveWithoutSearch(_ text: String) throws -> PlanNode? {
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
        return nil
    }

    private func searched(_ text: String, near: Coordinate?, region: String?) throws -> PlanNode {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let first = try regions.search(trimmed, near: near, preferring: near, region: region, limit: 1).first else {
            throw DaemonError.placeNotFound(trimmed + (region.map { " in region \($0)" } ?? ""))
        }
        return PlanNode(place: first.result.place)
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
