import Foundation
import Planner
import WireProtocol

/// `plan.pin`'s rule: the departure at `time` (or of `line`) asked of the planner, stored only if the
/// plan is still the one it was asked for.
extension Params.PlanPin: PlanEditRule {
    func prepare(on current: RoutePlan, with service: PlanService) async throws -> PlanService.Prepared {
        let params = self, planner = service.planner, input = service.input, regions = service.regions
        let segment = try input.segmentIndex(params.segment, in: current)
        let zone = regions.timeZone(of: current)
        let departure = try params.time.map {
            try input.time($0, param: "time", timeZone: zone, day: current.schedule()[segment] ?? input.planDay(current))
        }
        _ = try regions.requireRegions()
        let pinned: RoutePlan
        if let line = params.line {
            pinned = try await planner.pinning(current, segment: segment, line: line, at: departure)
        } else if let departure {
            pinned = try await planner.pinning(current, segment: segment, at: departure)
        } else {
            throw DaemonError.invalidParams("give time, line, or both")
        }
        if let leaves = pinned.pin(ofSegment: segment)?.departure {
            try Self.refusingADepartureBeforeTheTraveller(leaves, segment: segment, number: params.segment, of: current,
                                                          now: input.clock.now(),
                                                          words: PlanClockWords(zone: zone, planDay: input.planDay(current)))
        }
        return Prepared(step: .change { plan in
            guard plan == current else { throw DaemonError.conflict("another edit changed the plan while pinning; nothing was changed, try again") }
            return pinned
        })
    }
}

extension PlanEditRule {
    /// `conflict` (nothing changes) when the departure the user picked for segment `index`
    /// (`number` as typed) leaves before the traveller can be there from the plan's start
    /// (`RoutePlan.departureBeforeTheTraveller`, trial 51): the newest choice is refused, not
    /// let give way at once; the message names the start, and how to make the choice.
    static func refusingADepartureBeforeTheTraveller(_ leaves: Date, segment index: Int, number: Int, of plan: RoutePlan, now: Date,
                                                     words: PlanClockWords) throws {
        switch plan.departureBeforeTheTraveller(segment: index, at: leaves, now: now) {
        case .beforeTheStart(let start)?:
            let start = plan.timePreference == .leaveNow ? "now (\(words.text(start)))" : "at \(words.text(start))"
            throw DaemonError.conflict("segment \(number)'s departure at \(words.text(leaves)) leaves before the plan starts "
                                       + "\(start); nothing was changed: pick a departure then or later, or move the start "
                                       + "earlier first (plan time)")
        case .beforeTheyCanBeThere(let ready)?:
            throw DaemonError.conflict("segment \(number)'s departure at \(words.text(leaves)) leaves before the traveller, starting "
                                       + "at \(plan.earliestDeparture(now: now).map(words.text) ?? "?"), can leave "
                                       + "\(plan.nodes[index].place.name) at \(words.text(ready)); nothing was changed: pick a "
                                       + "departure then or later, or move the start earlier first (plan time)")
        case nil:
            break
        }
    }
}
