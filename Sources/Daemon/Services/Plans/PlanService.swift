import Foundation
import Planner
import Store

/// The one path of every change of a stored plan: created (`plan.new`, `plan.copy`, a rerun from
/// history), edited (each `plan.*` edit, `plan.edits`, the background refresh and the recompute
/// after a crash) and deleted. The handlers only decode params, call one method here and encode
/// the outcome.
///
/// An edit's rules are its `prepare` (`PlanEditRule`, each method's in `Methods/PlanEditRules`): the slow part (searching places,
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
    func edit(_ edit: any PlanEditRule, expectedGeneration: Int64?) async throws -> Outcome {
        let service = self
        return try await plans.apply(to: edit.planID, policy: .edit, expected: expectedGeneration) { current, _ in
            let prepared = try await edit.prepare(on: current, with: service)
            _ = try service.regions.requireRegions()
            let searches = service.typedPlaces.entries(prepared.typed)
            switch prepared.step {
            case .change(let change):
                return PlanChanges(change: change, title: prepared.title, searches: searches, matched: prepared.matched,
                                   modeNotes: prepared.modeNotes, compute: prepared.compute ?? service.legs)
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
    /// - parameter dryRun: answer with the resulting plan without storing it.
    func apply(_ edits: [any PlanEditRule], to id: Int64, dryRun: Bool, expectedGeneration: Int64?) async throws -> Outcome {
        guard !edits.isEmpty else { throw DaemonError.invalidParams("edits must not be empty") }
        for (index, edit) in edits.enumerated() {
            let name = "edit \(index + 1) (\(edit.name))"
            guard edit.planID == id else { throw DaemonError.invalidParams("\(name) names plan \(edit.planID), not plan \(id)") }
            guard edit.expectedGeneration == nil else {
                throw DaemonError.invalidParams("\(name) has its own expected_generation: give it once, beside edits")
            }
        }
        _ = try regions.requireRegions()
        return try await plans.apply(to: id, policy: .atomic(dryRun: dryRun), expected: expectedGeneration) {
            try await applied(edits, to: $0, title: $1)
        }
    }

    /// The edits applied in order to `original`, then its empty legs computed: the whole change
    /// of `plan.edits` (and of the background refresh), stored by the repository as one generation.
    private func applied(_ edits: [any PlanEditRule], to original: RoutePlan, title originalTitle: String) async throws -> PlanChanges {
        var plan = original
        var typed: [TypedPlaceHistory.Typed] = []
        // The places the edits typed and how each matched, for the answer as a single edit gives them.
        var matched: [ResolvedPlace] = []
        var title = originalTitle
        var compute = legs  // as the last edit that computes its own way asks (one computation at the end)
        for (index, edit) in edits.enumerated() {
            do {
                let prepared = try await edit.prepare(on: plan, with: self)
                let before = plan
                switch prepared.step {
                case .change(let change):
                    plan = try change(plan)
                    compute = prepared.compute ?? compute
                case .compute(let computation): plan = try await computation(plan).plan
                }
                typed += prepared.typed
                matched += prepared.matched
                // Edit by edit, as the same edits one at a time would title it.
                title = prepared.title ?? before.title(title, after: plan)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw PlanEditFailure(number: index + 1, name: edit.name, error: error)
            }
        }
        let computed = try await compute(plan)
        return .computed(computed, title: plan.title(title, after: computed.plan), searches: typedPlaces.entries(typed),
                         matched: matched)
    }

    /// The background refresh of one plan (`PlanRefreshJob`): `plan.refresh` by the daemon, as
    /// one atomic change of the plan at `generation` that gives way to users: `conflict`
    /// (nothing changed) when the plan moved on or a user's request on it is under way.
    func refresh(id: Int64, generation: Int64) async throws -> Outcome {
        _ = try regions.requireRegions()
        return try await plans.apply(to: id, policy: .background, expected: generation) {
            try await applied([PlanRefreshEdit(planID: id)], to: $0, title: $1)
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
    func copy(id: Int64, title given: String?, expectedGeneration: Int64?) async throws -> Outcome {
        let original = try await plans.show(id: id)
        if let expected = expectedGeneration, original.generation != expected {
            throw DaemonError.staleGeneration(plan: id, generation: original.generation, expected: expected)
        }
        let title = try Self.title(given ?? "\(original.title) (copy)")
        let computed = try await legs(original.plan) // asks nothing when every leg is there
        return try await plans.create(computed.plan, title: title, failures: computed.failuresBySegment,
                                      queries: computed.queryCount)
    }

    /// `plan.delete`; with `expectedGeneration`, only while the plan is at it (else `conflict`,
    /// deleting nothing), as every edit: checked in the step that deletes (`PlanRepository.delete`).
    func delete(id: Int64, expectedGeneration: Int64? = nil) async throws {
        try await plans.delete(id: id, expectedGeneration: expectedGeneration)
    }

    /// The legs the plan lacks, computed (the others are kept: only what a change emptied is asked),
    /// and judged as every edit's computation is (`Planner.judgingWhatTheEditComputed`: the
    /// planner's walks it moved judged again at their new times, each ride it asked that walking
    /// beats walked unless the user locked or pinned it, a day's hop no line serves walked).
    @Sendable func legs(_ plan: RoutePlan) async throws -> LegComputation {
        let here = location.current?.coordinate
        return try await planner.judgingWhatTheEditComputed(try await planner.computeLegsReporting(plan, currentLocation: here),
                                                            currentLocation: here)
    }
}
