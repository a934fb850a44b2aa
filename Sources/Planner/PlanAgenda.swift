import Foundation

/// One plan as a day's agenda shows it: when to leave, its first leg in words, when it arrives,
/// and what may be wrong with it (`AgendaState`, most serious first).
public struct PlanAgenda: Hashable, Sendable {
    /// What may be wrong with a plan, by these stable words (`agenda.day`'s `states`).
    /// Declared most serious first: a plan's states are listed in this order.
    public enum State: String, Hashable, Sendable, CaseIterable {
        /// A segment has no route: the plan cannot be done as it stands.
        case incomplete
        /// A ride of the plan is cancelled (a realtime feed says so).
        case cancelled
        /// A ride's trip runs but does not stop where the plan boards or leaves it (a realtime
        /// feed skips the stop): not `cancelled`, the trip runs (trial 58 F6).
        case skipsStop = "skips_stop"
        /// A fixed departure (a ride, a pin) leaves before the traveller can get there.
        case missedConnection = "missed_connection"
        /// A pinned journey the traveller catches at its start is missed at a change a realtime
        /// delay broke (`RoutePlan.missedChanges`): the ride after it leaves before they are there.
        case missedChange = "missed_change"
        /// The day is outside the dates of the region's feed (`coverage_note`).
        case outsideCoverage = "outside_coverage"
        /// A ride runs `delayThreshold` or more late (live data, where a region has it).
        case delayed
        /// A recompute proposed a change the user has not accepted yet.
        case pendingUpdate = "pending_update"
        /// None of the above.
        case onTime = "on_time"
    }

    /// A ride this many seconds late (or more) makes the plan `delayed`.
    public static let delayThreshold = 60

    /// When the traveller leaves the origin (after any stay there).
    public var leave: Date
    public var arrival: Date?
    /// Days from the day it leaves to the day it arrives (1: arrives after midnight, "+1d").
    public var arrivalDays: Int
    /// "walk 6 min to Rautatieasema C, bus 6 at 08:12".
    public var firstLeg: String
    /// Most serious first; `[.onTime]` when nothing is wrong.
    public var states: [State]
    /// Each state in words, with what it is about: "incomplete: no route on segment 3",
    /// "missed connection on segment 2", "delayed +15 min", "pending update on segment 1", "on time".
    public var stateWords: [String]

    /// The agenda entry of `plan`, or nil when it has no time to leave (no leg has a time yet).
    /// - parameter now: "now" of a leave-now plan, and of its missed connections.
    /// - parameter outsideCoverage: the plan's day is outside its region's feed dates.
    public init?(_ plan: RoutePlan, timeZone: TimeZone, now: Date, outsideCoverage: Bool) {
        let fallback: Date? = plan.timePreference == .leaveNow ? now : nil
        guard let leave = plan.departureTimes(startingAt: fallback).first ?? nil else { return nil }
        self.leave = leave
        // A plan with a segment without a route has no arrival: its last time would be a guess.
        let missing = plan.legs.indices.filter { plan.legs[$0] == nil }
        arrival = missing.isEmpty ? plan.schedule(startingAt: fallback).last ?? nil : nil
        arrivalDays = arrival.map { Self.daysBetween(leave, $0, timeZone: timeZone) } ?? 0
        // The rides named are those the times belong to: a proposal's, where the plan is timed as it.
        let (timed, proposed) = Self.timedAsShown(plan, now: now)
        firstLeg = Self.words(timed, segment: 0, timeZone: timeZone)
        if timed.legs.first??.rides.isEmpty ?? true,
           let later = timed.legs.indices.dropFirst().first(where: { timed.legs[$0]?.rides.isEmpty == false }),
           let ride = timed.legs[later]?.rides.first {
            // The first leg walks (or drives) before the first ride: name that ride too, and its
            // segment when other segments come between ("then" would say it follows at once).
            let board = "\(ride.vehicle) \(ride.lineName) at \(Self.clock(ride.boarding.time, timeZone: timeZone))"
            let proposal = proposed.contains(later) ? "proposed" : nil
            firstLeg += later == 1 ? ", then \(board)" + (proposal.map { " (\($0))" } ?? "")
                : ", first ride \(board) (segment \(later + 1)" + (proposal.map { ", \($0)" } ?? "") + ")"
        } else if proposed.contains(0) {
            firstLeg += " (proposed)"
        }
        let rides = plan.legs.compactMap { $0 }.flatMap(\.rides)
        var states: [(State, String)] = []
        func segments(_ indices: [Int]) -> String {
            (indices.count == 1 ? "segment " : "segments ") + indices.map { String($0 + 1) }.joined(separator: ", ")
        }
        if !missing.isEmpty { states.append((.incomplete, "incomplete: no route on \(segments(missing))")) }
        if rides.contains(where: { $0.cancelled && $0.skippedCall == nil }) { states.append((.cancelled, "cancelled")) }
        if let skipping = rides.first(where: { $0.cancelled && $0.skippedCall != nil }), let stop = skipping.skippedStopName {
            states.append((.skipsStop, "\(skipping.vehicle) \(skipping.lineName) does not stop at \(stop)"))
        }
        // Each segment shown missed, at its start or at a change (the first of each kind named).
        let changes = plan.missedChanges(now: now)
        let broken = plan.brokenConnections(now: now)
        if let missed = broken.first(where: { changes[$0] == nil }) {
            states.append((.missedConnection, "missed connection on segment \(missed + 1)"))
        }
        if let missed = broken.first(where: { changes[$0] != nil }), let change = changes[missed],
           let ride = plan.legs[missed]?.rides[change.ride] {
            states.append((.missedChange, "missed change at \(ride.boarding.name) on segment \(missed + 1)"))
        }
        if outsideCoverage { states.append((.outsideCoverage, "outside coverage")) }
        let delay = rides.filter { !$0.cancelled }
            .map { max($0.boarding.delaySeconds ?? 0, $0.alighting.delaySeconds ?? 0) }.max() ?? 0
        if delay >= Self.delayThreshold { states.append((.delayed, "delayed +\(ShownTime.delay(seconds: delay))")) }
        let pending = plan.segmentKeys.indices.filter { plan.pending[plan.segmentKeys[$0]] != nil }
        if !plan.pending.isEmpty { states.append((.pendingUpdate, pending.isEmpty ? "pending update" : "pending update on \(segments(pending))")) }
        if states.isEmpty { states.append((.onTime, "on time")) }
        self.states = states.map(\.0)
        stateWords = states.map(\.1)
    }

