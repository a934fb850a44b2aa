import Foundation
import Planner
import SQLite

/// The search and route histories, as store queries: `try await store.write(History.recordSearch(entry))`,
/// `try await store.read(History.routes(limit: 5))`.
public enum History {
    /// Records a search at the front of the search history. An entry with the same `id`
    /// moves to the front (no duplicates); only the newest `Store.historyLimit` entries are kept,
    /// trimmed in the same transaction.
    /// - throws: `StoreError.invalidInput` for a query that is empty (with no place) or a Google Maps directions link.
    public static func recordSearch(_ entry: SearchHistoryEntry) -> StoreWrite<Void> {
        StoreWrite { db in try SearchHistoryRow(entry).push(into: db) }
    }

    /// The newest searches first, at most `limit` (and never more than `Store.historyLimit`).
    public static func searches(limit: Int = Store.historyLimit) -> StoreRead<[SearchHistoryEntry]> {
        let all = searches(HistoryFilter(limit: limit))
        return StoreRead { db in try all.body(db).map(\.entry) }
    }

    /// The searches `filter` keeps, newest first, with their numbers.
    public static func searches(_ filter: HistoryFilter) -> StoreRead<[HistoryRecord<SearchHistoryEntry>]> {
        StoreRead { db in
            let all = try db.query("""
                SELECT query, place_name, latitude, longitude, kind, recorded_at, region, sequence FROM search_history
                ORDER BY position DESC
                """) { row in
                HistoryRecord(number: row.int64(7), entry: SearchHistoryEntry(
                    query: row.string(0), place: row.isNull(1) ? nil : try StoredValues.place(row, at: 1),
                    date: StoredValues.date(row, 5), region: row.isNull(6) ? nil : row.string(6)))
            }
            return Array(all.filter { filter.matches($0.entry) }.prefix(max(0, filter.limit)))
        }
    }

    public static func clearSearches() -> StoreWrite<Void> {
        StoreWrite { try $0.run("DELETE FROM search_history") }
    }

    /// Records a route at the front of the route history, with the same rules as searches
    /// (entries with the same ends replace each other; newest `Store.historyLimit` kept).
    /// - parameter searches: places typed as text for this route, recorded in the same
    ///   transaction (a failure records none of them).
    public static func recordRoute(_ entry: RouteHistoryEntry, searches: [SearchHistoryEntry] = []) -> StoreWrite<Void> {
        StoreWrite { db in
            let row = try RouteHistoryRow(entry)
            let searchRows = try searches.map(SearchHistoryRow.init)
            for search in searchRows { try search.push(into: db) }
            try row.push(into: db)
        }
    }

    /// The newest routes first, at most `limit` (and never more than `Store.historyLimit`).
    public static func routes(limit: Int = Store.historyLimit) -> StoreRead<[RouteHistoryEntry]> {
        let all = routes(HistoryFilter(limit: limit))
        return StoreRead { db in try all.body(db).map(\.entry) }
    }

    /// The routes `filter` keeps, newest first, with their numbers.
    public static func routes(_ filter: HistoryFilter) -> StoreRead<[HistoryRecord<RouteHistoryEntry>]> {
        StoreRead { db in
            var vias: [Int64: [(place: Place, text: String?)]] = [:]
            for (sequence, via) in try db.query("""
                SELECT sequence, place_name, latitude, longitude, kind, typed_text FROM route_history_via
                ORDER BY sequence, position
                """, [], { row in (row.int64(0), (try StoredValues.place(row, at: 1), row.optionalString(5))) }) {
                vias[sequence, default: []].append(via)
            }
            let all = try db.query("""
                SELECT from_name, from_latitude, from_longitude, from_kind,
                to_name, to_latitude, to_longitude, to_kind, modes, recorded_at,
                region, from_text, to_text, time_kind, requested_time, answers, fastest, sequence,
                plan_preset, plan_pace, plan_title, plan_title_given, plan_access,
                compare_pace, compare_access, compare_modes
                FROM route_history ORDER BY position DESC
                """) { row in
                HistoryRecord(number: row.int64(17), entry: try routeEntry(row, vias: vias[row.int64(17)] ?? []))
            }
            return Array(all.filter { filter.matches($0.entry) }.prefix(max(0, filter.limit)))
        }
    }

    /// One route entry; the columns of schema 4 (a plan's, schema 9; a comparison's options,
    /// schema 17) are nil in older rows.
    private static func routeEntry(_ row: Row, vias: [(place: Place, text: String?)]) throws -> RouteHistoryEntry {
        func text(_ column: Int) -> String? { row.isNull(column) ? nil : row.string(column) }
        let modes = try row.string(8).split(separator: ",").map { try StoredValues.mode(String($0)) }
        let requested: TimePreference? = switch text(13) {
        case "leave_now"?: .leaveNow
        case "depart_at"?: StoredValues.optionalDate(row, 14).map(TimePreference.departAt)
        case "arrive_by"?: StoredValues.optionalDate(row, 14).map(TimePreference.arriveBy)
        default: nil
        }
        let answers = try text(15).map { summary in
            try summary.split(separator: ",").map { pair -> RouteHistoryEntry.ModeAnswer in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2 else { throw StoreError.corruptRecord("route history answer \"\(pair)\"") }
                return .init(mode: try StoredValues.mode(String(parts[0])), durationS: Int(parts[1]))
            }
        }
        let plan = try text(18).map { preset -> PlanRequest in
            guard let preset = PlanPreset(rawValue: preset), let pace = WalkingPace(rawValue: text(19) ?? "") else {
                throw StoreError.corruptRecord("route history plan options \(preset) \(text(19) ?? "NULL")")
            }
            return PlanRequest(via: vias.map(\.place), viaTexts: vias.map(\.text), preset: preset, pace: pace,
                               title: text(20) ?? "", titleGiven: row.optionalInt(21) == 1,
                               access: try text(22).map(StoredValues.access) ?? .any)
        }
        let compare = try text(23).map { pace in
            CompareRequest(pace: try StoredValues.pace(pace), access: try text(24).map(StoredValues.access) ?? .any,
                           modes: try (text(25) ?? "").split(separator: ",").map { try StoredValues.mode(String($0)) })
        }
        return RouteHistoryEntry(from: try StoredValues.place(row, at: 0), to: try StoredValues.place(row, at: 4),
                                 modes: modes, date: StoredValues.date(row, 9), fromText: text(11), toText: text(12),
                                 region: text(10), requestedTime: requested, answers: answers,
                                 fastest: try text(16).map { try StoredValues.mode($0) }, plan: plan, compare: compare)
    }

    public static func clearRoutes() -> StoreWrite<Void> {
        StoreWrite { try $0.run("DELETE FROM route_history") }
    }

    /// Deletes one entry by its number. - throws: `StoreError.notFound` when there is none.
    public static func deleteSearch(number: Int64) -> StoreWrite<Void> {
        deleteEntry(table: "search_history", number: number)
    }

    /// Deletes one entry by its number. - throws: `StoreError.notFound` when there is none.
    public static func deleteRoute(number: Int64) -> StoreWrite<Void> {
        deleteEntry(table: "route_history", number: number)
    }

    private static func deleteEntry(table: String, number: Int64) -> StoreWrite<Void> {
        StoreWrite { db in
            try db.run("DELETE FROM \(table) WHERE sequence = ?", [.integer(number)])
            guard db.changes > 0 else { throw StoreError.notFound("no history entry \(number)") }
        }
    }
}
