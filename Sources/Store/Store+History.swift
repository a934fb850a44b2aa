import Foundation
import Planner
import SQLite

// MARK: - Search and route history

extension Store {
    /// Records a search at the front of the search history. An entry with the same `id`
    /// moves to the front (no duplicates); only the newest `historyLimit` entries are kept,
    /// trimmed in the same transaction.
    /// - throws: `StoreError.invalidInput` for a query that is empty (with no place) or a Google Maps directions link.
    public func recordSearch(_ entry: SearchHistoryEntry) throws {
        let query = try StoredValues.userText(entry.query, field: "search query", allowEmpty: entry.place != nil)
        let place = try entry.place.map { try StoredValues.place($0, field: "chosen place") }
        let placeColumns = place.map { Array($0.prefix(4)) } ?? [.null, .null, .null, .null]
        let date = try StoredValues.date(entry.date, field: "search date")
        try pushToFront(table: "search_history", entryID: entry.id, insert: """
            INSERT INTO search_history(entry_id, query, place_name, latitude, longitude, kind, recorded_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, [.text(entry.id), query] + placeColumns + [date])
    }

    /// The newest searches first, at most `limit` (and never more than `historyLimit`).
    public func searchHistory(limit: Int = Store.historyLimit) throws -> [SearchHistoryEntry] {
        try read { db in
            try db.query("""
                SELECT query, place_name, latitude, longitude, kind, recorded_at FROM search_history
                ORDER BY sequence DESC LIMIT ?
                """, [.int(max(0, limit))]) { row in
                SearchHistoryEntry(query: row.string(0),
                                   place: row.isNull(1) ? nil : try StoredValues.place(row, at: 1),
                                   date: StoredValues.date(row, 5))
            }
        }
    }

    public func clearSearchHistory() throws {
        try write { try $0.run("DELETE FROM search_history") }
    }

    /// Records a route at the front of the route history, with the same rules as searches
    /// (entries with the same ends replace each other; newest `historyLimit` kept).
    public func recordRoute(_ entry: RouteHistoryEntry) throws {
        let from = try StoredValues.place(entry.from, field: "route origin")
        let to = try StoredValues.place(entry.to, field: "route destination")
        let date = try StoredValues.date(entry.date, field: "route date")
        let modes = entry.modes.map(\.rawValue).joined(separator: ",")
        try pushToFront(table: "route_history", entryID: entry.id, insert: """
            INSERT INTO route_history(entry_id, from_name, from_latitude, from_longitude, from_kind,
            to_name, to_latitude, to_longitude, to_kind, modes, recorded_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [.text(entry.id)] + from + to + [.text(modes), date])
    }

    /// The newest routes first, at most `limit` (and never more than `historyLimit`).
    public func routeHistory(limit: Int = Store.historyLimit) throws -> [RouteHistoryEntry] {
        try read { db in
            try db.query("""
                SELECT from_name, from_latitude, from_longitude, from_kind,
                to_name, to_latitude, to_longitude, to_kind, modes, recorded_at
                FROM route_history ORDER BY sequence DESC LIMIT ?
                """, [.int(max(0, limit))]) { row in
                let modes = try row.string(8).split(separator: ",").map { try StoredValues.mode(String($0)) }
                return RouteHistoryEntry(from: try StoredValues.place(row, at: 0), to: try StoredValues.place(row, at: 4),
                                         modes: modes, date: StoredValues.date(row, 9))
            }
        }
    }

    public func clearRouteHistory() throws {
        try write { try $0.run("DELETE FROM route_history") }
    }

    /// The history rule, in one write transaction: an entry with the same id leaves its old
    /// place, the new one goes in front, and only the newest `historyLimit` stay.
    func pushToFront(table: String, entryID: String, insert: String, _ values: [SQLiteValue]) throws {
        try write { db in
            try db.run("DELETE FROM \(table) WHERE entry_id = ?", [.text(entryID)])
            try db.run(insert, values)
            try db.run("""
                DELETE FROM \(table) WHERE sequence NOT IN
                (SELECT sequence FROM \(table) ORDER BY sequence DESC LIMIT ?)
                """, [.int(Self.historyLimit)])
        }
    }
}
