import Foundation
import Planner

/// The agenda of a day: every stored plan that leaves on it (`PlanAgenda`), in order of leaving.
struct PlanAgendaService: Sendable {
    let plans: PlanRepository
    let regions: RegionRegistry
    let clock: any WallClock

    /// One plan of the day, with its agenda read in the zone of its region.
    struct Entry: Sendable {
        var plan: PlanRepository.Outcome
        var agenda: PlanAgenda
        /// `YYYY-MM-DD`, in `timeZone`.
        var day: String
        var timeZone: TimeZone
    }

    /// The words a day may be asked by, as days from today (as `history --since` takes them).
    static let relativeDays = ["today": 0, "tomorrow": 1, "yesterday": -1]

    /// The plans leaving on `day` (`YYYY-MM-DD` or a word of `relativeDays`, each plan's today
    /// when nil; a word is read in each plan's zone), the one leaving first first.
    func plans(leavingOn day: String?) async throws -> [Entry] {
        let offset = day.flatMap { Self.relativeDays[$0] }
        let now = clock.now()
        var entries: [Entry] = []
        for outcome in try await plans.showAll() {
            let zone = regions.timeZone(of: outcome.plan)
            guard let agenda = PlanAgenda(outcome.plan, timeZone: zone, now: now,
                                          outsideCoverage: regions.coverageNote(for: outcome.plan, now: now) != nil) else { continue }
            let leaves = PlanAgenda.day(agenda.leave, timeZone: zone)
            guard leaves == (offset.map { Self.day(now, plus: $0, timeZone: zone) } ?? day ?? PlanAgenda.day(now, timeZone: zone)) else {
                continue
            }
            entries.append(Entry(plan: outcome, agenda: agenda, day: leaves, timeZone: zone))
        }
        return entries.sorted { ($0.agenda.leave, $0.plan.id) < ($1.agenda.leave, $1.plan.id) }
    }

    /// The date `days` after `now`'s, on the wall clock of `timeZone`.
    static func day(_ now: Date, plus days: Int, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return PlanAgenda.day(calendar.date(byAdding: .day, value: days, to: now) ?? now, timeZone: timeZone)
    }

    /// A day as `YYYY-MM-DD` (a real date of the Gregorian calendar), or `today`, `tomorrow`, `yesterday`.
    /// - throws: `DaemonError.invalidParams` for anything else.
    static func checkedDay(_ text: String) throws -> String {
        if relativeDays[text] != nil { return text }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let bad = DaemonError.invalidParams("day \"\(text)\" must be a date YYYY-MM-DD, today, tomorrow or yesterday")
        guard text.utf8.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { throw bad }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard DateComponents(calendar: calendar, year: year, month: month, day: day).isValidDate else { throw bad }
        return text
    }
}
