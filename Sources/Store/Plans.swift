import Foundation
import Planner
import SQLite

/// The plans, as store queries: `try await store.read(Plans.load(id))`,
/// `try await store.write(Plans.save(id: id, plan: plan, title: title, generation: 2))`.
public enum Plans {
    /// Saves a new plan, at generation 1, and gives its id; with `route` and `searches`, records
    /// them in the histories in the same transaction (all are stored, or none).
    /// - throws: `StoreError.invalidInput` for an empty title, a Google Maps directions link in it, or a NaN number.
    public static func create(_ plan: RoutePlan, title: String, recording route: RouteHistoryEntry? = nil,
                              searches: [SearchHistoryEntry] = []) -> StoreWrite<StoredPlan.ID> {
        StoreWrite { db in
            let header = try PlanRows.header(plan, title: title)
            let history = try route.map(RouteHistoryRow.init)
            let searchRows = try searches.map(SearchHistoryRow.init)
            try db.run("""
                INSERT INTO plan(title, time_preference, time_preference_at, pace, from_name, to_name,
                total_travel_time, starts_at, access, created_at, updated_at, generation) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)
                """, header + [.real(db.now), .real(db.now)])
            let id = db.database.lastInsertRowID
            try PlanRows.insertChildren(of: plan, id: id, into: db)
            for search in searchRows { try search.push(into: db) }
            try history?.push(into: db)
            return id
        }
    }

    /// Replaces the plan with this id (its title and everything in it); with `searches`, records
    /// them in search history in the same transaction (all are stored, or none).
    /// - parameter legsPending: true while the plan's legs are being recomputed (an edit stored
    ///   before its legs); `withPendingLegs` lists such plans after a crash.
    /// - parameter generation: the plan's generation after this change, stored with it (a plan
    ///   never changes without its generation).
    /// - throws: `StoreError.notFound` when there is no such plan; `.invalidInput` as `create`,
    ///   and for a negative generation.
    public static func save(id: StoredPlan.ID, plan: RoutePlan, title: String, legsPending: Bool = false,
                            generation: Int64, searches: [SearchHistoryEntry] = []) -> StoreWrite<Void> {
        StoreWrite { db in
            try checkGeneration(generation, ofPlan: id)
            let header = try PlanRows.header(plan, title: title)
            let searchRows = try searches.map(SearchHistoryRow.init)
            try db.run("""
                UPDATE plan SET title = ?, time_preference = ?, time_preference_at = ?, pace = ?, from_name = ?,
                to_name = ?, total_travel_time = ?, starts_at = ?, access = ?, updated_at = ?, legs_pending = ?,
                generation = ? WHERE id = ?
                """, header + [.real(db.now), .bool(legsPending), .integer(generation), .integer(id)])
            guard db.changes == 1 else { throw StoreError.notFound("plan \(id)") }
            for table in PlanRows.childTables {
                try db.run("DELETE FROM \(table) WHERE plan_id = ?", [.integer(id)])
            }
            try PlanRows.insertChildren(of: plan, id: id, into: db)
            for search in searchRows { try search.push(into: db) }
        }
    }

    /// Stores the plan's generation alone (the plan itself is unchanged): an edit that changes the
    /// plan only by computing it takes its generation before it computes, and stores the plan once,
    /// computed.
    /// - throws: `StoreError.notFound` when there is no such plan; `.invalidInput` for a negative generation.
    public static func saveGeneration(id: StoredPlan.ID, generation: Int64) -> StoreWrite<Void> {
        StoreWrite { db in
            try checkGeneration(generation, ofPlan: id)
            try db.run("UPDATE plan SET generation = ? WHERE id = ?", [.integer(generation), .integer(id)])
            guard db.changes == 1 else { throw StoreError.notFound("plan \(id)") }
        }
    }

    /// A generation is 0 (stored before generations were) or more.
    private static func checkGeneration(_ generation: Int64, ofPlan id: StoredPlan.ID) throws {
        guard generation >= 0 else { throw StoreError.invalidInput("plan \(id) generation must be 0 or more, got \(generation)") }
    }

    /// The plan with this id, exactly as it was saved.
    /// - throws: `StoreError.notFound`, or `.corruptRecord` when stored rows do not form a plan.
    public static func load(_ id: StoredPlan.ID) -> StoreRead<StoredPlan> {
        StoreRead { db in try PlanRows.load(id: id, from: db) }
    }

    /// Every plan, most recently updated first.
    public static func list() -> StoreRead<[PlanSummary]> {
        StoreRead { db in
            try db.query("""
                SELECT id, title, from_name, to_name, updated_at, total_travel_time, time_preference_at,
                       (SELECT latitude FROM plan_node WHERE plan_id = plan.id AND position = 0),
                       (SELECT longitude FROM plan_node WHERE plan_id = plan.id AND position = 0), starts_at
                FROM plan ORDER BY updated_at DESC, id DESC
                """) { row in
                let origin = row.optionalDouble(7).flatMap { lat in row.optionalDouble(8).map { Coordinate(latitude: lat, longitude: $0) } }
                return PlanSummary(id: row.int64(0), title: row.string(1), fromName: row.string(2), toName: row.string(3),
                                   updatedAt: StoredValues.date(row, 4), totalTravelTime: row.optionalDouble(5),
                                   travelAt: row.optionalDouble(6).map { Date(timeIntervalSinceReferenceDate: $0) }, origin: origin,
                                   startsAt: StoredValues.optionalDate(row, 9))
            }
        }
    }

    /// The plans stored by an edit whose recompute never stored its legs (the daemon stopped
    /// meanwhile), oldest first.
    public static func withPendingLegs() -> StoreRead<[StoredPlan.ID]> {
        StoreRead { db in
            try db.query("SELECT id FROM plan WHERE legs_pending = 1 ORDER BY id") { row in row.int64(0) }
        }
    }

    /// Deletes a plan and everything in it.
    /// - throws: `StoreError.notFound` when there is no such plan.
    public static func delete(_ id: StoredPlan.ID) -> StoreWrite<Void> {
        StoreWrite { db in
            try db.run("DELETE FROM plan WHERE id = ?", [.integer(id)])
            guard db.changes == 1 else { throw StoreError.notFound("plan \(id)") }
        }
    }
}
