import Foundation
import Planner
import Store
import WireProtocol

/// A new plan once its places are resolved: built, stored with its route history entry (one
/// transaction, so a failure leaves neither), and answered. Used by `plan.new` and by
/// `history.rerun` of an entry that `plan.new` made, so a rerun makes the same kind of plan.
struct PlanCreator: Sendable {
    let planner: Planner
    let plans: PlanCoordinator
    let store: Store
    let regions: RegionRegistry
    let location: LocationState
    let input: WireInput
    let counters: DaemonCounters
    let events: EventHub

    /// What to build: every place in order (the ends and the places between), what the user
    /// typed for each (nil where not known), and the options.
    struct Request: Sendable {
        var nodes: [PlanNode]
        var texts: [String?]
        var preset: PlanPreset
        var timePreference: TimePreference
        var pace: WalkingPace
        /// The title the user gave; nil: generated from the places.
        var title: String?
        /// Step-free walks and transit (`--wheelchair`), stored with the plan.
        var access: AccessNeed = .any
    }

    /// - parameter region: the region the plan is in (recorded in its history entry).
    /// - parameter searches: places typed as text for this plan, recorded with it.
    func create(_ request: Request, region: String, searches: [SearchHistoryEntry]) async throws -> PlanDocument {
        guard let first = request.nodes.first, let last = request.nodes.last else { throw PlannerError.tooFewNodes(0) }
        let built = try await planner.buildPlanReporting(through: request.nodes, preset: request.preset,
                                                         timePreference: request.timePreference, pace: request.pace,
                                                         access: request.access, currentLocation: location.current?.coordinate)
        let failures = built.failuresBySegment
        let title = request.title ?? built.plan.generatedTitle
        let texts = request.texts + Array(repeating: nil, count: max(0, request.nodes.count - request.texts.count))
        let asked = PlanRequest(via: request.nodes.dropFirst().dropLast().map(\.place), viaTexts: Array(texts.dropFirst().dropLast()),
                                preset: request.preset, pace: request.pace, title: title, titleGiven: request.title != nil,
                                access: request.access)
        let id = try await store.createPlan(built.plan, title: title, recording: RouteHistoryEntry(
            from: first.place, to: last.place, modes: built.plan.modes, date: input.clock.now(),
            fromText: texts.first ?? nil, toText: texts.last ?? nil, region: region, requestedTime: request.timePreference,
            plan: asked), searches: searches)
        await plans.created(id: id, failures: failures)
        counters.countPlanRecomputed()
        events.publish(.planRecomputed(planID: id, generation: 1, queries: built.queryCount))
        return WireDocuments.plan(PlanCoordinator.Outcome(id: id, plan: built.plan, title: title, generation: 1, failures: failures),
                                  regions: regions, now: input.clock.now())
    }
}
