import Foundation
import Planner
import Store
import WireProtocol

/// The one path of every change of a stored plan: created (`plan.new`, `plan.copy`, a rerun from
/// history), edited (each `plan.*` edit, `plan.edits`, the background refresh and the recompute
/// after a crash) and deleted. The handlers only decode params, call one method here and encode
/// the outcome.
///
/// An edit's rules are `prepare`'s (`PlanService+EditRules`): the slow part (searching places,
/// asking the planner) runs first, then the change runs inside the repository against the
/// newest plan, where node and segment numbers are resolved, `expected_generation` is checked
/// and one region is enforced. Only the legs the change emptied are computed
/// (`Planner.computeLegsReporting`); the repository writes the plan and publishes its event.
/// Each change is one call of `PlanRepository.apply`.
struct PlanService: Sendable {
    typealias Outcome = PlanRepository.Outcome

    let planner: Planner
    /// Reads and writes the plans: decides generations, stores changes and announces them.
    let plans: PlanRepository
    let resolver: PlaceResolver
    let regions: RegionRegistry
    let location: LocationState
    let input: WireInput
    let typedPlaces: TypedPlaceHistory

    /// One edit: prepared on the plan as read, applied to the newest plan and written at once,
    /// then its emptied legs computed (the repository also decides the title:
    /// `RoutePlan.title(_:after:)`). A user's request from its first read: the background
    /// refresh gives way to it.
    func edit(_ edit: PlanEdit, expectedGeneration: Int64?) async throws -> Outcome {
        let service = self
        return try await plans.apply(to: edit.planID, policy: .edit, expected: expectedGeneration) { current, _ in
            let prepared = try await service.prepare(edit, on: current)
            _ = try service.regions.requireRegions()
            let searches = service.typedPlaces.entries(prepared.typed)
            switch prepared.step {
            case .change(let change):
                return PlanChanges(change: change, title: prepared.title, searches: searches, matched: prepared.matched,
                                   modeNotes: prepared.modeNotes, compute: service.legs)
            case .compute(let computation):
                // The computation is the change: the plan is written once, computed.
                return PlanChanges(change: nil, title: prepared.title, searches: searches, matched: prepared.matched,
                                   modeNotes: prepared.modeNotes, compute: computation)
            }
        }
    }

    /// `plan.edits`: every edit applied in order to a copy of the plan, then one computation of
    /// the legs still empty, stored as one new generation; the first edit that fails stops it
    /// all (nothing stored, the error names that edit). A user's request.
    func apply(_ params: Params.PlanEdits) async throws -> Outcome {
        guard !params.edits.isEmpty else { throw DaemonError.invalidParams("edits must not be empty") }
        for (index, edit) in params.edits.enumerated() {
            let name = "edit \(index + 1) (\(edit.method.rawValue))"
            guard edit.planID == params.id else { throw DaemonError.invalidParams("\(name) names plan \(edit.planID), not plan \(params.id)") }
            guard edit.expectedGeneration == nil else {
                throw DaemonError.invalidParams("\(name) has its own expected_generation: give it once, beside edits")
            }
        }
        _ = try regions.requireRegions()
        return try await plans.apply(to: params.id, policy: .atomic(dryRun: params.dryRun == true), expected: params.expectedGeneration) {
            try await applied(params.edits, to: $0, title: $1)
        }
    }

    /// The edits applied in order to `original`, then its empty legs computed: the whole change
    /// of `plan.edits` (and of the background refresh), stored by the repository as one generation.
    private func applied(_ edits: [PlanEdit], to original: RoutePlan, title originalTitle: String) async throws -> PlanChanges {
        var plan = original
        var typed: [TypedPlaceHistory.Typed] = []
        // The places the edits typed and how each matched, for the answer as a single edit gives them.
        var matched: [ResolvedPlace] = []
        var title = originalTitle
        for (index, edit) in edits.enumerated() {
            do {
                let prepared = try await prepare(edit, on: plan)
                let before = plan
                switch prepared.step {
                case .change(let change): plan = try change(plan)
                case .compute(let compute): plan = try await compute(plan).plan
                }
                typed += prepared.typed
                matched += prepared.matched
                // Edit by edit, as the same edits one at a time would title it.
                title = prepared.title ?? before.title(title, after: plan)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw Self.failure(of: edit, number: index + 1, error)
            }
        }
        let computed = try await legs(plan)
        return .computed(computed, title: plan.title(title, after: computed.plan), searches: typedPlaces.entries(typed),
                         matched: matched)
    }

    /// The background refresh of one plan (`PlanRefreshJob`): `plan.refresh` by the daemon, as
    /// one atomic change of the plan at `generation` that gives way to users: `conflict`
    /// (nothing changed) when the plan moved on or a user's request on it is under way.
    func refresh(id: Int64, generation: Int64) async throws -> Outcome {
        _ = try regions.requireRegions()
        return try await plans.apply(to: id, policy: .background, expected: generation) {
            try await applied([.refresh(Params.PlanID(id: id))], to: $0, title: $1)
        }
    }

    /// Recomputes the plans whose last recompute never stored its legs (the daemon was killed
    /// meanwhile): `PlanRepository.recomputeInterrupted`.
    func recomputeInterrupted() async throws -> (done: [Int64], failed: [Int64: Error]) {
        try await plans.recomputeInterrupted(compute: legs)
    }

    /// `plan.copy`: the plan as it is now, with its legs, stored as a new plan. Legs the original
    /// is still computing (an edit under way emptied them) are computed for the copy
    /// first: stored empty and not pending, nothing would ever fill them.
    /// With `expectedGeneration`, the copy is of the plan at that generation or none (`conflict`).
    func copy(_ params: Params.PlanCopy) async throws -> Outcome {
        let original = try await plans.show(id: params.id)
        if let expected = params.expectedGeneration, original.generation != expected {
            throw DaemonError.staleGeneration(plan: params.id, generation: original.generation, expected: expected)
        }
        let title = try Self.title(params.title ?? "\(original.title) (copy)")
        let computed = try await legs(original.plan) // asks nothing when every leg is there
        return try await plans.create(computed.plan, title: title, failures: computed.failuresBySegment,
                                      queries: computed.queryCount)
    }

    /// `plan.delete`; with `expectedGeneration`, only while the plan is at it (else `conflict`,
    /// deleting nothing), as every edit: checked in the step that deletes (`PlanRepository.delete`).
    func delete(id: Int64, expectedGeneration: Int64? = nil) async throws {
        try await plans.delete(id: id, expectedGeneration: expectedGeneration)
    }

    /// The legs the plan lacks, computed (the others are kept: only what a change emptied is asked).
    @Sendable func legs(_ plan: RoutePlan) async throws -> LegComputation {
        try await planner.computeLegsReporting(plan, currentLocation: location.current?.coordinate)
    }

    /// The edit's own error (its word kept), named by its number and method.
    static func failure(of edit: PlanEdit, number: Int, _ error: Error) -> WireError {
        var wire = RequestDispatcher.wireError(from: error)
        wire.message = "edit \(number) (\(edit.method.rawValue)): \(wire.message); nothing was changed"
        var fields: [String: JSONValue] = [:]
        if case .object(let detail)? = wire.data { fields = detail }
        fields["edit"] = .number(Double(number))
        fields["method"] = .string(edit.method.rawValue)
        wire.data = .object(fields)
        return wire
    }
}
