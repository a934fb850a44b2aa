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

    /// Times said together, each as `text` says it, or every one with its seconds ("09:33:40")
    /// when two different instants among them read the same minute: "the plan then ends at 09:33
    /// at the earliest, after the 09:33 it must arrive by" said nothing (trial 60 F10).
    func texts(_ dates: [Date]) -> [String] {
        let minutes = dates.map(text)
        let collide = dates.indices.contains { i in
            dates.indices.contains { j in i < j && minutes[i] == minutes[j] && dates[i] != dates[j] }
        }
        guard collide else { return minutes }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return dates.indices.map { index in
            let second = calendar.component(.second, from: dates[index])
            let clock = minutes[index]
            return clock.prefix(5) + String(format: ":%02d", second) + clock.dropFirst(5)
        }
    }
}
