import Foundation
import Planner
import Store
import WireProtocol

/// `plan.stay`, `plan.alternatives`, `plan.choose`, `plan.move`, `plan.unlock`, `plan.rename`,
/// `plan.copy`: a day of several places and the user's choices in it. The handlers only read
/// the params; the changes are the planner's (`RoutePlan+DayPlan`, `Planner+DayPlans`), applied
/// through the same edit path as every other plan edit.
struct DayPlanMethods: Sendable {
    let edits: PlanEditMethods
    /// `plan.copy` creates a plan.
    let store: Store
    let counters: DaemonCounters
    let events: EventHub

    private var planner: Planner { edits.planner }
    private var plans: PlanCoordinator { edits.plans }
    private var input: WireInput { edits.input }
    private var regions: RegionRegistry { edits.regions }

    /// The most alternatives one request may ask for.
    static let maxAlternatives = 20

    func register(in table: inout MethodTable) {
        // The edits among these take the one edit path (`PlanEditMethods.prepare`), as `plan.edits` does.
        table.register(Endpoints.planStay) { params, _ in try await edits.single(.stay(params), params.expectedGeneration) }
        table.register(Endpoints.planAlternatives) { params, _ in
            let current = try await plans.show(id: params.id)
            let segment = try input.segmentIndex(params.segment, in: current.plan)
            let count = try Self.count(params.count)
            _ = try regions.requireRegions()
            let now = input.clock.now()
            let zone = regions.timeZone(of: current.plan)
            let time = current.plan.departureTimes(startingAt: now)[segment]
            let options = try await planner.alternatives(for: current.plan, segment: segment, count: count)
            return AlternativesDocument(id: params.id, segment: params.segment, mode: WireMode(current.plan.modes[segment]),
                                        time: time.map { WireTime.string(from: $0, timeZone: zone) },
                                        timeZone: WireTime.zoneName(zone),
                                        options: options.map { WireDocuments.leg($0, timeZone: zone, departure: time) },
                                        day: String(WireTime.string(from: input.planDay(current.plan), timeZone: zone).prefix(10)))
        }
        table.register(Endpoints.planChoose) { params, _ in try await edits.single(.choose(params), params.expectedGeneration) }
        table.register(Endpoints.planMove) { params, _ in try await edits.single(.move(params), params.expectedGeneration) }
        table.register(Endpoints.planUnlock) { params, _ in try await edits.single(.unlock(params), params.expectedGeneration) }
        table.register(Endpoints.planRename) { params, _ in try await edits.single(.rename(params), params.expectedGeneration) }
        table.register(Endpoints.planCopy) { params, _ in
            let original = try await plans.show(id: params.id)
            let title = try Self.title(params.title ?? "\(original.title) (copy)")
            let id = try await store.createPlan(original.plan, title: title)
            await plans.created(id: id, failures: original.failures)
            counters.countPlanRecomputed()
            events.publish(.planRecomputed(planID: id, generation: 1, queries: 0))
            return WireDocuments.plan(PlanCoordinator.Outcome(id: id, plan: original.plan, title: title, generation: 1,
                                                              failures: original.failures),
                                      regions: regions, now: input.clock.now())
        }
    }

    static func count(_ given: Int?) throws -> Int {
        let count = given ?? 5
        guard (1...maxAlternatives).contains(count) else {
            throw DaemonError.invalidParams("count must be 1 to \(maxAlternatives), got \(count)")
        }
        return count
    }

    static func title(_ text: String) throws -> String {
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { throw DaemonError.invalidParams("title must not be empty") }
        try NameRule.check(text, field: "title")
        return text
    }
}
