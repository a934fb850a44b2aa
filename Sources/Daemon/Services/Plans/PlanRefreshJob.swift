import Foundation
import Planner
import Store

/// One background refresh of one stored plan, `plan.refresh` through the plan service's one path
/// (`PlanService.refresh`): every leg is asked again with the current routing data; a pinned
/// departure is re-found by its trip or duration fingerprint, else the user's leg stays and the
/// new answer becomes a pending update (which `PlanRepository` announces with a
/// `pending_update` event). A refresh for live data (a realtime feed changed) also announces
/// what moved: `LiveRideChanges`.
///
/// It gives way to users: it starts once no user request on the plan is under way, and when one
/// comes in while it computes it stores nothing (`superseded`, tried again later); the user's
/// request goes on as if there were no refresh.
struct PlanRefreshJob: Sendable {
    enum Outcome: String, Sendable {
        case refreshed
        /// A user edited the plan while it was being refreshed: their edit won, nothing of the
        /// refresh was stored; try again.
        case superseded
        /// The plan's day is over: a timetable change cannot matter to it any more.
        case dayPassed = "day_passed"
        /// Deleted meanwhile.
        case gone
        /// Live data only matters to today's plans.
        case notToday = "not_today"
    }

    /// The refresh itself is `plan.refresh` through the plan service.
    let service: PlanService
    let regions: RegionRegistry
    let clock: any WallClock
    let events: EventHub

    /// The stored plans with an end in `region`, oldest first (`run` leaves those whose day passed).
    func plans(inRegion region: String) async throws -> [Int64] {
        guard let handle = try? regions.handle(named: region) else { return [] }
        var found: [Int64] = []
        for id in try await service.plans.list().map(\.id).sorted() {
            guard let plan = try? await service.plans.show(id: id).plan, let first = plan.nodes.first, let last = plan.nodes.last else {
                continue
            }
            if handle.contains(first.place.coordinate) || handle.contains(last.place.coordinate) { found.append(id) }
        }
        return found
    }

    /// - parameter live: the refresh is for live data: only a plan for today is asked again,
    ///   and what moved in its rides is published.
    func run(planID id: Int64, live: Bool) async throws -> Outcome {
        await service.plans.untilFree(id) // a user's request on the plan first
        try Task.checkCancellation()
        let before: PlanRepository.Outcome
        do {
            before = try await service.plans.show(id: id)
        } catch DaemonError.notFound {
            return .gone
        }
        if dayHasPassed(before.plan) { return .dayPassed }
        if live && !isToday(before.plan) { return .notToday }
        do {
            // Refreshes the plan as read (`before`), or changes nothing.
            let after = try await service.refresh(id: id, generation: before.generation)
            if live {
                let zone = regions.timeZone(of: after.plan)
                for event in LiveRideChanges.events(planID: id, before: before.plan, after: after.plan, timeZone: zone) {
                    events.publish(event)
                }
            }
            return .refreshed
        } catch DaemonError.notFound, StoreError.notFound {
            return .gone // deleted meanwhile (before the refresh's write, which then found no plan)
        } catch DaemonError.conflict, DaemonError.staleGeneration {
            return .superseded // a user's request came first or is under way: nothing was stored
        }
    }

    /// Whether the plan is for today in its region's zone ("leave now" always is).
    func isToday(_ plan: RoutePlan) -> Bool { plan.travelsOnDay(of: clock.now(), in: regions.timeZone(of: plan)) }

    /// Whether the local day the plan is for (its `at`/`arrive_by`; "leave now" is always today)
    /// ended before today began, in the plan's region's zone.
    func dayHasPassed(_ plan: RoutePlan) -> Bool {
        let date: Date
        switch plan.timePreference {
        case .leaveNow: return false
        case .departAt(let time), .arriveBy(let time): date = time
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = regions.timeZone(of: plan)
        return calendar.startOfDay(for: date) < calendar.startOfDay(for: clock.now())
    }
}
