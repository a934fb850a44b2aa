import Foundation
import Planner
import WireProtocol

/// Reads what a person typed into a request (times, 1-based numbers) as domain
/// values, with an `invalid_params` error naming the param when it cannot.
struct WireInput: Sendable {
    let clock: any WallClock

    /// Reads a time in `timeZone`.
    /// - parameter day: the day a bare `HH:MM` falls on (default today).
    func time(_ text: String, param: String, timeZone: TimeZone, day: Date? = nil) throws -> Date {
        guard let date = WireTime.parse(text, timeZone: timeZone, now: day ?? clock.now()) else {
            throw DaemonError.invalidParams("\(param) \"\(text)\" is not a time: use HH:MM or ISO 8601 (2022-01-12T08:15, 2022-01-12T08:15+02:00)")
        }
        return date
    }

    /// `time`, where a bare `HH:MM` is the next such time after `after` (issue 39 item 6): on
    /// the day of `after` when it is not before the minute `after` is shown in, else the day after
    /// ("until 00:40" on a node reached at 23:58, or at 00:58, ends at the next 00:40). A date
    /// given is taken as is.
    func nextTime(_ text: String, param: String, timeZone: TimeZone, after: Date) throws -> Date {
        let date = try time(text, param: param, timeZone: timeZone, day: after)
        // The minute shown for `after` (its floor, the `ShownTime` rule): "until 10:05" on a node
        // shown reached at 10:05 (10:05:30) means then, not tomorrow.
        let shownMinute = Date(timeIntervalSince1970: (after.timeIntervalSince1970 / 60).rounded(.down) * 60)
        guard WireTime.isClock(text), date < shownMinute else { return date }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.date(byAdding: .day, value: 1, to: date) ?? date.addingTimeInterval(86_400)
    }

    /// `at` / `arrive_by` / neither (leave now); both is an error.
    func timePreference(at: String?, arriveBy: String?, timeZone: TimeZone, day: Date? = nil) throws -> TimePreference {
        switch (at, arriveBy) {
        case (nil, nil): return .leaveNow
        case (let at?, nil): return .departAt(try time(at, param: "at", timeZone: timeZone, day: day))
        case (nil, let by?): return .arriveBy(try time(by, param: "arrive_by", timeZone: timeZone, day: day))
        case (.some, .some): throw DaemonError.invalidParams("give either at or arrive_by, not both")
        }
    }

    /// The day a bare `HH:MM` in an edit of `plan` refers to: the date of its `at`/`arrive_by`, so
    /// that editing a plan for another day does not jump to today. A plan that leaves now is for today.
    func planDay(_ plan: RoutePlan) -> Date {
        switch plan.timePreference {
        case .departAt(let date), .arriveBy(let date): date
        case .leaveNow: clock.now()
        }
    }

    /// `compare`'s `modes`: at least one, none twice; answered in `Planner.comparedModes` order.
    func comparedModes(_ words: [WireMode]?) throws -> [TravelMode] {
        guard let words else { return Planner.comparedModes }
        let modes = words.map(TravelMode.init)
        guard !modes.isEmpty, Set(modes).count == modes.count else {
            throw DaemonError.invalidParams("modes must name at least one mode, each once")
        }
        return Planner.comparedModes.filter(modes.contains)
    }

    /// A 1-based segment number from the wire as a 0-based index, checked against the plan.
    func segmentIndex(_ number: Int, in plan: RoutePlan) throws -> Int {
        guard (1...plan.segmentCount).contains(number) else {
            throw DaemonError.invalidParams("segment \(number) does not exist: plan has segments 1 to \(plan.segmentCount)")
        }
        return number - 1
    }

    func nodeIndex(_ number: Int, in plan: RoutePlan) throws -> Int {
        guard (1...plan.nodes.count).contains(number) else {
            throw DaemonError.invalidParams("node \(number) does not exist: plan has nodes 1 to \(plan.nodes.count)")
        }
        return number - 1
    }
}
