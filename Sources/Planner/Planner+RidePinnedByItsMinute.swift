import Foundation

extension Planner {
    /// The ride `plan pin SEG HH:MM` means on transit segment `index`: the one leaving its stop in
    /// the minute `time` falls in, as the plan shows a ride ("07:42 bus 6 … Tays C", "pinned to
    /// leave 07:42"). Read as when the traveller leaves the node, pinning the 07:42 the plan showed
    /// caught bus 28 at 07:51 after the walk to the stop (trial 55 finding 1). The ride the plan
    /// shows when it leaves in that minute (the same trip); else the first ride the traveller can
    /// catch leaving then or later (on the plan's lines, arriving first, of those in one minute;
    /// the caller says so when it leaves later). With `line`, only rides of that line count.
    /// - throws: `noDepartureOnLine` (with `line`) or `noLegToPin` when no ride leaves then or
    ///   later among `lineSearchWidth` options; as `alternatives`.
    func rideLeaving(inTheMinuteOf time: Date, segment index: Int, of plan: RoutePlan, line: String?) async throws -> RouteLeg {
        try plan.checkSegment(index)
        let minute = ShownTime.minute(time)
        // A leg without rides (an engine's walk-only answer) leaves when the traveller does.
        func boards(_ leg: RouteLeg) -> Int? { (leg.rides.first?.boarding.time ?? leg.departure).map(ShownTime.minute) }
        func onTheLine(_ ride: TransitRide) -> Bool { line.map { $0 == ride.lineName } ?? true }
        func ridesTheLine(_ leg: RouteLeg) -> Bool { line == nil || leg.rides.contains(where: onTheLine) }
        let shown = plan.legs[index]
        if let shown, boards(shown) == minute, ridesTheLine(shown) { return shown }
        // A later ride of the journey shown, leaving in that minute (of `line`, when given): the
        // journey shown is the one meant (trial 56: the bus 38 after the change, pinned at 09:42,
        // pinned bus 19 at 10:03 and arrived half an hour later).
        if let shown, shown.rides.dropFirst().contains(where: { ShownTime.minute($0.boarding.time) == minute && onTheLine($0) }) {
            return shown
        }
        // Asked from the node as early as the walk to the shown ride's stop takes, so that a ride
        // leaving that minute is among the options; the ones leaving before it are left out.
        let start = Date(timeIntervalSince1970: Double(minute) * 60)
        let walk = shown.flatMap { leg in leg.departure.flatMap { leaves in leg.rides.first.map { $0.boarding.time.timeIntervalSince(leaves) } } }
        // With `line`, its own journeys too, which another line may beat (`options(riding:)`).
        func ridesThenOrLater(askedAt asked: Date) async throws -> [RouteLeg] {
            let options = if let line { try await self.options(riding: line, for: plan, segment: index, at: asked) }
                else { try await alternatives(for: plan, segment: index, count: configuration.lineSearchWidth, at: asked, keepingBeaten: true) }
            return options.filter { ridesTheLine($0) && (boards($0) ?? .min) >= minute }
        }
        var options = try await ridesThenOrLater(askedAt: start.addingTimeInterval(-max(0, walk ?? 0)))
        if options.isEmpty, (walk ?? 0) > 0 { options = try await ridesThenOrLater(askedAt: start) }
        // The line's ride leaving then may be at a stop farther than the shown ride's (trial 60 F1:
        // bus 6 at 08:48 from Rautatieasema D, bus 29 from Frenckell shown): asked from earlier
        // too; the ones the traveller cannot catch rank last. Its trip may be caught sooner at a
        // nearer stop (bus 6 at 08:46 from Koskipuisto C): that ride is the one meant.
        let now = clock.now()
        if let line, !options.contains(where: { boards($0) == minute }) {
            var earlier: [RouteLeg] = []
            do {
                earlier = try await self.options(riding: line, for: plan, segment: index,
                                                 at: start.addingTimeInterval(-configuration.lineStopWalkAllowance))
            } catch is RoutingError {}
            options += earlier.filter { (boards($0) ?? .min) >= minute }
            for leg in earlier.reversed() where (boards(leg) ?? .max) < minute {
                guard let ride = leg.rides.first(where: onTheLine), ShownTime.minute(ride.boarding.time) < minute,
                      leg.departure.map({ plan.departureBeforeTheTraveller(segment: index, at: $0, now: now) == nil }) ?? true
                else { continue }
                let calls = await routing.calls(ofTripOf: ride)
                if calls.contains(where: { $0.canBoard && ShownTime.minute($0.departure) == minute
                                           && $0.departure > ride.boarding.time && $0.departure < ride.alighting.time }) {
                    return leg
                }
            }
        }
        // A ride the traveller can catch (none: the first, which the caller refuses), the
        // earliest, on the plan's lines, arriving first.
        let shownLines = shown?.rides.map(\.lineName)
        func rank(_ leg: RouteLeg) -> (Int, Int, Int, Date) {
            let catchable = leg.departure.map { plan.departureBeforeTheTraveller(segment: index, at: $0, now: now) == nil } ?? true
            return (catchable ? 0 : 1, boards(leg) ?? .max, leg.rides.map(\.lineName) == shownLines ? 0 : 1, leg.arrival ?? .distantFuture)
        }
        guard let ride = options.min(by: { rank($0) < rank($1) }) else {
            throw line.map { PlannerError.noDepartureOnLine(line: $0, segment: index) } ?? PlannerError.noLegToPin(segment: index)
        }
        return ride
    }
}
