import Foundation
import Planner
import Transit

extension RegionRegistry {
    /// Why a plan with a transit segment has no timetable on its day, in words ("2022-04-02 is
    /// after the Tampere timetable ends (2022-03-31)"); nil when its region's feeds cover the day,
    /// the plan has no transit segment, or it is in no one region. Its day is the service day of
    /// the time it departs or arrives at (of `now` for a plan that leaves now), in the region's zone.
    func coverageNote(for plan: RoutePlan, now: Date) -> String? {
        guard plan.modes.contains(.transit), let region = try? planRegion(through: plan.nodes.map(\.place)),
              let report = region.importReport() else { return nil }
        let day: Date = switch plan.timePreference {
        case .leaveNow: now
        case .departAt(let date), .arriveBy(let date): date
        }
        return report.servicePeriods.outsideCoverageNote(onDayOf: day, in: region.timeZone, region: region.name)
    }
}
