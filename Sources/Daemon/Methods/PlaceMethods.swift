import Foundation
import Planner
import Store
import Streets
import WireProtocol

/// `search`, `place.save`, `place.list`, `place.rename`, `place.remove`.
struct PlaceMethods: Sendable {
    /// Saved places.
    let places: PlaceService
    let resolver: PlaceResolver
    let regions: RegionRegistry
    let location: LocationState
    let fences: GeofenceService
    /// Searches are remembered there.
    let history: HistoryService

    func register(in table: inout MethodTable) {
        table.register(Endpoints.search) { params, _ in
            let query = try await searchQuery(params)
            let found = try regions.search(params.text, near: query.near?.place.coordinate ?? query.here,
                                           preferring: query.near?.place.coordinate ?? query.here, region: params.region,
                                           kinds: query.kinds, within: query.within, limit: query.limit)
            try await history.recordSearch(params.text, found: found.first?.result.place, region: found.first?.region)
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
                ? SavedPlaceCompletion.matches(params.text, in: try await places.savedPlaces(), limit: limit) : []
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
            let saved = try await places.save(params.place, as: params.name, note: params.note, geofence: params.geofence == true,
                                              radiusM: params.radiusM)
            var document = WireDocuments.place(saved.place, note: params.note)
            document.match = saved.resolved.match?.rawValue
            document.matchNote = saved.resolved.note
            if params.geofence == true { document.geofence = WireDocuments.fences(try await fences.fences())[saved.place.name] }
            return document
        }
        table.register(Endpoints.placeList) { _, _ in
            let fenced = WireDocuments.fences(try await fences.fences())
            return PlaceListDocument(places: try await places.savedPlaces().map {
                var document = WireDocuments.place(Place(name: $0.name, coordinate: $0.place.coordinate, kind: .saved), note: $0.note)
                document.geofence = fenced[$0.name]
                return document
            })
        }
        table.register(Endpoints.placeRename) { params, _ in
            RenamedDocument(renamed: params.old, to: try await places.rename(params.old, to: params.new))
        }
        table.register(Endpoints.placeRemove) { params, _ in
            try await places.remove(params.name)
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
