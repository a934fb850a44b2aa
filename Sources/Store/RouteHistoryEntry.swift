import Foundation
import Planner

/// One route the user asked for: where from, where to, the modes of its segments, and when.
public struct RouteHistoryEntry: Sendable, Hashable, Codable, Identifiable {
    public var from: Place
    public var to: Place
    public var modes: [TravelMode]
    public var date: Date

    public init(from: Place, to: Place, modes: [TravelMode], date: Date) {
        self.from = from
        self.to = to
        self.modes = modes
        self.date = date
    }

    /// What de-duplicates history: the two ends. Asking for the same trip again (with any
    /// modes) moves it to the front with the new modes and date.
    public var id: String { "\(from.id) → \(to.id)" }
}
