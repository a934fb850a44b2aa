import Foundation
import Planner
import Store

/// What one request does to a plan, worked out from the plan as read (`PlanRepository.apply`):
/// a change applied to the newest plan whose emptied legs `compute` then fills, or, with no
/// `change`, a computation that is the change itself (a preset, a rebuild, refine, the list of
/// `plan.edits` computed whole).
public struct PlanChanges: Sendable {
    /// Validates and edits the newest plan; throwing leaves the plan untouched.
    public var change: (@Sendable (RoutePlan) throws -> RoutePlan)?
    /// Fills the legs (`Planner.computeLegsReporting`, or a preset or rebuild of its own).
    public var compute: @Sendable (RoutePlan) async throws -> LegComputation
    /// The plan's title after the change; nil: it follows the plan (`RoutePlan.title(_:after:)`).
    public var title: String?
    /// Places typed as text in the request, stored with the change (or neither).
    public var searches: [SearchHistoryEntry]
    /// The places typed as text and how each matched (for the answer only).
    public var matched: [ResolvedPlace]
    /// Why the segments an insert or a move made have their modes (for the answer only), read
    /// from the plan as the edit left it (computed), so that each names its segment as shown.
    public var modeNotes: @Sendable (RoutePlan) -> [String]

    public init(change: (@Sendable (RoutePlan) throws -> RoutePlan)?, title: String? = nil,
                searches: [SearchHistoryEntry] = [], matched: [ResolvedPlace] = [],
                modeNotes: @escaping @Sendable (RoutePlan) -> [String] = { _ in [] },
                compute: @escaping @Sendable (RoutePlan) async throws -> LegComputation) {
        self.change = change
        self.compute = compute
        self.title = title
        self.searches = searches
        self.matched = matched
        self.modeNotes = modeNotes
    }

    /// A computation done already (the edits of `plan.edits`, the background refresh): stored as it is.
    public static func computed(_ computation: LegComputation, title: String?, searches: [SearchHistoryEntry] = [],
                                matched: [ResolvedPlace] = []) -> PlanChanges {
        PlanChanges(change: nil, title: title, searches: searches, matched: matched) { _ in computation }
    }
}

/// How `PlanRepository.apply` stores a change, and whose it is.
public enum PlanWritePolicy: Sendable, Equatable {
    /// A user's edit: applied to the newest plan and written at once (its emptied legs marked
    /// pending), then computed and written again; a newer edit supersedes the computation.
    case edit
    /// A user's list of edits: computed whole on a copy of the plan, then stored as one new
    /// generation with one write, or nothing (`conflict`) when the plan moved meanwhile. A dry
    /// run answers the result and stores nothing.
    case atomic(dryRun: Bool)
    /// The daemon's own atomic change (the background refresh): it gives way to users.
    case background
}
