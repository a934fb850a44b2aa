import Foundation
import Synchronization

/// The service days of one timetable, built once per day and shared by the queries of that
/// day (building one lists every running trip). Thread-safe; keeps the most recent days.
final class ServiceDayCache: Sendable {
    /// Days kept: a query needs three, and most queries of a session share them.
    static let capacity = 8

    private let timetable: Timetable
    private struct Kept {
        var days: [Int: Raptor.ServiceDay] = [:]
        var order: [Int] = []
    }

    private let kept = Mutex(Kept())

    init(timetable: Timetable) {
        self.timetable = timetable
    }

    /// The previous, same and next service days around a local day (as `Raptor.serviceDays`);
    /// `reach` days each way for a search longer than a day.
    func around(_ day: Int, reach: Int = 1) -> [Raptor.ServiceDay] {
        (day - reach...day + reach).map(serviceDay)
    }

    private func serviceDay(_ day: Int) -> Raptor.ServiceDay {
        if let known = kept.withLock({ $0.days[day] }) { return known }
        let built = Raptor.ServiceDay(day: day, timetable: timetable) // outside the lock: other days go on
        kept.withLock { kept in
            if kept.days.updateValue(built, forKey: day) == nil { kept.order.append(day) }
            if kept.order.count > Self.capacity { kept.days[kept.order.removeFirst()] = nil }
        }
        return built
    }
}
