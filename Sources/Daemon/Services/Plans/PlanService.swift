import Foundation
import Planner
import Store
import Synchronization
import WireProtocol

/// The one path of every change of a stored plan: created (`plan.new`, `plan.copy`, a rerun from
/// history), edited (each `plan.*` edit, `plan.edits`, the background refresh and the recompute
/// after a crash) and deleted. The handlers only decode params, call one method here and encode
/// the outcome.
///
/// An edit's rules are `prepare`'s (`PlanService+EditRules`): the slow part (searching places,
/// asking the planner) runs first, then the change runs inside the coordinator against the
/// newest plan, where node and segment numbers are resolved, `expected_generation` is checked
/// and one region is enforced. Only the legs the change emptied are computed
/// (`Planner.computeLegsReporting`), the plan is written by the coordinator, and the coordinator
/// publishes its event.
struct PlanService: Sendable {
    typealias Outcome = PlanCoordinator.Outcome

    let planner: Planner
    /// Decides generations, writes edited plans and announces them.
    let plans: PlanCoordinator
    /// New plans are created and plans deleted here.
    let store: Store
    let resolver: PlaceResolver
    let regions: RegionRegistry
    let location: LocationState
    let input: WireInput
    let typedPlaces: TypedPlaceHistory
    let counters: DaemonCounters
    let events: EventHub

    /// One edit: applied to the newest plan and written at once, then its emptied legs computed
    /// (`PlanCoordinator.edit`, which also decides the title: `RoutePlan.title(_:after:)`).
    /// A user's request from its first read: the background refresh gives way to it.
    func edit(_ edit: PlanEdit, expectedGeneration: Int64?) async throws -> Outcome {
        let service = self
        return try await plans.userRequest(on: edit.planID) {
            try await service.edited(edit, expectedGeneration: expectedGeneration)
        }
    }

    private func edited(_ edit: PlanEdit, expectedGeneration: Int64?) async throws -> Outcome {
        let shown = try await plans.show(id: edit.planID, forEdit: true) // the one read of the plan
        let prepared = try await prepare(edit, on: shown.plan)
        _ = try regions.requireRegions()
        let searches = typedPlaces.entries(prepared.typed)
        let change: (@Sendable (RoutePlan) throws -> RoutePlan)?
        let compute: @Sendable (RoutePlan) async throws -> LegComputation
        switch prepared.step {
        case .change(let edited):
            change = edited
            compute = legs
        case .compute(let computation):
            change = nil // the computation is the change: the plan is written once, computed
            compute = computation
        }
        var outcome = try await plans.edit(id: edit.planID, title: prepared.title, expectedGeneration: expectedGeneration,
                                           searches: searches, change: change, compute: compute)
        outcome.matched = prepared.matched
        outcome.modeNotes = prepared.modeNotes
        return outcome
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
        let service = self
        return try await plans.userRequest(on: params.id) { try await service.applied(params, background: false) }
    }

    private func applied(_ params: Params.PlanEdits, background: Bool) async throws -> Outcome {
        let service = self
        // The places the edits typed and how each matched, for the answer as a single edit gives them.
        let matched = Mutex<[ResolvedPlace]>([])
        var outcome = try await plans.applyAtomically(id: params.id, expectedGeneration: params.expectedGeneration,
                                                      dryRun: params.dryRun == true, background: background) { original, originalTitle in
            var plan = original
            var typed: [TypedPlaceHistory.Typed] = []
            var title = originalTitle
            for (index, edit) in params.edits.enumerated() {
                do {
                    let prepared = try await service.prepare(edit, on: plan)
                    let before = plan
                    switch prepared.step {
                    case .change(let change): plan = try change(plan)
                    case .compute(let compute): plan = try await compute(plan).plan
                    }
                    typed += prepared.typed
                    matched.withLock { $0 += prepared.matched }
                    // Edit by edit, as the same edits one at a time would title it.
                    title = prepared.title ?? before.title(title, after: plan)
                } catch is CancellationError {
                    throw CancellationError()
                } catch {
                    throw Self.failure(of: edit, number: index + 1, error)
                }
            }
            let computed = try await service.legs(plan)
            return (computed, service.typedPlaces.entries(typed), plan.title(title, after: computed.plan))
        }
        outcome.matched = matched.withLock { $0 }
        return outcome
    }

    /// The background refresh of one plan (`PlanRefreshJob`): `plan.refresh` by the daemon, as
    /// one atomic change of the plan at `generation` that gives way to users: `conflict`
    /// (nothing changed) when the plan moved on or a user's request on it is under way.
    func refresh(id: Int64, generation: Int64) async throws -> Outcome {
        _ = try regions.requireRegions()
        return try await applied(Params.PlanEdits(id: id, edits: [.refresh(Params.PlanID(id: id))], expectedGeneration: generation),
                                 background: true)
    }

    /// Recomputes the plans whose last recompute never stored its legs (the daemon was killed
    /// meanwhile): `PlanCoordinator.recomputeInterrupted`.
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
        let id = try await store.write(Plans.create(computed.plan, title: title))
        return await adopt(id: id, plan: computed.plan, title: title, failures: computed.failuresBySegment,
                           queries: computed.queryCount)
    }

    /// `plan.delete`; with `expectedGeneration`, only while the plan is at it (else `conflict`,
    /// deleting nothing), as every edit: checked in the step that deletes (`PlanCoordinator.delete`).
    func delete(id: Int64, expectedGeneration: Int64? = nil) async throws {
        let store = store
        do {
            try await plans.delete(id: id, expectedGeneration: expectedGeneration) { try await store.write(Plans.delete(id)) }
        } catch StoreError.notFound {
            throw DaemonError.notFound("plan \(id) does not exist")
        }
        events.publish(.planDeleted(planID: id))
    }

    /// A plan just stored as new: generation 1, counted and announced once.
    func adopt(id: Int64, plan: RoutePlan, title: String, failures: [Int: RoutingError], queries: Int) async -> Outcome {
        await plans.created(id: id, failures: failures)
        counters.countPlanRecomputed()
        events.publish(.planRecomputed(planID: id, generation: 1, queries: queries))
        return Outcome(id: id, plan: plan, title: title, generation: 1, failures: failures)
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
