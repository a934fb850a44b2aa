import Foundation
import Planner
import WireProtocol

/// `plan.stay`'s rule: exactly one of `duration_s`, `until` or `clear` at node `node`.
extension Params.PlanStay: PlanEditRule {
    func prepare(on current: RoutePlan, with service: PlanService) async throws -> PlanService.Prepared {
        let params = self, input = service.input, regions = service.regions
        let given = [params.durationS != nil, params.until != nil, params.clear == true].filter { $0 }.count
        guard given == 1 else { throw DaemonError.invalidParams("give exactly one of duration_s, until or clear") }
        if let seconds = params.durationS, !(seconds.isFinite && seconds >= 0) {
            throw DaemonError.invalidParams("duration_s must be 0 or more seconds, got \(seconds)")
        }
        @Sendable func stay(at index: Int, of plan: RoutePlan) throws -> (stay: NodeStay?, passed: Date?) {
            if let seconds = params.durationS { return (.duration(seconds), nil) }
            guard let until = params.until else { return (nil, nil) }
            // A bare HH:MM is the next such time after the traveller can get to the node
            // (00:40 on a node reached at 23:58 or 00:58 is the next night's): going forward
            // from the plan's start, not the schedule's time, which waits there for the next
            // ride (a stop reached 23:35 for the first bus at 06:10); else as scheduled (arrive
            // by), on the plan's day when it has no time. `passed`: the arrival, when the time
            // had passed by then on its day and the stay lasts 12 h or more (said in the answer,
            // trial 56 finding 13: "--until 08:20" on a node reached 08:27 is a stay of almost a day).
            let now = input.clock.now(), zone = regions.timeZone(of: plan)
            guard let arrival = plan.earliestArrivals(now: now)[index] ?? plan.schedule(startingAt: now)[index] else {
                return (.until(try input.time(until, param: "until", timeZone: zone, day: input.planDay(plan))), nil)
            }
            let date = try input.nextTime(until, param: "until", timeZone: zone, after: arrival)
            let passed = date > (try input.time(until, param: "until", timeZone: zone, day: arrival))
                && date.timeIntervalSince(arrival) >= 12 * 3600  // not a stay past midnight (23:58 until 00:40)
            return (.until(date), passed ? arrival : nil)
        }
        // "08:20 has passed when you get to Hervanta (08:27): staying until 08:20 +1d"
        let index = try input.nodeIndex(params.node, in: current), asked = try stay(at: index, of: current)
        var note: String?
        if let arrival = asked.passed, case .until(let date)? = asked.stay, let until = params.until {
            let words = PlanClockWords(zone: regions.timeZone(of: current), planDay: input.planDay(current))
            note = "\(until) has passed when you get to \(current.nodes[index].place.name) (\(words.text(arrival))): "
                + "staying until \(words.text(date)), the next day; give --until with a date for another day"
        }
        return Prepared(step: .change { plan in
            let index = try input.nodeIndex(params.node, in: plan)
            return try plan.settingStay(stay(at: index, of: plan).stay, atNode: index)
        }, modeNotes: { [note] _ in note.map { [$0] } ?? [] })
    }
}
