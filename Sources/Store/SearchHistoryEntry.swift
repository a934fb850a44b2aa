import Foundation
import Planner

/// One search the user made, and the place they picked from its results, if any.
public struct SearchHistoryEntry: Sendable, Hashable, Codable, Identifiable {
    public var query: String
    public var place: Place?
    public var date: Date

    public init(query: String, place: Place? = nil, date: Date) {
        self.query = query
        self.place = place
        self.date = date
    }

    /// What de-duplicates history: the chosen place's id, or the query text when nothing was
    /// chosen. Recording an entry with an existing id moves it to the front.
    public var id: String { place.map { "place:\($0.id)" } ?? "query:\(query)" }
}
