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
        let row = try SearchHistoryRow(entry)
        try write { db in try row.push(into: db) }
    }

    /// The newest searches first, at most `limit` (and never more than `historyLimit`).
    public func searchHistory(limit: Int = Store.historyLimit) throws -> [SearchHistoryEntry] {
        try searchHistory(HistoryFilter(limit: limit)).map(\.entry)
    }

    /// The searches `filter` keeps, newest first, with their numbers.
    public func searchHistory(_ filter: HistoryFilter) throws -> [HistoryRecord<SearchHistoryEntry>] {
        let all = try read { db in
            try db.query("""
                SELECT query, place_name, latitude, longitude, kind, recorded_at, region, sequence FROM search_history
                ORDER BY position DESC
                """) { row in
                HistoryRecord(number: row.int64(7), entry: SearchHistoryEntry(
                    query: row.string(0), place: row.isNull(1) ? nil : try StoredValues.place(row, at: 1),
                    date: StoredValues.date(row, 5), region: row.isNull(6) ? nil : row.string(6)))
            }
        }
        return Array(all.filter { filter.matches($0.entry) }.prefix(max(0, filter.limit)))
    }

    public func clearSearchHistory() throws {
        try write { try $0.run("DELETE FROM search_history") }
    }

    /// Records a route at the front of the route history, with the same rules as searches
    /// (entries with the same ends replace each other; newest `historyLimit` kept).
    /// - parameter searches: places typed as text for this route, recorded in the same
    ///   transaction (a failure records none of them).
    public func recordRoute(_ entry: RouteHistoryEntry, searches: [SearchHistoryEntry] = []) throws {
        let row = try RouteHistoryRow(entry)
        let searchRows = try searches.map(SearchHistoryRow.init)
        try write { db in
            for search in searchRows { try search.push(into: db) }
            try row.push(into: db)
        }
    }

    /// The newest routes first, at most `limit` (and never more than `historyLimit`).
    public func routeHistory(limit: Int = Store.historyLimit) throws -> [RouteHistoryEntry] {
        try routeHistory(HistoryFilter(limit: limit)).map(\.entry)
    }

    /// The routes `filter` keeps, newest first, with their numbers.
    public func routeHistory(_ filter: HistoryFilter) throws -> [HistoryRecord<RouteHistoryEntry>] {
        let all = try read { db in
            var vias: [Int64: [(place: Place, text: String?)]] = [:]
            for (sequence, via) in try db.query("""
                SELECT sequence, place_name, latitude, longitude, kind, typed_text FROM route_history_via
                ORDER BY sequence, position
                """, [], { row in (row.int64(0), (try StoredValues.place(row, at: 1), row.optionalString(5))) }) {
                vias[sequence, default: []].append(via)
            }
            return try db.query("""
                SELECT from_name, from_latitude, from_longitude, from_kind,
                to_name, to_latitude, to_longitude, to_kind, modes, recorded_at,
                region, from_text, to_text, time_kind, requested_time, answers, fastest, sequence,
                plan_preset, plan_pace, plan_title, plan_title_given, plan_access,
                compare_pace, compare_access, compare_modes
                FROM route_history ORDER BY position DESC
                """) { row in
                HistoryRecord(number: row.int64(17), entry: try Self.routeEntry(row, vias: vias[row.int64(17)] ?? []))
            }
        }
        return Array(all.filter { filter.matches($0.entry) }.prefix(max(0, filter.limit)))
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

    public func clearRouteHistory() throws {
        try write { try $0.run("DELETE FROM route_history") }
    }

    /// Deletes one entry by its number. - throws: `StoreError.notFound` when there is none.
    public func deleteSearch(number: Int64) throws {
        try deleteEntry(table: "search_history", number: number)
    }

    /// Deletes one entry by its number. - throws: `StoreError.notFound` when there is none.
    public func deleteRoute(number: Int64) throws {
        try deleteEntry(table: "route_history", number: number)
    }

    private func deleteEntry(table: String, number: Int64) throws {
        try write { db in
            try db.run("DELETE FROM \(table) WHERE sequence = ?", [.integer(number)])
            guard db.changes > 0 else { throw StoreError.notFound("no history entry \(number)") }
        }
    }

    static func optionalText(_ text: String?) -> SQLiteValue { text.map { .text($0) } ?? .null }

    /// The history rule, in one write transaction: an entry with the same id moves to the
    /// front keeping its number (its ID on the wire), a new one goes in front under a new
    /// number, and only the newest `historyLimit` stay.
    func pushToFront(table: String, entryID: String, columns: [String], _ values: [SQLiteValue]) throws {
        try write { db in try Self.pushToFront(table: table, entryID: entryID, columns: columns, values, in: db) }
    }

    /// The history rule inside the caller's transaction; `columns` and `values` start with `entry_id`.
    static func pushToFront(table: String, entryID: String, columns: [String], _ values: [SQLiteValue],
                            in db: StatementCache) throws {
        let number = try db.query("SELECT sequence FROM \(table) WHERE entry_id = ?", [.text(entryID)]) { $0.int64(0) }.first
        try db.run("DELETE FROM \(table) WHERE entry_id = ?", [.text(entryID)])
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        // A NULL sequence is numbered by SQLite (AUTOINCREMENT: never a number used before).
        try db.run("""
            INSERT INTO \(table)(sequence, position, \(columns.joined(separator: ", ")))
            VALUES (?, (SELECT COALESCE(MAX(position), 0) + 1 FROM \(table)), \(placeholders))
            """, [number.map { .integer($0) } ?? .null] + values)
        try db.run("""
            DELETE FROM \(table) WHERE sequence NOT IN
            (SELECT sequence FROM \(table) ORDER BY position DESC LIMIT ?)
            """, [.int(historyLimit)])
    }
}

