import Daemon
import Foundation
import Planner
import Store

/// The two ways the plan tests drive `PlanRepository.apply` with changes given outright (no
/// preparation): a user's edit, and an atomic change (a list of edits, or the background refresh).
extension PlanRepository {
    /// A user's `.edit`: `change` applied to the newest plan and written, then `compute` stored.
    func userEdit(id: Int64, title: String? = nil, expectedGeneration: Int64? = nil,
                  change: (@Sendable (RoutePlan) throws -> RoutePlan)?,
                  compute: @escaping @Sendable (RoutePlan) async throws -> LegComputation) async throws -> Outcome {
        try await apply(to: id, policy: .edit, expected: expectedGeneration) { _, _ in
            PlanChanges(change: change, title: title, compute: compute)
        }
    }

    /// An `.atomic` change (`.background` for the refresh): `transform` computes the whole result
    /// from the plan as read and its title, and gives the title after it.
    func atomicChange(id: Int64, expectedGeneration: Int64?, dryRun: Bool = false, background: Bool = false,
                      transform: @escaping @Sendable (RoutePlan, String) async throws -> (LegComputation, searches: [SearchHistoryEntry], title: String)
    ) async throws -> Outcome {
        try await apply(to: id, policy: background ? .background : .atomic(dryRun: dryRun), expected: expectedGeneration) { plan, title in
            let (computed, searches, newTitle) = try await transform(plan, title)
            return .computed(computed, title: newTitle, searches: searches)
        }
    }
}
