import Foundation
import Planner
import Store
import Streets
import WireProtocol

/// `search`, `place.save`, `place.list`, `place.rename`, `place.remove`.
struct PlaceMethods: Sendable {
    /// Saved places and search history.
    let places: Store
    let resolver: PlaceResolver
    let regions: RegionRegistry
    let location: LocationState
    let clock: any WallClock
    let events: EventHub
    let fences: GeofenceMethods
    let history: BestEffortHistory

    func register(in table: inout MethodTable) {
        table.register(Endpoints.search) { params, _ in
            let query = try await searchQuery(params)
            let found = try regions.search(params.text, near: query.near?.place.coordinate ?? query.here,
                                           preferring: query.near?.place.coordinate ?? query.here, region: params.region,
                                           kinds: query.kinds, within: query.within, limit: query.limit)
            if !params.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {  // blank text is no search to remember
                let entry = SearchHistoryEntry(query: params.text, place: found.first?.result.place, date: clock.now(),
                                               region: found.first?.region)
                try await history.record("search") { try await places.write(History.recordSearch(entry)) }
            }
            var document = WireDocuments.search(found)
            document.near = query.near.flatMap(WireDocuments.matchedPlace)
            let notes = try regions.categoryLanguageNotes(params.text, preferring: query.near?.place.coordinate ?? query.here,
                                                          region: params.region)
            document.notes = notes.isEmpty ? nil : notes
            return document
        }
        table.register(Endpoints.searchComplete) { params, _ in
            let query = try await searchQuery(params)
            let near = query.near?.place.coordinate ?? query.here
            let limit = min(query.limit, 10)
            // Saved places only when no filter would leave them out (a kind, a region, a box).
            let saved = query.kinds == nil && params.region == nil && query.within == nil
                ? SavedPlaceCompletion.matches(params.text, in: try await places.read(Places.all()), limit: limit) : []
            var document = WireDocuments.search(try regions.search(params.text, near: near, preferring: near,
                                                                   region: params.region, kinds: query.kinds, within: query.within,
                                                                   limit: limit, complete: true))
            document.results = (saved.map(WireDocuments.savedSearchResult) + document.results).prefix(limit).map { $0 }
            return document
        }
        table.register(Endpoints.where) { params, _ in
            let coordinate = try await resolver.point(of: params.place)
            _ = try regions.requireRegions()
            let found = try regions.reverse(coordinate)
            return WireDocuments.whereIs(coordinate, region: found?.region, found: found?.found)
        }
        table.register(Endpoints.placeSave) { params, _ in
            let name = params.name.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { throw DaemonError.invalidParams("a saved place needs a name") }
            try NameRule.check(params.name, field: "name")
            guard name != PlaceResolver.hereToken else { throw DaemonError.invalidParams("\(name) is reserved") }
            let resolved = try await resolver.resolve(params.place)
            let place = Place(name: name, coordinate: resolved.place.coordinate, kind: .saved)
            if params.radiusM != nil, params.geofence != true {
                throw DaemonError.invalidParams("radius_m needs geofence: true")
            }
            if let radius = params.radiusM, !Store.fenceRadiusRange.contains(radius) {
                throw DaemonError.invalidParams(
                    "radius_m \(radius) must be \(Int(Store.fenceRadiusRange.lowerBound)) to \(Int(Store.fenceRadiusRange.upperBound)) m")
            }
            try await places.write(Places.save(SavedPlace(name: name, place: place, note: params.note)))
            if params.geofence == true { try await fences.setFence(name, on: true, radiusM: params.radiusM ?? GeofenceRule.insideMetres) }
            events.publish(.placeSaved(name: name))
            var document = WireDocuments.place(place, note: params.note)
            document.match = resolved.match?.rawValue
            document.matchNote = resolved.note
            if params.geofence == true { document.geofence = try await fences.document(name).geofence }
            return document
        }
        table.register(Endpoints.placeList) { _, _ in
            let fenced = try await fences.documents()
            return PlaceListDocument(places: try await places.read(Places.all()).map {
                var document = WireDocuments.place(Place(name: $0.name, coordinate: $0.place.coordinate, kind: .saved), note: $0.note)
                document.geofence = fenced[$0.name]
                return document
            })
        }
        table.register(Endpoints.placeRename) { params, _ in
            let new = params.new.trimmingCharacters(in: .whitespaces)
            guard !new.isEmpty else { throw DaemonError.invalidParams("the new name must not be empty") }
            try NameRule.check(params.new, field: "new")
            do {
                try await places.write(Places.rename(from: params.old, to: new))
            } catch StoreError.notFound {
                throw DaemonError.notFound("no saved place named \"\(params.old)\"")
            }
            return RenamedDocument(renamed: params.old, to: new)
        }
        table.register(Endpoints.placeRemove) { params, _ in
            do {
                try await places.write(Places.remove(named: params.name))
            } catch StoreError.notFound {
                throw DaemonError.notFound("no saved place named \"\(params.name)\"")
            }
            return RemovedDocument(removed: params.name)
        }
    }

    /// A search's checked options: the `near` place (with how it matched) and the current
    /// location (used without one), kinds, box, limit.
    private func searchQuery(_ params: Params.Search) async throws
        -> (near: ResolvedPlace?, here: Coordinate?, kinds: Set<PlaceSearchKind>?, within: RegionBoundingBox?, limit: Int) {
        let limit = params.limit ?? 10
        guard (1...100).contains(limit) else { throw DaemonError.invalidParams("limit must be 1 to 100, got \(limit)") }
        var kinds: Set<PlaceSearchKind>?
        if let kind = params.kind {
            guard let value = PlaceSearchKind(rawValue: kind) else {
                throw DaemonError.invalidParams("kind \"\(kind)\" must be one of \(PlaceSearchKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            kinds = [value]
        }
        guard params.text.count <= PlaceIndex.maxQueryLength else {
            throw DaemonError.invalidParams("search text is \(params.text.count) characters long; the limit is \(PlaceIndex.maxQueryLength)")
        }
        let within = try params.within.map(Self.box)
        _ = try regions.requireRegions()
        let near = try await resolver.nearPlace(params.near, region: params.region)
        return (near, location.current?.coordinate, kinds, within, limit)
    }

    /// `within` checked: valid corners, the minimum below the maximum.
    static func box(_ box: WireBox) throws -> RegionBoundingBox {
        let corners = [Coordinate(latitude: box.minLat, longitude: box.minLon), Coordinate(latitude: box.maxLat, longitude: box.maxLon)]
        guard corners.allSatisfy(\.isValid), box.minLat < box.maxLat, box.minLon < box.maxLon else {
            throw DaemonError.invalidParams(
                "within must be MINLAT,MINLON,MAXLAT,MAXLON with valid coordinates and each minimum below its maximum, got \(box.minLat),\(box.minLon),\(box.maxLat),\(box.maxLon)")
        }
        return RegionBoundingBox(minLatitude: box.minLat, minLongitude: box.minLon, maxLatitude: box.maxLat, maxLongitude: box.maxLon)
    }
}
