import Foundation
import Planner
import SQLite

/// The history tables' rule, shared by searches, routes and visits.
enum HistoryRows {
    static func optionalText(_ text: String?) -> SQLiteValue { text.map { .text($0) } ?? .null }

    /// The history rule, inside the caller's write transaction: an entry with the same id moves
    /// to the front keeping its number (its ID on the wire), a new one goes in front under a new
    /// number, and only the newest `Store.historyLimit` stay. `columns` and `values` start with `entry_id`.
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
            """, [.int(Store.historyLimit)])
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
        values = [.text(entry.id), query] + placeColumns + [date, HistoryRows.optionalText(entry.region)]
    }

    func push(into db: StatementCache) throws {
        try HistoryRows.pushToFront(table: "search_history", entryID: entryID,
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
        values = [.text(entry.id)] + from + to + [.text(modes), date, HistoryRows.optionalText(entry.region),
                                                  HistoryRows.optionalText(entry.fromText), HistoryRows.optionalText(entry.toText),
                                                  timeKind, time, HistoryRows.optionalText(answers),
                                                  HistoryRows.optionalText(entry.fastest?.rawValue),
                                                  HistoryRows.optionalText(plan?.preset.rawValue), HistoryRows.optionalText(plan?.pace.rawValue),
                                                  planTitle, plan.map { .bool($0.titleGiven) } ?? .null,
                                                  HistoryRows.optionalText(plan?.access.rawValue),
                                                  HistoryRows.optionalText(entry.compare?.pace.rawValue),
                                                  HistoryRows.optionalText(entry.compare?.access.rawValue),
                                                  HistoryRows.optionalText(entry.compare?.modes.map(\.rawValue).joined(separator: ","))]
        vias = try (plan?.via ?? []).enumerated().map { index, place in
            try StoredValues.place(place, field: "place \(index + 1) between the ends")
                + [HistoryRows.optionalText(plan?.viaTexts.indices.contains(index) == true ? plan?.viaTexts[index] : nil)]
        }
    }

    func push(into db: StatementCache) throws {
        try HistoryRows.pushToFront(table: "route_history", entryID: entryID,
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
