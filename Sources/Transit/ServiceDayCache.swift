import Foundation

/// The service days of one timetable, built once per day and shared by the queries of that
/// day (building one lists every running trip). Thread-safe; keeps the most recent days.
final class ServiceDayCache: @unchecked Sendable {
    /// Days kept: a query needs three, and most queries of a session share them.
    static let capacity = 8

    private let timetable: Timetable
    private let lock = NSLock()
    private var days: [Int: Raptor.ServiceDay] = [:]
    private var order: [Int] = []

    init(timetable: Timetable) {
        self.timetable = timetable
    }

    /// The previous, same and next service days around a local day (as `Raptor.serviceDays`).
    func around(_ day: Int) -> [Raptor.ServiceDay] {
        (day - 1...day + 1).map(serviceDay)
    }

    private func serviceDay(_ day: Int) -> Raptor.ServiceDay {
        lock.lock()
        if let known = days[day] {
            lock.unlock()
            return known
        }
        lock.unlock()
        let built = Raptor.ServiceDay(day: day, timetable: timetable)
        lock.lock()
        defer { lock.unlock() }
        if days.updateValue(built, forKey: day) == nil { order.append(day) }
        if order.count > Self.capacity { days[order.removeFirst()] = nil }
        return built
    }
}
