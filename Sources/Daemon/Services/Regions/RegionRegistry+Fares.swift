import Foundation
import Planner

extension RegionRegistry {
    /// `plan`'s price with all its rides priced together by its region's fares (a ticket bought
    /// on one segment covers the next while its zones and time allow), as the traveller can
    /// travel it at `now`: a segment shown missed is priced as its proposal, or not at all
    /// (`RoutePlan.pricedSegment`). Nil when the plan has no ride or its region or timetable
    /// cannot be opened (the legs' own prices then stand).
    func price(of plan: RoutePlan, now: Date) -> PlanPrice? {
        let missed = Set(plan.brokenConnections(now: now))
        let rides = plan.transitRides(missed: missed)
        guard !rides.isEmpty, let region = try? planRegion(through: plan.nodes.map(\.place)),
              let source = try? region.legSource(for: .transit), let tickets = source.tickets(for: rides) else { return nil }
        return plan.price(tickets: tickets, timeZone: region.timeZone, missed: missed)
    }
}
