import Foundation
import Planner

/// An arrival at or a departure from a fenced saved place, with the fix that decided it.
public struct VisitEntry: Sendable, Hashable {
    public enum Event: String, Sendable, Hashable, CaseIterable {
        case arrived, left
    }

    public var placeName: String
    public var event: Event
    public var fix: LocationFix
    /// When the daemon recorded it.
    public var date: Date

    public init(placeName: String, event: Event, fix: LocationFix, date: Date) {
        self.placeName = placeName
        self.event = event
        self.fix = fix
        self.date = date
    }
}
