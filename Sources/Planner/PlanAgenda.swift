import Foundation

/// One plan as a day's agenda shows it: when to leave, its first leg in words, when it arrives,
/// and what may be wrong with it (`AgendaState`, most serious first).
public struct PlanAgenda: Hashable, Sendable {
    /// What may be wrong with a plan, by these stable words (`agenda.day`'s `states`).
    /// Declared most serious first: a plan's states are listed in this order.
    public enum State: String, Hashable, Sendable, CaseIterable {
        /// A ride of the plan is cancelled (a realtime feed says so).
        case cancelled
        /// A fixed departure (a ride, a pin) leaves before the traveller can get there.
        case missedConnection = "missed_connection"
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
    /// "walk 6 min to Rautatieasema C, bus 6 at 08:12".
    public var firstLeg: String
    /// Most serious first; `[.onTime]` when nothing is wrong.
    public var states: [State]

    /// The agenda entry of `plan`, or nil when it has no time to leave (no leg has a time yet).
    /// - parameter now: "now" of a leave-now plan, and of its missed connections.
    /// - parameter outsideCoverage: the plan's day is outside its region's feed dates.
    public init?(_ plan: RoutePlan, timeZone: TimeZone, now: Date, outsideCoverage: Bool) {
        let fallback: Date? = plan.timePreference == .leaveNow ? now : nil
        guard let leave = plan.departureTimes(startingAt: fallback).first ?? nil else { return nil }
        self.leave = leave
        arrival = plan.schedule(startingAt: fallback).last ?? nil
        firstLeg = Self.words(plan, segment: 0, timeZone: timeZone)
        let rides = plan.legs.compactMap { $0 }.flatMap(\.rides)
        var states: [State] = []
        if rides.contains(where: \.cancelled) { states.append(.cancelled) }
        if plan.brokenConnection(now: now) != nil { states.append(.missedConnection) }
        if outsideCoverage { states.append(.outsideCoverage) }
        if rides.contains(where: { ride in
            !ride.cancelled && max(ride.boarding.delaySeconds ?? 0, ride.alighting.delaySeconds ?? 0) >= Self.delayThreshold
        }) { states.append(.delayed) }
        if !plan.pending.isEmpty { states.append(.pendingUpdate) }
        self.states = states.isEmpty ? [.onTime] : states
    }

    /// A segment in words: "walk 6 min to X", "drive 12 min to X", "walk 6 min to Rautatieasema C,
    /// bus 6 at 08:12" (a transit leg's walk to its first stop, then its first ride), or "no
    /// route to X yet" for a segment without a leg.
    public static func words(_ plan: RoutePlan, segment: Int, timeZone: TimeZone) -> String {
        let destination = plan.nodes[segment + 1].place.name
        guard let leg = plan.legs[segment] else { return "no route to \(destination) yet" }
        func minutes(_ seconds: TimeInterval) -> String { "\(max(1, Int((seconds / 60).rounded()))) min" }
        guard let ride = leg.rides.first else {
            return "\(leg.mode == .car ? "drive" : "walk") \(minutes(leg.expectedTravelTime)) to \(destination)"
        }
        let board = "\(ride.vehicle) \(ride.lineName) at \(clock(ride.boarding.time, timeZone: timeZone))"
        guard let access = leg.walks.first(where: { $0.kind == .access }), access.duration >= 30 else {
            return "\(board) from \(ride.boarding.name)"
        }
        return "walk \(minutes(access.duration)) to \(ride.boarding.name), \(board)"
    }

    /// `HH:MM` on the wall clock of `timeZone`.
    public static func clock(_ date: Date, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    /// `YYYY-MM-DD`: the date of `date` on the wall clock of `timeZone`.
    public static func day(_ date: Date, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
