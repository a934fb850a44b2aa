import Foundation
import Planner
import SQLite

/// The saved places, as store queries: `try await store.write(Places.save(place))`,
/// `try await store.read(Places.all())`.
public enum Places {
    private static let columns = "name, place_name, latitude, longitude, kind, note"

    /// Saves `place`. Saving the same name with the same place again updates its note;
    /// a name that is taken by another place, or a place already saved under another name,
    /// is refused.
    /// - throws: `StoreError.duplicate`, `.invalidInput` (empty name, a directions link, NaN coordinate).
    public static func save(_ place: SavedPlace) -> StoreWrite<Void> {
        StoreWrite { db in
            let name = try StoredValues.name(place.name, field: "saved place name")
            let note: SQLiteValue = try place.note.map { try StoredValues.userText($0, field: "note", allowEmpty: true) } ?? .null
            let columns = try StoredValues.place(place.place, field: "saved place")
            let byName = try db.query("SELECT place_id FROM saved_place WHERE name = ?", [name]) { $0.string(0) }.first
            let byPlace = try db.query("SELECT name FROM saved_place WHERE place_id = ?", [.text(place.place.id)]) {
                $0.string(0)
            }.first
            if let existing = byName, existing != place.place.id {
                throw StoreError.duplicate("a place named \"\(place.name)\" is already saved")
            }
            if let existing = byPlace, existing != place.name {
                throw StoreError.duplicate("\(place.place.name) is already saved as \"\(existing)\"")
            }
            if byName != nil {
                try db.run("""
                    UPDATE saved_place SET place_name = ?, latitude = ?, longitude = ?, kind = ?, note = ?,
                    updated_at = ? WHERE name = ?
                    """, columns + [note, .real(db.now), name])
            } else {
                try db.run("""
                    INSERT INTO saved_place(name, place_id, place_name, latitude, longitude, kind, note,
                    created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [name, .text(place.place.id)] + columns + [note, .real(db.now), .real(db.now)])
            }
        }
    }

    /// Every saved place, by name.
    public static func all() -> StoreRead<[SavedPlace]> {
        StoreRead { db in
            try db.query("SELECT \(columns) FROM saved_place ORDER BY name", [], savedPlace)
        }
    }

    /// The saved place called exactly `name`, or nil.
    public static func named(_ name: String) -> StoreRead<SavedPlace?> {
        StoreRead { db in
            try db.query("SELECT \(columns) FROM saved_place WHERE name = ?", [.text(name)], savedPlace).first
        }
    }

    /// Renames a saved place.
    /// - throws: `StoreError.notFound` when nothing is called `from`, `.duplicate` when `to` is taken.
    public static func rename(from: String, to: String) -> StoreWrite<Void> {
        StoreWrite { db in
            let newName = try StoredValues.name(to, field: "new saved place name")
            let taken = try !db.query("SELECT 1 FROM saved_place WHERE name = ?", [newName], { $0.int(0) }).isEmpty
            if from != to, taken {
                throw StoreError.duplicate("a place named \"\(to)\" is already saved")
            }
            try db.run("UPDATE saved_place SET name = ?, updated_at = ? WHERE name = ?", [newName, .real(db.now), .text(from)])
            guard db.changes == 1 else { throw StoreError.notFound("saved place \"\(from)\"") }
        }
    }

    /// Deletes a saved place.
    /// - throws: `StoreError.notFound` when nothing is called `name`.
    public static func remove(named name: String) -> StoreWrite<Void> {
        StoreWrite { db in
            try db.run("DELETE FROM saved_place WHERE name = ?", [.text(name)])
            guard db.changes == 1 else { throw StoreError.notFound("saved place \"\(name)\"") }
        }
    }

    private static func savedPlace(_ row: Row) throws -> SavedPlace {
        SavedPlace(name: row.string(0), place: try StoredValues.place(row, at: 1), note: row.optionalString(5))
    }
}
