import Foundation
import Streets
import Transit

/// A region's GTFS feeds by the names `status` shows them (`transit_feeds[].feed`, the file's
/// name), in import order: what a realtime feed is tied to (`region set --realtime FEED=URL`).
///
/// ```swift
/// let names = GTFSFeedNames(manifest)          // north.zip, south.zip, east.zip
/// try names.canonical("south")                // "south.zip"
/// names.tie(feed, to: "south.zip").gtfsFeed   // 1
/// ```
struct GTFSFeedNames: Sendable {
    let region: String
    /// Each feed's file name, in import order.
    let names: [String]

    init(_ manifest: RegionManifest) {
        region = manifest.name
        names = manifest.sources.filter { $0.role != "osm" }.map { URL(fileURLWithPath: $0.path).lastPathComponent }
    }

    /// The feeds (positions from 0) `given` names: its position from 1, its file name, or its
    /// file name without `.zip`.
    func positions(of given: String) -> [Int] {
        if !given.isEmpty, given.allSatisfy(\.isASCII), given.allSatisfy(\.isNumber), let number = Int(given) {
            return names.indices.contains(number - 1) ? [number - 1] : []
        }
        let exact = names.indices.filter { names[$0] == given }
        if !exact.isEmpty { return exact }
        return names.indices.filter { names[$0].hasSuffix(".zip") && String(names[$0].dropLast(4)) == given }
    }

    /// The name kept for a tie to `given`: the feed's file name, or its position when another
    /// feed has the same file name.
    /// - throws: `DaemonError.invalidParams` naming the region's feeds when `given` names none, or several.
    func canonical(_ given: String) throws -> String {
        guard !names.isEmpty else {
            throw DaemonError.invalidParams("region \(region) has no GTFS feed to tie the realtime feed \"\(given)=…\" to")
        }
        let found = positions(of: given)
        let listed = names.enumerated().map { "\($0.offset + 1) \($0.element)" }.joined(separator: ", ")
        switch found.count {
        case 0:
            throw DaemonError.invalidParams("region \(region) has no GTFS feed \"\(given)\"; its feeds: \(listed)")
        case 1:
            let name = names[found[0]]
            return names.filter { $0 == name }.count == 1 ? name : "\(found[0] + 1)"
        default:
            throw DaemonError.invalidParams("GTFS feeds \(found.map { "\($0 + 1)" }.joined(separator: " and ")) of region \(region) "
                                            + "are both named \"\(given)\": give the position instead; its feeds: \(listed)")
        }
    }

    /// `feed` with its `gtfsFeed` set to the position of the feed `name` keeps; a name the region
    /// no longer has (a re-import without that feed) ties it to no feed, so it applies nothing.
    func tie(_ feed: RealtimeFeed, to name: String?) -> RealtimeFeed {
        var tied = feed
        tied.gtfsFeed = name.map { name in
            let found = positions(of: name)
            return found.count == 1 ? found[0] : Int.max
        }
        return tied
    }
}

extension GTFSFeedNames {
    /// `states` with each feed tied to a name the region no longer has (a re-import without
    /// that feed) shown as `feed_missing`, its error naming the lost feed and the ones there are:
    /// it applies nothing (`tie`), and the user must be told rather than see it `live`.
    func markingLostTies(_ states: [RealtimeFeedState]) -> [RealtimeFeedState] {
        states.map { state in
            guard let name = state.gtfsFeed, positions(of: name).count != 1, state.condition == .live else { return state }
            var marked = state
            marked.condition = .feedMissing
            marked.tripUpdatesApplied = 0
            marked.tripsCancelled = 0
            marked.alertsApplied = 0
            marked.refused = [:]
            let listed = names.isEmpty ? "none" : names.joined(separator: ", ")
            marked.error = "region \(region) no longer has the GTFS feed \(name), so nothing of this feed applies "
                + "(its feeds: \(listed)); tie it again: umctl region set \(region) --realtime FEED=URL"
            return marked
        }
    }
}
