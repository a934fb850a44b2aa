import Foundation
import Planner

/// How a plan edit's message names a time: as `plan show` does, `HH:MM` (the minute it falls
/// in, `ShownTime`), with " +1d" (" -1d" …) when its date is not the plan's day; never an ISO
/// timestamp with seconds in a sentence for people (trial 49 finding 10).
struct PlanClockWords {
    let zone: TimeZone
    /// The plan's day: the date on the region's wall clock of the plan's time.
    let planDay: Date

    func text(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let shift = calendar.dateComponents([.day], from: calendar.startOfDay(for: planDay), to: calendar.startOfDay(for: date)).day ?? 0
        let clock = ShownTime.clock(date, timeZone: zone)
        return shift == 0 ? clock : "\(clock) \(shift > 0 ? "+" : "-")\(abs(shift))d"
    }
}
