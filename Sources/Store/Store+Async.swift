import Foundation
import Planner

// MARK: - The async API

/// Each method as in the blocking API (see there for what it does and throws), for async code:
/// the caller is suspended, not blocked, while the work waits for and runs on the store's
/// writer thread (writes) or a reader thread (reads), and is resumed from there. Inside, the
/// blocking method runs on that thread, where its `write`/`read` run at once.
extension Store {
    // Saved places
    public func savePlace(_ place: SavedPlace) async throws { try await writing { try self.savePlace(place) } }
    public func places() async throws -> [SavedPlace] { try await reading { try self.places() } }
    public func place(named name: String) async throws -> SavedPlace? { try await reading { try self.place(named: name) } }
    public func renamePlace(from: String, to: String) async throws { try await writing { try self.renamePlace(from: from, to: to) } }
    public func removePlace(named name: String) async throws { try await writing { try self.removePlace(named: name) } }

    // Geofences and visits
    public func setFence(ofPlace name: String, on: Bool, radiusMetres: Double? = nil) async throws {
        try await writing { try self.setFence(ofPlace: name, on: on, radiusMetres: radiusMetres) }
    }
    public func fences() async throws -> [PlaceFence] { try await reading { try self.fences() } }
    public func recordVisit(_ visit: VisitEntry) async throws { try await writing { try self.recordVisit(visit) } }
    public func visitHistory(limit: Int = Store.historyLimit) async throws -> [VisitEntry] {
        try await reading { try self.visitHistory(limit: limit) }
    }
    public func clearVisitHistory() async throws { try await writing { try self.clearVisitHistory() } }

    // Search and route history
    public func recordSearch(_ entry: SearchHistoryEntry) async throws { try await writing { try self.recordSearch(entry) } }
    public func searchHistory(limit: Int = Store.historyLimit) async throws -> [SearchHistoryEntry] {
        try await reading { try self.searchHistory(limit: limit) }
    }
    public func searchHistory(_ filter: HistoryFilter) async throws -> [HistoryRecord<SearchHistoryEntry>] {
        try await reading { try self.searchHistory(filter) }
    }
    public func clearSearchHistory() async throws { try await writing { try self.clearSearchHistory() } }
    public func recordRoute(_ entry: RouteHistoryEntry, searches: [SearchHistoryEntry] = []) async throws {
        try await writing { try self.recordRoute(entry, searches: searches) }
    }
    public func routeHistory(limit: Int = Store.historyLimit) async throws -> [RouteHistoryEntry] {
        try await reading { try self.routeHistory(limit: limit) }
    }
    public func routeHistory(_ filter: HistoryFilter) async throws -> [HistoryRecord<RouteHistoryEntry>] {
        try await reading { try self.routeHistory(filter) }
    }
    public func clearRouteHistory() async throws { try await writing { try self.clearRouteHistory() } }
    public func deleteSearch(number: Int64) async throws { try await writing { try self.deleteSearch(number: number) } }
    public func deleteRoute(number: Int64) async throws { try await writing { try self.deleteRoute(number: number) } }

    // Plans
    public func createPlan(_ plan: RoutePlan, title: String, recording route: RouteHistoryEntry? = nil,
                           searches: [SearchHistoryEntry] = []) async throws -> StoredPlan.ID {
        try await writing { try self.createPlan(plan, title: title, recording: route, searches: searches) }
    }
    public func savePlan(id: StoredPlan.ID, plan: RoutePlan, title: String, legsPending: Bool = false,
                         generation: Int64, searches: [SearchHistoryEntry] = []) async throws {
        try await writing {
            try self.savePlan(id: id, plan: plan, title: title, legsPending: legsPending, generation: generation, searches: searches)
        }
    }
    public func savePlanGeneration(id: StoredPlan.ID, generation: Int64) async throws {
        try await writing { try self.savePlanGeneration(id: id, generation: generation) }
    }
    public func loadPlan(id: StoredPlan.ID) async throws -> StoredPlan { try await reading { try self.loadPlan(id: id) } }
    public func listPlans() async throws -> [PlanSummary] { try await reading { try self.listPlans() } }
    public func plansWithPendingLegs() async throws -> [StoredPlan.ID] { try await reading { try self.plansWithPendingLegs() } }
    public func deletePlan(id: StoredPlan.ID) async throws { try await writing { try self.deletePlan(id: id) } }

    // Reminders and sent notifications
    public func setReminder(ofPlan id: Int64, _ reminder: PlanReminder) async throws {
        try await writing { try self.setReminder(ofPlan: id, reminder) }
    }
    public func reminder(ofPlan id: Int64) async throws -> PlanReminder? { try await reading { try self.reminder(ofPlan: id) } }
    @discardableResult
    public func recordSentNotice(plan id: Int64, _ notice: SentNotice) async throws -> Bool {
        try await writing { try self.recordSentNotice(plan: id, notice) }
    }
    public func setServerID(_ serverID: UInt32, plan id: Int64, notice: String) async throws {
        try await writing { try self.setServerID(serverID, plan: id, notice: notice) }
    }
    public func sentNotices(plan id: Int64) async throws -> [SentNotice] { try await reading { try self.sentNotices(plan: id) } }

    // Maintenance
    public func schemaVersion() async throws -> Int { try await reading { try self.schemaVersion() } }
    public func appliedMigrations() async throws -> [AppliedMigration] { try await reading { try self.appliedMigrations() } }
    public func integrityCheck() async throws -> [String] { try await reading { try self.integrityCheck() } }
}