/// A search history entry checked and turned into column values, ready to be pushed in any
/// write transaction (its own, a route's or a new plan's).
struct SearchHistoryRow {
    let entryID: String
    let values: [SQLiteValue]

    /// - throws: `StoreError.invalidInput` for an empty query without a place, a NaN coordinate or date.
    init(_ entry: SearchHistoryEntry) throws {
        let query = try StoredValues.userText(entry.query, field: "search query", allowEmpty: entry.place != nil)
        let place = try entry.place.map { try StoredValues.place($0, field: "chosen place") }
        let placeColumns = place.map { Array($0.prefix(4)) } ?? [.null, .null, .null, .null]
        let date = try StoredValues.date(entry.date, field: "search date")
        entryID = entry.id
        values = [.text(entry.id), query] + placeColumns + [date, Store.optionalText(entry.region)]
    }

    func push(into db: StatementCache) throws {
        try Store.pushToFront(table: "search_history", entryID: entryID,
                              columns: ["entry_id", "query", "place_name", "latitude", "longitude", "kind", "recorded_at", "region"],
                              values, in: db)
    }
}

/// A route history entry checked and turned into column values, ready to be pushed in any
/// write transaction (its own, or a new plan's).
struct RouteHistoryRow {
    let entryID: String
    let values: [SQLiteValue]
    /// A plan's places between its ends: name, latitude, longitude, kind, typed text.
    let vias: [[SQLiteValue]]

    /// - throws: `StoreError.invalidInput` for a NaN coordinate or date.
    init(_ entry: RouteHistoryEntry) throws {
        let from = try StoredValues.place(entry.from, field: "route origin")
        let to = try StoredValues.place(entry.to, field: "route destination")
        let date = try StoredValues.date(entry.date, field: "route date")
        let modes = entry.modes.map(\.rawValue).joined(separator: ",")
        let (timeKind, time): (SQLiteValue, SQLiteValue) = switch entry.requestedTime {
        case nil: (.null, .null)
        case .leaveNow?: (.text("leave_now"), .null)
        case .departAt(let at)?: (.text("depart_at"), try StoredValues.date(at, field: "requested time"))
        case .arriveBy(let at)?: (.text("arrive_by"), try StoredValues.date(at, field: "requested time"))
        }
        let answers = entry.answers.map { answers in
            answers.map { "\($0.mode.rawValue)=\($0.durationS.map(String.init) ?? "")" }.joined(separator: ",")
        }
        let plan = entry.plan
        let planTitle = try plan.map { try StoredValues.userText($0.title, field: "plan title") } ?? .null
        entryID = entry.id
        values = [.text(entry.id)] + from + to + [.text(modes), date, Store.optionalText(entry.region),
                                                  Store.optionalText(entry.fromText), Store.optionalText(entry.toText),
                                                  timeKind, time, Store.optionalText(answers),
                                                  Store.optionalText(entry.fastest?.rawValue),
                                                  Store.optionalText(plan?.preset.rawValue), Store.optionalText(plan?.pace.rawValue),
                                                  planTitle, plan.map { .bool($0.titleGiven) } ?? .null,
                                                  Store.optionalText(plan?.access.rawValue),
                                                  Store.optionalText(entry.compare?.pace.rawValue),
                                                  Store.optionalText(entry.compare?.access.rawValue),
                                                  Store.optionalText(entry.compare?.modes.map(\.rawValue).joined(separator: ","))]
        vias = try (plan?.via ?? []).enumerated().map { index, place in
            try StoredValues.place(place, field: "place \(index + 1) between the ends")
                + [Store.optionalText(plan?.viaTexts.indices.contains(index) == true ? plan?.viaTexts[index] : nil)]
        }
    }

    func push(into db: StatementCache) throws {
        try Store.pushToFront(table: "route_history", entryID: entryID,
                              columns: ["entry_id", "from_name", "from_latitude", "from_longitude", "from_kind",
                                        "to_name", "to_latitude", "to_longitude", "to_kind", "modes", "recorded_at",
                                        "region", "from_text", "to_text", "time_kind", "requested_time", "answers", "fastest",
                                        "plan_preset", "plan_pace", "plan_title", "plan_title_given", "plan_access",
                                        "compare_pace", "compare_access", "compare_modes"],
                              values, in: db)
        guard !vias.isEmpty,
              let sequence = try db.query("SELECT sequence FROM route_history WHERE entry_id = ?", [.text(entryID)], { $0.int64(0) }).first
        else { return }
        // The row was written anew: its old places went with it (ON DELETE CASCADE).
        for (position, via) in vias.enumerated() {
            try db.run("""
                INSERT INTO route_history_via(sequence, position, place_name, latitude, longitude, kind, typed_text)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [.integer(sequence), .int(position)] + via)
        }
    }
}
