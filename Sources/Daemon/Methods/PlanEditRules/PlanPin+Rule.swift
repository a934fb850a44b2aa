import Foundation
import Planner
import WireProtocol

/// `plan.pin`'s rule: the departure at `time` (or of `line`) asked of the planner, stored only if the
/// plan is still the one it was asked for. A ride is pinned by the minute it leaves its stop, as
/// the plan shows it; one leaving later than asked is named in the answer (`mode_notes`).
extension Params.PlanPin: PlanEditRule {
    func prepare(on current: RoutePlan, with service: PlanService) async throws -> PlanService.Prepared {
        let params = self, planner = service.planner, input = service.input, regions = service.regions
        let segment = try input.segmentIndex(params.segment, in: current)
        let zone = regions.timeZone(of: current)
        let departure = try params.time.map {
            try input.time($0, param: "time", timeZone: zone, day: current.schedule()[segment] ?? input.planDay(current))
        }
        _ = try regions.requireRegions()
        let words = PlanClockWords(zone: zone, planDay: input.planDay(current)), now = input.clock.now()
        // A minute before the plan starts is refused, whatever leaves then or later (a ride the
        // traveller can't reach after the start is passed over for the next they can catch).
        let minuteEnd = departure?.addingTimeInterval(59)  // the minute asked, to its last second
        if let departure, let minuteEnd,
           case .beforeTheStart? = current.departureBeforeTheTraveller(segment: segment, at: minuteEnd, now: now) {
            try Self.refusingADepartureBeforeTheTraveller(minuteEnd, shown: departure, segment: segment,
                                                          number: params.segment, of: current, now: now, words: words)
        }
        let pinned: RoutePlan
        if let line = params.line {
            pinned = try await planner.pinning(current, segment: segment, line: line, at: departure)
        } else if let departure {
            pinned = try await planner.pinning(current, segment: segment, at: departure)
        } else {
            throw DaemonError.invalidParams("give time, line, or both")
        }
        if let pin = pinned.pin(ofSegment: segment) {
            try Self.refusingADepartureBeforeTheTraveller(pin.departure, ride: pin.leg?.rides.first, segment: segment,
                                                          number: params.segment, of: current, now: now, words: words)
        }
        let note = departure.flatMap { Self.noRideThen(asked: $0, line: params.line, segment: segment, number: params.segment, in: pinned, words: words) }
        return Prepared(step: .change { plan in
            guard plan == current else { throw DaemonError.conflict("another edit changed the plan while pinning; nothing was changed, try again") }
            return pinned
        }, modeNotes: { _ in note.map { [$0] } ?? [] })
    }

    /// "segment 4: no ride you can catch leaves at 07:41; pinned the next, bus 6 from Tays C at
    /// 07:42": a ride pinned by the minute it leaves its stop (docs/planner.md "What a pin's time
    /// means") that leaves later than asked, because none of the line asked (any line) that the
    /// traveller can catch leaves then. Nil when it leaves in the minute asked, or is no ride; nil
    /// too when it leaves earlier: its trip (a later ride of its journey) leaves a stop on the way
    /// in that minute, caught where the traveller gets on (trial 60 F1: bus 6 at 08:48 from
    /// Rautatieasema D boarded at Koskipuisto C at 08:46 was "no bus 6 you can catch").
    static func noRideThen(asked: Date, line: String?, segment index: Int, number: Int, in pinned: RoutePlan,
                           words: PlanClockWords) -> String? {
        guard let ride = pinned.pin(ofSegment: index)?.leg?.rides.first,
              ShownTime.minute(ride.boarding.time) > ShownTime.minute(asked) else { return nil }
        let asking = line.map { "\(ride.vehicle) \($0)" } ?? "ride"
        return "segment \(number): no \(asking) you can catch leaves at \(words.text(asked)); pinned the next, \(ride.vehicle) \(ride.lineName) "
            + "from \(ride.boarding.name) at \(words.text(ride.boarding.time))"
    }
}

extension PlanEditRule {
    /// `conflict` (nothing changes) when the departure the user picked for segment `index`
    /// (`number` as typed) leaves before the traveller can be there from the plan's start
    /// (`RoutePlan.departureBeforeTheTraveller`, trial 51): the newest choice is refused, not
    /// let give way at once; the message names the start, and how to make the choice. A `ride`
    /// is named by the time it leaves its stop, as the plan shows it, and the walk to it by its own.
    static func refusingADepartureBeforeTheTraveller(_ leaves: Date, shown: Date? = nil, ride: TransitRide? = nil, segment index: Int,
                                                     number: Int, of plan: RoutePlan, now: Date, words: PlanClockWords) throws {
        var departure = "segment \(number)'s departure at \(words.text(shown ?? leaves)) leaves"
        if let ride {
            departure = "segment \(number)'s \(ride.vehicle) \(ride.lineName) from \(ride.boarding.name) at \(words.text(ride.boarding.time))"
                + (words.text(ride.boarding.time) == words.text(leaves) ? " leaves" : ": the walk to it leaves at \(words.text(leaves)),")
        }
        switch plan.departureBeforeTheTraveller(segment: index, at: leaves, now: now) {
        case .beforeTheStart(let start)?:
            let start = plan.timePreference == .leaveNow ? "now (\(words.text(start)))" : "at \(words.text(start))"
            throw DaemonError.conflict("\(departure) before the plan starts "
                                       + "\(start); nothing was changed: pick a departure then or later, or move the start "
                                       + "earlier first (plan time)")
        case .beforeTheyCanBeThere(let ready)?:
            throw DaemonError.conflict("\(departure) before the traveller, starting "
                                       + "at \(plan.earliestDeparture(now: now).map(words.text) ?? "?"), can leave "
                                       + "\(plan.nodes[index].place.name) at \(words.text(ready)); nothing was changed: pick a "
                                       + "departure then or later, or move the start earlier first (plan time)")
        case nil:
            break
        }
    }
}
