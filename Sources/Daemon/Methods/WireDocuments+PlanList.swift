import Foundation
import Planner
import Store
import WireProtocol

extension WireDocuments {
    /// One row of `plan.list`: the travel day in the plan's region's zone (as the agenda counts
    /// it), and the total's two ends as `plan.show` gives them (a leave-now plan with no time of
    /// its own starts `now`, as `plan.show` times it), so that umctl shows their difference.
    static func planSummary(_ summary: PlanSummary, regions: RegionRegistry, now: Date) -> PlanSummaryDocument {
        let origin = summary.origin.map { Place(name: summary.fromName, coordinate: $0) }
        let zone = origin.map { regions.timeZone(from: $0, to: $0) } ?? TimeZone.current
        let start = summary.startsAt ?? (summary.travelAt == nil ? now : nil)
        let ends = summary.totalTravelTime.flatMap { total in start.map { ($0, $0.addingTimeInterval(total)) } }
        return PlanSummaryDocument(id: summary.id, title: summary.title, from: summary.fromName, to: summary.toName,
                                   updatedAt: WireTime.string(from: summary.updatedAt, timeZone: TimeZone.current),
                                   totalDurationS: summary.totalTravelTime.map(whole),
                                   day: summary.travelAt.map { PlanAgenda.day($0, timeZone: zone) },
                                   departure: ends.map { WireTime.string(from: $0.0, timeZone: zone) },
                                   arrival: ends.map { WireTime.string(from: $0.1, timeZone: zone) })
    }
}
