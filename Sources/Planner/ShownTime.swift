import Foundation

/// The display rule for the times and durations the daemon writes in words (agenda,
/// notifications, calendar descriptions), the same as `WireProtocol.ShownTime` that umctl uses
/// (the two modules share no code; `ShownTimeAgreementTests` holds them together): clock times
/// are floored to the minute, a duration between two shown times is their difference, a duration
/// alone is rounded (at least 1 min), and from an hour on it reads "1 h 47 min".
public enum ShownTime {
    /// The minute shown for an instant, counted from the epoch: its floor.
    public static func minute(_ date: Date) -> Int {
        Int((date.timeIntervalSince1970 / 60).rounded(.down))
    }

    /// Minutes between two instants as their shown times give them.
    public static func minutes(from start: Date, to end: Date) -> Int {
        minute(end) - minute(start)
    }

    /// Minutes of a duration read alone: rounded, at least 1 when positive.
    public static func minutes(_ seconds: TimeInterval) -> Int {
        seconds > 0 ? max(1, Int((seconds / 60).rounded())) : 0
    }

    /// "7 min", "1 h 47 min", "1 h 07 min".
    public static func text(minutes: Int) -> String {
        if minutes < 60 { return "\(minutes) min" }
        return "\(minutes / 60) h \(minutes % 60 < 10 ? "0" : "")\(minutes % 60) min"
    }

    /// A duration read alone, in words.
    public static func text(seconds: TimeInterval) -> String {
        text(minutes: minutes(seconds))
    }

    /// How late (or early) a ride is, without its sign: the delay rounded to the nearest minute
    /// in words, "6 min", "1 h 15 min" ("late by …", "delayed +…").
    public static func delay(seconds: Int) -> String {
        text(minutes: Int((Double(seconds.magnitude) / 60).rounded()))
    }

    /// The duration between two instants, as their shown times give it.
    /// Two shown times in one minute with whole seconds between them read "< 1 min", never
    /// "0 min" for a way that takes time.
    public static func text(from start: Date, to end: Date) -> String {
        let shown = max(0, minutes(from: start, to: end))
        if shown == 0, end.timeIntervalSince1970.rounded(.down) > start.timeIntervalSince1970.rounded(.down) { return "< 1 min" }
        return text(minutes: shown)
    }

    /// `HH:MM` on the wall clock of `timeZone`: the minute the instant falls in.
    public static func clock(_ date: Date, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }
}
