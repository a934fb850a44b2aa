/// One entry of `region.set`'s `realtime` list: a GTFS-Realtime source ("https://…/trips.pb", or
/// an absolute file path), alone or tied to one of the region's GTFS feeds ("south=https://…",
/// the feed as `transit_feeds` names it, its name without `.zip`, or its position from 1).
///
/// ```swift
/// RealtimeFeedEntry.split("south=https://rt.example/trips.pb")  // ("south", "https://rt.example/trips.pb")
/// RealtimeFeedEntry.split("https://rt.example/trips.pb?key=1")   // (nil, "https://rt.example/trips.pb?key=1")
/// ```
public enum RealtimeFeedEntry {
    /// The tie and the source. The text before the first `=` is a feed's name only when it holds no
    /// `/` and no `:`, so a URL's query (`?key=1`) or a path with `=` in it stays a bare source.
    public static func split(_ entry: String) -> (gtfsFeed: String?, source: String) {
        guard let equals = entry.firstIndex(of: "=") else { return (nil, entry) }
        let name = entry[..<equals]
        guard !name.isEmpty, !name.contains("/"), !name.contains(":") else { return (nil, entry) }
        return (String(name), String(entry[entry.index(after: equals)...]))
    }

    /// The entry `split` reads back.
    public static func joined(gtfsFeed: String?, source: String) -> String {
        gtfsFeed.map { "\($0)=\(source)" } ?? source
    }
}
