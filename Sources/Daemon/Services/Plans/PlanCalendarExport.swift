import Foundation
import PlanCalendar
import Planner

/// Stored plans as calendar events (`plan.export` with format `ics`, and `plans.ics`): each leg
/// with times in its region's zone, UIDs that name this daemon's data directory (a hash of its
/// path), so that they stay the same across updates and never meet another daemon's.
struct PlanCalendarExport: Sendable {
    let regions: RegionRegistry
    /// `PlanCalendarEvents.stableHash` of the data directory's path.
    let source: String

    init(regions: RegionRegistry, dataDirectory: URL) {
        self.regions = regions
        source = PlanCalendarEvents.stableHash(dataDirectory.standardizedFileURL.path)
    }

    func events(_ outcome: PlanRepository.Outcome, now: Date) -> [CalendarEvent] {
        PlanCalendarEvents.events(of: outcome.plan, .init(id: outcome.id, generation: outcome.generation, source: source,
                                                         timeZone: regions.timeZone(of: outcome.plan)), now: now)
    }

    func text(_ outcome: PlanRepository.Outcome, now: Date) -> String {
        CalendarText.ics(events(outcome, now: now), stamp: now)
    }
}
