import Foundation
import Planner
import WireProtocol

/// `plan.choose`'s rule: option `option` of `plan.alternatives` (or the one listed with `departure` and
/// `trip_ids`) taken, only if the plan is still the one it was listed for.
extension Params.PlanChoose: PlanEditRule {
    func prepare(on current: RoutePlan, with service: PlanService) async throws -> PlanService.Prepared {
        let params = self, planner = service.planner, input = service.input, regions = service.regions
        let segment = try input.segmentIndex(params.segment, in: current)
        let count = try PlanService.count(params.count)
        guard (1...count).contains(params.option) else {
            throw DaemonError.invalidParams("option must be 1 to \(count), got \(params.option)")
        }
        _ = try regions.requireRegions()
        let zone = regions.timeZone(of: current)
        let seen = try params.departure.map {
            try input.time($0, param: "departure", timeZone: zone, day: current.schedule()[segment] ?? input.planDay(current))
        }
        let options = try await planner.alternatives(for: current, segment: segment, count: count)
        let option: RouteLeg
        if seen != nil || params.tripIds != nil {
            option = try await Self.seenOption(params, segment: segment, departure: seen, in: options, count: count, of: current, zone: zone,
                                            service: service)
        } else {
            guard options.indices.contains(params.option - 1) else {
                throw DaemonError.invalidParams("option \(params.option) does not exist: segment \(params.segment) has \(options.count)")
            }
            option = options[params.option - 1]
        }
        try Self.keepsThePins(around: segment, of: current, taking: option, number: params.segment, now: input.clock.now(),
                              words: PlanClockWords(zone: zone, planDay: input.planDay(current)))
        // The option the plan shows keeps the other legs, timed back from it when that leaves later.
        let chosen = try await planner.timingTheWayToAShownPinBack(try current.choosingAlternative(option, ofSegment: segment),
                                                                   segment: segment)
        // An option that is no drive leaves the car behind for the planner's drives after it.
        return Prepared(step: .change { plan in
            guard plan == current else { throw DaemonError.conflict("another edit changed the plan while choosing; nothing was changed, try again") }
            return chosen
        }, compute: service.legsLeavingTheCarBehind)
    }

    /// The option of `plan.choose` identified by its trips, else its departure (`Params.PlanChoose`):
    /// option N when it is that one, else the one in the list that is, else the one asked from
    /// that departure; `conflict` when none is (nothing changes).
    private static func seenOption(_ params: Params.PlanChoose, segment: Int, departure: Date?, in options: [RouteLeg], count: Int,
                                   of plan: RoutePlan, zone: TimeZone, service: PlanService) async throws -> RouteLeg {
        let planner = service.planner, input = service.input
        let words = PlanClockWords(zone: zone, planDay: input.planDay(plan))
        // The trips name a ride whatever the walk to it takes (an earlier pace edit changes when
        // the leg leaves the door); without them, the departure does.
        func isSeen(_ leg: RouteLeg) -> Bool {
            if let trips = params.tripIds { return trips == leg.tripIDs }
            return departure.map { time in leg.departure.map { abs($0.timeIntervalSince(time)) < 1 } ?? false } ?? false
        }
        let described = [departure.map { "leaving \(words.text($0))" },
                         params.tripIds.map { "on trips \($0.joined(separator: ", "))" }].compactMap { $0 }.joined(separator: " ")
        if options.indices.contains(params.option - 1), isSeen(options[params.option - 1]) { return options[params.option - 1] }
        if let found = options.first(where: isSeen) { return found }
        if let departure,
           let found = try await planner.alternatives(for: plan, segment: segment, count: count, at: departure).first(where: isSeen) {
            // Asked from the departure the user saw: an option leaving before the plan starts
            // (the plan's time moved past it since), or before the traveller can leave the
            // segment's start (a stay or an edit before it since), is no longer offered (the
            // rule `plan pin` refuses by: `RoutePlan.departureBeforeTheTraveller`).
            let before = found.departure.flatMap { plan.departureBeforeTheTraveller(segment: segment, at: $0, now: input.clock.now()) }
            switch before {
            case .beforeTheStart(let start)?:
                throw DaemonError.conflict("segment \(params.segment) has no option \(described) any more: it leaves before the plan "
                                           + "starts at \(words.text(start)); list the segment's options again (plan alternatives)")
            case .beforeTheyCanBeThere(let ready)?:
                throw DaemonError.conflict("segment \(params.segment) has no option \(described) any more: it leaves before the "
                                           + "traveller can leave \(plan.nodes[segment].place.name) at "
                                           + "\(words.text(ready)); list the segment's options again (plan alternatives)")
            case nil:
                break
            }
            return found
        }
        throw DaemonError.conflict("segment \(params.segment) has no option \(described) any more (option \(params.option) was listed so): "
                                   + "list the segment's options again (plan alternatives)")
    }

    /// `conflict` (nothing changes) when the traveller cannot take `option` and keep the pins
    /// around the segment (issue 39): it arrives too late to leave on the next pinned segment
    /// (through the legs between and their stays: a ride arriving 08:17 before a walk pinned to
    /// leave 08:10), or for an arrive-by plan's "arrive by" time (as a pin at the destination), or
    /// leaves before they can get to it from the pinned segment before. Judged on the plan's legs,
    /// not its start, so in an arrive-by plan too.
    private static func keepsThePins(around segment: Int, of plan: RoutePlan, taking option: RouteLeg, number: Int, now: Date,
                                     words: PlanClockWords) throws {
        func time(_ date: Date) -> String { words.text(date) }
        switch plan.pinConflict(takingLeg: option, forSegment: segment, now: now) {
        case .arrivesTooLate(let missed, let arrives)?:
            // As the plan shows the pin (a ride: when it leaves its stop), and the walk to its stop when it leaves earlier.
            let pin = plan.pin(ofSegment: missed.segment)
            // Said so that they differ: with seconds when two read the same minute.
            let said = words.texts([arrives, missed.ready] + (pin.map { [$0.shownDeparture, $0.departure] } ?? []))
            var pinned = "is pinned to leave at \(pin == nil ? "?" : said[2])"
            if let pin, time(pin.shownDeparture) != time(pin.departure) {
                pinned += ", the walk to its stop leaving at \(said[3])"
            }
            throw DaemonError.conflict("segment \(number)'s option arrives \(said[0]): the traveller can leave "
                                       + "\(plan.nodes[missed.segment].place.name) only at \(said[1]), after segment "
                                       + "\(missed.segment + 1) \(pinned); nothing was changed: choose an "
                                       + "option arriving in time, or unpin segment \(missed.segment + 1) first")
        case .arrivesAfterArriveBy(let late, let arrives)?:
            // Said so that they differ: with seconds when two read the same minute.
            let said = words.texts([arrives, late.reached, late.arriveBy])
            let reached = said[1] == said[0] ? "" : "the plan then ends at \(said[1]) at the earliest, "
            throw DaemonError.conflict("segment \(number)'s option arrives \(said[0]): \(reached)after the "
                                       + "\(said[2]) it must arrive by; nothing was changed: choose an option arriving "
                                       + "in time, or set a later time (plan time)")
        case .leavesTooEarly(let early, let leaves)?:
            let said = words.texts([leaves, early.ready])
            throw DaemonError.conflict("segment \(number)'s option leaves \(said[0]): coming from segment \(early.segment + 1), "
                                       + "pinned, the traveller can leave \(plan.nodes[segment].place.name) only at "
                                       + "\(said[1]); nothing was changed: choose an option leaving then or later")
        case nil:
            break
        }
    }
}
