import Foundation
import Planner
import Store

/// The search and route history, and the visits' list as `history.clear` empties it: what the
/// `history.*` methods and `search` read and change, with the store's errors said as the user's.
struct HistoryService: Sendable {
    let store: Store
    /// Records searches without failing the request that made them.
    let bestEffort: BestEffortHistory
    let clock: any WallClock

    /// One entry of either list, as the user named it: `s12` (a search), `r7` (a route).
    struct EntryID: Sendable, CustomStringConvertible {
        enum List: Sendable { case searches, routes }
        var list: List
        var number: Int64
        /// The id as given (messages quote it).
        var description: String
    }

    /// `limit`, or the most a list holds when nil.
    /// - throws: `DaemonError.invalidParams` for a limit out of 1…`Store.historyLimit`.
    static func checkedLimit(_ limit: Int?) throws -> Int {
        let limit = limit ?? Store.historyLimit
        guard (1...Store.historyLimit).contains(limit) else {
            throw DaemonError.invalidParams("limit must be 1 to \(Store.historyLimit), got \(limit)")
        }
        return limit
    }

    func searches(_ filter: HistoryFilter) async throws -> [HistoryRecord<SearchHistoryEntry>] {
        try await store.read(History.searches(filter))
    }

    func routes(_ filter: HistoryFilter) async throws -> [HistoryRecord<RouteHistoryEntry>] {
        try await store.read(History.routes(filter))
    }

    /// Remembers a search of `text` (blank text is no search to remember), with its first find.
    func recordSearch(_ text: String, found place: Place?, region: String?) async throws {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return }
        let entry = SearchHistoryEntry(query: text, place: place, date: clock.now(), region: region)
        try await bestEffort.record("search") { try await store.write(History.recordSearch(entry)) }
    }

    /// The route entry `id`, to be run again.
    /// - throws: `DaemonError.invalidParams` for a search, `notFound` for no such route.
    func route(_ id: EntryID) async throws -> RouteHistoryEntry {
        guard id.list == .routes else {
            throw DaemonError.invalidParams("id \(id) is a search; only a route (r<N>) can be run again")
        }
        guard let record = try await store.read(History.routes(HistoryFilter())).first(where: { $0.number == id.number }) else {
            throw DaemonError.notFound("no route history entry \(id)")
        }
        return record.entry
    }

    /// - throws: `DaemonError.notFound` for no such entry.
    func delete(_ id: EntryID) async throws {
        do {
            switch id.list {
            case .searches: try await store.write(History.deleteSearch(number: id.number))
            case .routes: try await store.write(History.deleteRoute(number: id.number))
            }
        } catch StoreError.notFound {
            throw DaemonError.notFound("no history entry \(id)")
        }
    }

    /// Empties `searches`, `routes` or `visits`.
    /// - throws: `DaemonError.invalidParams` for another list.
    func clear(_ which: String) async throws {
        switch which {
        case "searches": try await store.write(History.clearSearches())
        case "routes": try await store.write(History.clearRoutes())
        case "visits": try await store.write(Geofences.clearVisits())
        default: throw DaemonError.invalidParams("which \"\(which)\" must be searches, routes or visits")
        }
    }
}
