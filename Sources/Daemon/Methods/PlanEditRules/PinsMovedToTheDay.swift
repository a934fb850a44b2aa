import Foundation
import Planner
import WireProtocol

/// A plan's pins moved with `plan time` to its new day (trial 56 finding 3): each to the same
/// clock time that many days later, by the pin-time rule (docs/planner.md "What a pin's time
/// means": the same line's ride leaving its stop in that minute, else its next one the traveller
/// can catch, said as `plan pin` says it); a pin with no such ride is dropped, and named. A pin
/// left on the old day would be a day "too late" and propose the same ride as the missed one.
struct PinsMovedToTheDay {
    var plan: RoutePlan
    var notes: [String]

    /// Nil when `timed` (the plan at its new time) is on the day `before` was, or has no pins.
    static func of(_ timed: RoutePlan, from before: RoutePlan, with service: PlanService) async throws -> PinsMovedToTheDay? {
        let input = service.input, zone = service.regions.timeZone(of: before)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let from = calendar.startOfDay(for: input.planDay(before)), to = calendar.startOfDay(for: input.planDay(timed))
        guard let days = calendar.dateComponents([.day], from: from, to: to).day, days != 0, !timed.pins.isEmpty else { return nil }
        let words = PlanClockWords(zone: zone, planDay: to)
        func day(_ date: Date) -> String { String(WireTime.string(from: date, timeZone: zone).prefix(10)) }
        var moved = PinsMovedToTheDay(plan: timed, notes: [])
        // Last segment first: taking a ride's stops changes no earlier segment.
        for index in timed.pinnedSegmentIndices.sorted(by: >) {
            guard let pin = moved.plan.pin(ofSegment: index),
                  let asked = calendar.date(byAdding: .day, value: days, to: pin.shownDeparture) else { continue }
            let line = pin.leg?.rides.first?.lineName
            let was = (pin.leg?.rides.first.map { "\($0.vehicle) \($0.lineName) " } ?? "")
                + "at \(ShownTime.clock(pin.shownDeparture, timeZone: zone)) on \(day(pin.shownDeparture))"
            do {
                if let line, moved.plan.modes[index] == .transit {
                    moved.plan = try await service.planner.pinning(moved.plan, segment: index, line: line, at: asked)
                } else {
                    moved.plan = try await service.planner.pinning(moved.plan, segment: index, at: asked)
                }
                moved.notes.append(Params.PlanPin.noRideThen(asked: asked, line: line, segment: index, number: index + 1,
                                                             in: moved.plan, words: words)
                                   ?? "segment \(index + 1): pin (\(was)) moved with the plan to \(words.text(asked)) on \(day(asked))")
            } catch let error where error is PlannerError || error is RoutingError {
                // Nothing to pin that day (no ride of the line, no service, outside the timetable).
                let why = (error as? RoutingError).map { " (\($0.message))" } ?? ""
                moved.plan = try moved.plan.unpinning(segment: index)
                moved.notes.append("segment \(index + 1): pin (\(was)) dropped: no \(line.map { "ride of line \($0)" } ?? "departure") found "
                                   + "leaving at \(ShownTime.clock(asked, timeZone: zone)) on \(day(asked)) or later\(why); pin one again (plan pin)")
            }
        }
        moved.notes.reverse()
        return moved
    }
}
