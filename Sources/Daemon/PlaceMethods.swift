import Foundation
import Planner
import Store
import Streets
import WireProtocol

extension DaemonServices {
    /// `search`, `place.save`, `place.list`, `place.rename`, `place.remove`.
    func placeHandlers() -> [WireMethod: RequestDispatcher.Handler] {
        [
            .search: { [self] context in
                let params = try context.params(Params.Search.self)
                let limit = params.limit ?? 10
                guard (1...100).contains(limit) else { throw DaemonError.invalidParams("limit must be 1 to 100, got \(limit)") }
                var kinds: Set<PlaceSearchKind>?
                if let kind = params.kind {
                    guard let value = PlaceSearchKind(rawValue: kind) else {
                        throw DaemonError.invalidParams("kind \"\(kind)\" must be street, poi or stop")
                    }
                    kinds = [value]
                }
                try regions.requireRegions()
                let near = try params.near.map { try resolver.resolve($0, region: params.region).place.coordinate }
                    ?? location.current?.coordinate
                let found = try regions.search(params.text, near: near, preferring: near, region: params.region, kinds: kinds,
                                               limit: limit)
                try store.recordSearch(SearchHistoryEntry(query: params.text, place: found.first?.result.place, date: clock.now()))
                return .object(["results": .array(try found.map { regional in
                    let result = regional.result
                    var document = try JSONValue(encoding: WireDocuments.place(result.place))
                    if case .object(var fields) = document {
                        fields["region"] = .string(regional.region)
                        fields["kind"] = .string(result.kind.rawValue)
                        fields["category"] = result.category.map(JSONValue.string) ?? .null
                        fields["distance_m"] = result.distance.map(JSONValue.number) ?? .null
                        document = .object(fields)
                    }
                    return document
                })])
            },
            .placeSave: { [self] context in
                let params = try context.params(Params.PlaceSave.self)
                let name = params.name.trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty else { throw DaemonError.invalidParams("a saved place needs a name") }
                guard name != PlaceResolver.hereToken else { throw DaemonError.invalidParams("\(name) is reserved") }
                let node = try resolver.resolve(params.place)
                let place = Place(name: name, coordinate: node.place.coordinate, kind: .saved)
                if params.radiusM != nil, params.geofence != true {
                    throw DaemonError.invalidParams("radius_m needs geofence: true")
                }
                if let radius = params.radiusM, !Store.fenceRadiusRange.contains(radius) {
                    throw DaemonError.invalidParams("radius_m \(radius) must be \(Int(Store.fenceRadiusRange.lowerBound)) to \(Int(Store.fenceRadiusRange.upperBound)) m")
                }
                try store.savePlace(SavedPlace(name: name, place: place, note: params.note))
                if params.geofence == true { try setFence(name, on: true, radiusM: params.radiusM ?? GeofenceRule.insideMetres) }
                events.publish("place_saved", ["name": .string(name)])
                var document = try JSONValue(encoding: WireDocuments.place(place, note: params.note))
                if params.geofence == true, case .object(var fields) = document {
                    fields["geofence"] = try fenceDocument(name)["geofence"]
                    document = .object(fields)
                }
                return document
            },
            .placeList: { [self] _ in
                .object(["places": .array(try store.places().map {
                    try JSONValue(encoding: WireDocuments.place(Place(name: $0.name, coordinate: $0.place.coordinate, kind: .saved),
                                                                note: $0.note))
                })])
            },
            .placeRename: { [self] context in
                let params = try context.params(Params.PlaceRename.self)
                let new = params.new.trimmingCharacters(in: .whitespaces)
                guard !new.isEmpty else { throw DaemonError.invalidParams("the new name must not be empty") }
                do {
                    try store.renamePlace(from: params.old, to: new)
                } catch StoreError.notFound {
                    throw DaemonError.notFound("no saved place named \"\(params.old)\"")
                }
                return .object(["renamed": .string(params.old), "to": .string(new)])
            },
            .placeRemove: { [self] context in
                let params = try context.params(Params.Name.self)
                do {
                    try store.removePlace(named: params.name)
                } catch StoreError.notFound {
                    throw DaemonError.notFound("no saved place named \"\(params.name)\"")
                }
                return .object(["removed": .string(params.name)])
            },
        ]
    }

    /// `history.searches`, `history.routes`, `history.clear`.
    func historyHandlers() -> [WireMethod: RequestDispatcher.Handler] {
        @Sendable func limit(_ context: RequestContext) throws -> Int {
            let limit = try context.params(Params.HistoryList.self).limit ?? Store.historyLimit
            guard (1...Store.historyLimit).contains(limit) else {
                throw DaemonError.invalidParams("limit must be 1 to \(Store.historyLimit), got \(limit)")
            }
            return limit
        }
        return [
            .historySearches: { [self] context in
                let entries = try store.searchHistory(limit: limit(context))
                return .object(["entries": .array(try entries.map { entry in
                    try JSONValue(encoding: HistoryEntryDocument(
                        label: entry.query, place: entry.place.map { WireDocuments.place($0) },
                        at: WireTime.string(from: entry.date, timeZone: TimeZone.current)))
                })])
            },
            .historyRoutes: { [self] context in
                let entries = try store.routeHistory(limit: limit(context))
                return .object(["entries": .array(try entries.map { entry in
                    var document = try JSONValue(encoding: HistoryEntryDocument(
                        label: "\(entry.from.name) → \(entry.to.name)", from: WireDocuments.place(entry.from),
                        to: WireDocuments.place(entry.to), at: WireTime.string(from: entry.date, timeZone: TimeZone.current)))
                    if case .object(var fields) = document {
                        fields["modes"] = .array(entry.modes.map { .string($0.rawValue) })
                        document = .object(fields)
                    }
                    return document
                })])
            },
            .historyClear: { [self] context in
                let which = try context.params(Params.HistoryClear.self).which
                switch which {
                case "searches": try store.clearSearchHistory()
                case "routes": try store.clearRouteHistory()
                case "visits": try store.clearVisitHistory()
                default: throw DaemonError.invalidParams("which \"\(which)\" must be searches, routes or visits")
                }
                return .object(["cleared": .string(which)])
            },
        ]
    }
}
