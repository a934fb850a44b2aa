import Foundation
import Planner
import WireProtocol

/// `plan.time`'s rule: exactly one of now, `at` or `arrive_by`, a bare HH:MM on the plan's own day.
/// A time on another day takes the pins along (`PinsMovedToTheDay`).
extension Params.PlanTime: PlanEditRule {
    func prepare(on current: RoutePlan, with service: PlanService) async throws -> PlanService.Prepared {
        let params = self, input = service.input, regions = service.regions
        let given = [params.now == true, params.at != nil, params.arriveBy != nil].filter { $0 }.count
        guard given == 1 else { throw DaemonError.invalidParams("give exactly one of now, at or arrive_by") }
        @Sendable func timed(_ plan: RoutePlan) throws -> RoutePlan {
            // A bare HH:MM falls on the plan's own day, in its region's zone.
            let preference = params.now == true ? .leaveNow
                : try input.timePreference(at: params.at, arriveBy: params.arriveBy, timeZone: regions.timeZone(of: plan),
                                           day: input.planDay(plan))
            return plan.settingTimePreference(preference)
        }
        let moved = try await PinsMovedToTheDay.of(timed(current), from: current, with: service)
        guard let moved else { return Prepared(step: .change(timed)) }
        return Prepared(step: .change { plan in
            guard plan == current else { throw DaemonError.conflict("another edit changed the plan while moving its pins; nothing was changed, try again") }
            return moved.plan
        }, modeNotes: { _ in moved.notes })
    }
}
