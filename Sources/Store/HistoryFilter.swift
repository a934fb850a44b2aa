import Foundation
import Planner

/// Which history entries a query wants. Every given condition must hold; text matches are
/// case-insensitive substrings. A pure value: the store reads the (at most 20) entries and keeps
/// those that match, newest first, at most `limit`.
public struct HistoryFilter: Sendable, Hashable {
    /// In the text the user typed (a search's query; a route's typed places or its place names).
    public var text: String?
    /// In the name of the place picked (a search's place; any place of a route).
    public var place: String?
    /// A route whose answer or plan has this mode (never matches a search).
    public var mode: TravelMode?
    /// Recorded at or after `since` and before `until`.
    public var since: Date?
    public var until: Date?
    public var limit: Int

    public init(text: String? = nil, place: String? = nil, mode: TravelMode? = nil, since: Date? = nil, until: Date? = nil,
                limit: Int = Store.historyLimit) {
        self.text = text
        self.place = place
        self.mode = mode
        self.since = since
        self.until = until
        self.limit = limit
    }

    public func matches(_ entry: SearchHistoryEntry) -> Bool {
        mode == nil && inTime(entry.date) && contains([entry.query], text) && contains([entry.place?.name], place)
    }

    public func matches(_ entry: RouteHistoryEntry) -> Bool {
        let modes = Set(entry.modes + (entry.answers ?? []).filter { $0.durationS != nil }.map(\.mode))
        return inTime(entry.date) && mode.map(modes.contains) != false
            && contains([entry.fromText, entry.toText] + (entry.plan?.viaTexts ?? []) + entry.places.map(\.name), text)
            && contains(entry.places.map(\.name), place)
    }

    private func inTime(_ date: Date) -> Bool {
        since.map { date >= $0 } != false && until.map { date < $0 } != false
    }

    private func contains(_ fields: [String?], _ needle: String?) -> Bool {
        guard let needle, !needle.isEmpty else { return true }
        return fields.contains { $0?.range(of: needle, options: [.caseInsensitive, .diacriticInsensitive]) != nil }
    }
}
