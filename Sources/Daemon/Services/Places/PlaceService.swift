import Foundation
import Planner
import Store

/// Saved places: saving one (its name checked, the place resolved, an optional fence), listing,
/// renaming and removing them, with the store's errors said as the user's.
struct PlaceService: Sendable {
    let store: Store
    let resolver: PlaceResolver
    let fences: GeofenceService
    let events: EventHub

    /// A place as saved, and how the text given for it matched.
    struct Saved: Sendable {
        var place: Place
        var resolved: ResolvedPlace
    }

    /// Every saved place, by name.
    func savedPlaces() async throws -> [SavedPlace] {
        try await store.read(Places.all())
    }

    /// Saves `text`'s place as `name` (replacing one of that name), with a fence around it when
    /// `geofence` (of `radiusM`, default `GeofenceRule.insideMetres`); publishes `place_saved`.
    /// - throws: `DaemonError.invalidParams` for an empty, reserved or badly formed name, or a
    ///   radius without a fence or out of range; the resolver's errors for `text`.
    func save(_ text: String, as givenName: String, note: String?, geofence: Bool, radiusM: Double?) async throws -> Saved {
        let name = givenName.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw DaemonError.invalidParams("a saved place needs a name") }
        try NameRule.check(givenName, field: "name")
        guard name != PlaceResolver.hereToken else { throw DaemonError.invalidParams("\(name) is reserved") }
        let resolved = try await resolver.resolve(text)
        let place = Place(name: name, coordinate: resolved.place.coordinate, kind: .saved)
        if radiusM != nil, !geofence {
            throw DaemonError.invalidParams("radius_m needs geofence: true")
        }
        if let radius = radiusM, !Store.fenceRadiusRange.contains(radius) {
            throw DaemonError.invalidParams(
                "radius_m \(radius) must be \(Int(Store.fenceRadiusRange.lowerBound)) to \(Int(Store.fenceRadiusRange.upperBound)) m")
        }
        try await store.write(Places.save(SavedPlace(name: name, place: place, note: note)))
        if geofence { try await fences.setFence(name, on: true, radiusM: radiusM ?? GeofenceRule.insideMetres) }
        events.publish(.placeSaved(name: name))
        return Saved(place: place, resolved: resolved)
    }

    /// - returns: the new name, trimmed.
    /// - throws: `DaemonError.invalidParams` for an empty or badly formed name, `notFound` for no place `old`.
    func rename(_ old: String, to givenName: String) async throws -> String {
        let new = givenName.trimmingCharacters(in: .whitespaces)
        guard !new.isEmpty else { throw DaemonError.invalidParams("the new name must not be empty") }
        try NameRule.check(givenName, field: "new")
        do {
            try await store.write(Places.rename(from: old, to: new))
        } catch StoreError.notFound {
            throw DaemonError.notFound("no saved place named \"\(old)\"")
        }
        return new
    }

    /// - throws: `DaemonError.notFound` for no place `name`.
    func remove(_ name: String) async throws {
        do {
            try await store.write(Places.remove(named: name))
        } catch StoreError.notFound {
            throw DaemonError.notFound("no saved place named \"\(name)\"")
        }
    }
}
