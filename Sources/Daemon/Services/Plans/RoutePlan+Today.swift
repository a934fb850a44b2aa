import Foundation
import Planner

extension RoutePlan {
    /// Whether the plan travels on the local day of `now` in `zone` ("leave now" always does).
    func travelsOnDay(of now: Date, in zone: TimeZone) -> Bool {
        switch timePreference {
        case .leaveNow: return true
        case .departAt(let time), .arriveBy(let time):
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            return calendar.isDate(time, inSameDayAs: now)
        }
    }
}
