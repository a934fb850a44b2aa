import FoundationEssentials

/// The one rule for the times and durations a person reads (umctl; the daemon's agenda,
/// notifications and calendar follow `Planner.ShownTime`, which `ShownTimeAgreementTests` holds
/// to this one):
///
/// - A clock time is the minute it falls in, as a station clock shows it: 10:02:40 reads 10:02.
///   Flooring keeps order, so a 10:02:40 arrival before a 10:03 departure reads 10:02 → 10:03,
///   never as a chain that cannot be made.
/// - A duration between two shown times is their difference in whole minutes (08:02:09 →
///   08:11:45 reads 08:02, 08:11, 9 min), so what is shown always adds up.
/// - A duration with no times beside it (a walk, a stay, a reminder lead) is rounded to the
///   nearest minute, and a positive one reads at least 1 min.
/// - Two shown times in the same minute with seconds between them read "< 1 min" (a 51 m walk
///   from 10:02:05 to 10:02:50), never "0 min" for a way that takes time.
/// - From 60 minutes on a duration reads "1 h 47 min" (and "1 h 07 min").
public enum ShownTime {
    /// The minute shown for an instant, counted from the epoch: its floor.
    public static func minute(_ epochSeconds: Double) -> Int {
        Int((epochSeconds / 60).rounded(.down))
    }

    /// Minutes between two instants as their shown times give them.
    public static func minutes(from start: Double, to end: Double) -> Int {
        minute(end) - minute(start)
    }

    /// Minutes of a duration read alone: rounded, at least 1 when positive.
    public static func minutes(_ seconds: Double) -> Int {
        seconds > 0 ? max(1, Int((seconds / 60).rounded())) : 0
    }

    /// "7 min", "1 h 47 min", "1 h 07 min".
    public static func text(minutes: Int) -> String {
        if minutes < 60 { return "\(minutes) min" }
        return "\(minutes / 60) h \(minutes % 60 < 10 ? "0" : "")\(minutes % 60) min"
    }

    /// A duration read alone, in words.
    public static func text(seconds: Double) -> String {
        text(minutes: minutes(seconds))
    }

    /// The duration between two instants the daemon wrote, as their shown times give it; nil
    /// when either cannot be read.
    public static func text(from start: String?, to end: String?) -> String? {
        guard let start, let end, let from = WireTime.date(from: start), let to = WireTime.date(from: end) else { return nil }
        return text(from: from.timeIntervalSince1970, to: to.timeIntervalSince1970)
    }

    /// The duration between two instants (seconds since the epoch), as their shown times give it.
    public static func text(from start: Double, to end: Double) -> String {
        let shown = max(0, minutes(from: start, to: end))
        if shown == 0, end.rounded(.down) > start.rounded(.down) { return lessThanAMinute }
        return text(minutes: shown)
    }

    /// Two shown times in one minute with whole seconds between them.
    public static let lessThanAMinute = "< 1 min"
}