    /// `plan` with the proposal of each segment that is missed, late or cancelled in place of
    /// its leg, and those segments: the plan's times are the proposal's there (a node after a
    /// missed pin shows the proposal's arrival, a broken change leaves when the proposal does), so
    /// the agenda names the proposal's ride beside them (trial 60 F10: it named the pinned bus 19
    /// at 09:53 under times that leave 09:45 for bus 7).
    static func timedAsShown(_ plan: RoutePlan, now: Date) -> (plan: RoutePlan, proposed: Set<Int>) {
        guard !plan.pending.isEmpty else { return (plan, []) }
        let failing = Set(plan.brokenConnections(now: now)).union(plan.legs.indices.filter { plan.legs[$0]?.hasCancelledRide == true })
        var timed = plan
        var proposed: Set<Int> = []
        for index in failing.sorted() {
            guard let proposal = plan.pendingUpdate(ofSegment: index)?.latest, !proposal.rides.isEmpty else { continue }
            timed.legs[index] = proposal
            proposed.insert(index)
        }
        return (timed, proposed)
    }

    /// Calendar days from `start` to `end` on the wall clock of `timeZone`.
    static func daysBetween(_ start: Date, _ end: Date, timeZone: TimeZone) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.dateComponents([.day], from: calendar.startOfDay(for: start), to: calendar.startOfDay(for: end)).day ?? 0
    }

    /// A segment in words: "walk 6 min to X", "drive 12 min to X", "walk 6 min to Rautatieasema C,
    /// bus 6 at 08:12" (a transit leg's walk to its first stop, then its first ride), or "no
    /// route to X yet" for a segment without a leg.
    public static func words(_ plan: RoutePlan, segment: Int, timeZone: TimeZone) -> String {
        let destination = plan.nodes[segment + 1].place.name
        guard let leg = plan.legs[segment] else { return "no route to \(destination) yet" }
        guard let ride = leg.rides.first else {
            // A walk or drive has its times from the plan's schedule (its leg holds none).
            let takes = if let departure = leg.departure ?? plan.departureTimes()[segment],
                           let arrival = leg.arrival ?? plan.schedule()[segment + 1] {
                ShownTime.text(from: departure, to: arrival)
            } else {
                duration(leg.expectedTravelTime)
            }
            return "\(leg.mode == .car ? "drive" : "walk") \(takes) to \(destination)"
        }
        let board = "\(ride.vehicle) \(ride.lineName) at \(clock(ride.boarding.time, timeZone: timeZone))"
        guard let access = leg.walks.first(where: { $0.kind == .access }), access.duration >= 30 else {
            return "\(board) from \(ride.boarding.name)"
        }
        // Beside the clock times it stands between, a duration is their shown difference, as `plan show`
        // says it (docs/planner.md, "How times and durations read"): 08:10 → 08:14 for 198 s from 08:10:42.
        return "walk \(ShownTime.text(from: access.start, to: access.start.addingTimeInterval(access.duration))) to \(ride.boarding.name), \(board)"
    }

    /// A duration in whole minutes, at least 1: "7 min", "1 h 47 min" (and "1 h 07 min") from an hour on.
    public static func duration(_ seconds: TimeInterval) -> String {
        ShownTime.text(minutes: max(1, ShownTime.minutes(seconds)))
    }

    /// `HH:MM` on the wall clock of `timeZone`.
    public static func clock(_ date: Date, timeZone: TimeZone) -> String {
        ShownTime.clock(date, timeZone: timeZone)
    }

    /// `YYYY-MM-DD`: the date of `date` on the wall clock of `timeZone`.
    public static func day(_ date: Date, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
