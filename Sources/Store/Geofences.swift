import Foundation
import Planner
import SQLite

/// The saved places' geofences and the visits they saw, as store queries:
/// `try await store.write(Geofences.set(ofPlace: "Home", on: true))`,
/// `try store.readAtOnce(Geofences.all())` (a plain thread that must answer now).
public enum Geofences {
    /// Gives the saved place `name` a fence of `radiusMetres` (default: its current radius, else
    /// the write-up's 80 m) and turns it on or off.
    /// - throws: `StoreError.notFound` when no place is called `name`; `.invalidInput` for a radius
    ///   outside `Store.fenceRadiusRange`.
    public static func set(ofPlace name: String, on: Bool, radiusMetres: Double? = nil) -> StoreWrite<Void> {
        StoreWrite { db in
            if let radiusMetres, !Store.fenceRadiusRange.contains(radiusMetres) {
                throw StoreError.invalidInput("""
                    geofence radius \(radiusMetres) m must be \(Int(Store.fenceRadiusRange.lowerBound)) to \
                    \(Int(Store.fenceRadiusRange.upperBound)) m
                    """)
            }
            try db.run("""
                UPDATE saved_place SET geofence_on = ?, geofence_radius_m = COALESCE(?, geofence_radius_m, ?),
                updated_at = ? WHERE name = ?
                """, [.integer(on ? 1 : 0), try StoredValues.optionalReal(radiusMetres, field: "geofence radius"),
                      .real(GeofenceRule.insideMetres), .real(db.now), .text(name)])
            guard db.changes == 1 else { throw StoreError.notFound("saved place \"\(name)\"") }
        }
    }

    /// Every saved place that has or had a fence, by name.
    public static func all() -> StoreRead<[PlaceFence]> {
        StoreRead { db in
            try db.query(fencesQuery, []) { row in
                PlaceFence(name: row.string(0), center: Coordinate(latitude: row.double(1), longitude: row.double(2)),
                           radiusMetres: row.double(3), isOn: row.int(4) == 1)
            }
        }
    }

    /// Reads only the fenced places, through their index (`saved_place_fenced`, migration 0014).
    static let fencesQuery = """
        SELECT name, latitude, longitude, geofence_radius_m, geofence_on FROM saved_place
        WHERE geofence_radius_m IS NOT NULL ORDER BY name
        """

    /// Records an arrival or departure; only the newest `Store.historyLimit` visits are kept.
    public static func recordVisit(_ visit: VisitEntry) -> StoreWrite<Void> {
        let entryID = UUID().uuidString
        return StoreWrite { db in
            let values: [SQLiteValue] = [
                .text(entryID), try StoredValues.userText(visit.placeName, field: "visited place name"),
                .text(visit.event.rawValue),
                try StoredValues.real(visit.fix.coordinate.latitude, field: "visit latitude"),
                try StoredValues.real(visit.fix.coordinate.longitude, field: "visit longitude"),
                try StoredValues.real(visit.fix.horizontalAccuracy, field: "visit accuracy"),
                try StoredValues.date(visit.fix.timestamp, field: "visit fix time"),
                try StoredValues.date(visit.date, field: "visit date"),
            ]
            try HistoryRows.pushToFront(table: "visit_history", entryID: entryID,
                                        columns: ["entry_id", "place_name", "event", "latitude", "longitude", "accuracy_m",
                                                  "fix_time", "recorded_at"],
                                        values, in: db)
        }
    }

    /// The newest visits first, at most `limit` (and never more than `Store.historyLimit`).
    public static func visits(limit: Int = Store.historyLimit) -> StoreRead<[VisitEntry]> {
        StoreRead { db in
            try db.query("""
                SELECT place_name, event, latitude, longitude, accuracy_m, fix_time, recorded_at FROM visit_history
                ORDER BY position DESC LIMIT ?
                """, [.integer(Int64(max(0, limit)))]) { row in
                guard let event = VisitEntry.Event(rawValue: row.string(1)) else {
                    throw StoreError.corruptRecord("visit_history holds an unknown event \"\(row.string(1))\"")
                }
                let fix = LocationFix(coordinate: Coordinate(latitude: row.double(2), longitude: row.double(3)),
                                      horizontalAccuracy: row.double(4), timestamp: StoredValues.date(row, 5))
                return VisitEntry(placeName: row.string(0), event: event, fix: fix, date: StoredValues.date(row, 6))
            }
        }
    }

    public static func clearVisits() -> StoreWrite<Void> {
        StoreWrite { try $0.run("DELETE FROM visit_history") }
    }
}
