import Foundation
import Planner

/// A clock that starts at a chosen instant and then runs at the real pace (`--clock-start`):
/// with it, an old timetable can be replayed as if today were one of its days.
public struct StartedClock: WallClock {
    public let start: Date
    private let realStart: Date

    public init(start: Date, realStart: Date = Date()) {
        self.start = start
        self.realStart = realStart
    }

    public func now() -> Date { start.addingTimeInterval(Date().timeIntervalSince(realStart)) }
}
