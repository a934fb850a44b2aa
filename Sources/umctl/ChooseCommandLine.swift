import WireProtocol

/// The `umctl plan choose` line that takes one option of `umctl plan alternatives` as the user
/// saw it: a transit option named by its departure and its rides' trips, so that the daemon
/// finds that option again though another edit (or a new timetable) has shifted the list.
/// A walk, bike or car option is named by its number alone: its place in the list (quickest,
/// then shortest) does not move, while its departure does.
///
/// ```swift
/// ChooseCommandLine.words(plan: 3, segment: 2, option: 1, count: nil, leg: leg)
/// // ["umctl", "plan", "choose", "3", "2", "1", "--departure", "2022-01-12T08:03:00+02:00", "--trip", "1001_…"]
/// ```
enum ChooseCommandLine {
    static func words(plan: Int64, segment: Int, option: Int, count: Int?, leg: LegDocument) -> [String] {
        var words = ["umctl", "plan", "choose", String(plan), String(segment), String(option)]
        if let count { words += ["--count", String(count)] }
        if !leg.rides.isEmpty, let departure = leg.departure { words += ["--departure", departure] }
        for trip in leg.rides.compactMap(\.tripID) { words += ["--trip", trip] }
        return words
    }

    /// `words` as one line a shell reads back word for word.
    static func text(plan: Int64, segment: Int, option: Int, count: Int?, leg: LegDocument) -> String {
        words(plan: plan, segment: segment, option: option, count: count, leg: leg).map(ShellWord.quoted).joined(separator: " ")
    }
}
