import Foundation
import Planner

/// One search the user made (or a place typed as text into a trip), and the place they
/// picked from its results, if any, with the region that found it (nil before schema 4).
public struct SearchHistoryEntry: Sendable, Hashable, Codable, Identifiable {
    public var query: String
    public var place: Place?
    public var date: Date
    public var region: String?

    public init(query: String, place: Place? = nil, date: Date, region: String? = nil) {
        self.query = query
        self.place = place
        self.date = date
        self.region = region
    }

    /// What de-duplicates history: the query text and the place picked for it. Different
    /// texts that found the same place stay separate entries; the same text again moves to the front.
    public var id: String { "query:\(query)" + (place.map { "|place:\($0.id)" } ?? "") }
}
