import Foundation
import Planner
import Store

/// One background refresh of one stored plan, as `plan.refresh` does it by hand: every leg is
/// asked again with the current routing data; a pinned departure is re-found by its trip or
/// duration fingerprint, else the user's leg stays and the new answer becomes a pending update
/// (which `PlanCoordinator` announces with a `pending_update` event).
struct PlanRefreshJob: Sendable {
    enum Outcome: String, Sendable {
        case refreshed
        /// The user edited the plan while it was being refreshed: their edit won; try again.
        case superseded
        /// The plan's day is over: a timetable change cannot matter to it any more.
        case dayPassed = "day_passed"
        /// Deleted meanwhile.
        case gone
    }

    let store: Store
    let plans: PlanCoordinator
    let planner: Planner
    let regions: RegionRegistry
    let location: LocationState
    let clock: any WallClock

    /// The stored plans with an end in `region`, oldest first (`run` leaves those whose day passed).
    func plans(inRegion region: String) throws -> [Int64] {
        guard let handle = try? regions.handle(named: region) else { return [] }
        return try store.listPlans().map(\.id).sorted().filter { id in
            guard let plan = try? store.loadPlan(id: id).plan, let first = plan.nodes.first, let last = plan.nodes.last else {
                return false
            }
            return handle.contains(first.place.coordinate) || handle.contains(last.place.coordinate)
        }
    }

    func run(planID id: Int64) async throws -> Outcome {
        let before: PlanCoordinator.Outcome
        do {
            before = try await plans.show(id: id)
        } catch DaemonError.notFound {
            return .gone
        }
        if dayHasPassed(before.plan) { return .dayPassed }
        let planner = planner, here = location.current?.coordinate
        do {
            let after = try await plans.edit(id: id, change: { $0.refreshing() }) { plan in
                try await planner.computeLegsReporting(plan, currentLocation: here)
            }
            // An edit that came in meanwhile cancelled this computation and answered instead.
            return after.generation == before.generation + 1 ? .refreshed : .superseded
        } catch DaemonError.notFound {
            return .gone
        } catch is CancellationError where !Task.isCancelled {
            return .superseded
        }
    }

    /// Whether the local day the plan is for (its `at`/`arrive_by`; "leave now" is always today)
    /// ended before today began, in the plan's region's zone.
    func dayHasPassed(_ plan: RoutePlan) -> Bool {
        let date: Date
        switch plan.timePreference {
        case .leaveNow: return false
        case .departAt(let time), .arriveBy(let time): date = time
        }
        var calendar = Calendar(identifier: .gregorian)
        if let first = plan.nodes.first, let last = plan.nodes.last {
            calendar.timeZone = regions.timeZone(from: first.place, to: last.place)
        }
        return calendar.startOfDay(for: date) < calendar.startOfDay(for: clock.now())
    }
}
