import Foundation

/// When the user wants to travel.
public enum TimePreference: Hashable, Sendable, Codable {
    case leaveNow
    case departAt(Date)
    case arriveBy(Date)
}
