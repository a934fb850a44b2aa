import Foundation

/// How a segment shown missed (`RoutePlan.brokenConnections`) is named, judged once by the
/// daemon and printed by every client (the wire's `missed_as`): `late` when it arrives after it
/// is due (an arrive-by plan's, with a `lateConnectionDues` time), else `missed` (it leaves
/// before the traveller can be there; in an arrive-by plan, one a stay "until" makes missed).
/// Judged in three places before (daemon, umctl, web page), the three could disagree.
public enum BrokenConnection: String, Sendable {
    case missed, late

    /// `late` with a due (when the traveller must be at the segment's end), else `missed`.
    public init(due: Date?) { self = due == nil ? .missed : .late }
}
