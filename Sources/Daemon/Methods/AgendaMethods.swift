import Foundation
import Planner
import WireProtocol

/// `agenda.day`: every stored plan that leaves on a day (`PlanAgenda`), in order of leaving.
struct AgendaMethods: Sendable {
    let plans: PlanRepository
    let regions: RegionRegistry
    let input: WireInput

    func register(in table: inout MethodTable) {
        table.register(Endpoints.agendaDay) { params, _ in
            let asked = try params.day.map(Self.day)
            let offset = params.day.flatMap { Self.relativeDays[$0] }
            let now = input.clock.now()
            var entries: [(leave: Date, document: AgendaEntryDocument)] = []
            for outcome in try await plans.showAll() {
                let zone = regions.timeZone(of: outcome.plan)
                guard let agenda = PlanAgenda(outcome.plan, timeZone: zone, now: now,
                                              outsideCoverage: regions.coverageNote(for: outcome.plan, now: now) != nil) else { continue }
                let day = PlanAgenda.day(agenda.leave, timeZone: zone)
                guard day == (offset.map { Self.day(now, plus: $0, timeZone: zone) } ?? asked ?? PlanAgenda.day(now, timeZone: zone)) else {
                    continue
                }
                func wire(_ date: Date) -> String { WireTime.string(from: date, timeZone: zone) }
                entries.append((agenda.leave, AgendaEntryDocument(
                    id: outcome.id, title: outcome.title, day: day, leave: wire(agenda.leave), arrival: agenda.arrival.map(wire),
                    arrivalDays: agenda.arrivalDays, firstLeg: agenda.firstLeg, states: agenda.states.map(\.rawValue),
                    stateWords: agenda.stateWords, generation: outcome.generation,
                    timeZone: WireTime.zoneName(zone))))
            }
            entries.sort { ($0.leave, $0.document.id) < ($1.leave, $1.document.id) }
            return AgendaDocument(day: asked, plans: entries.map(\.document))
        }
    }

    /// The words a day may be asked by, as days from today (as `history --since` takes them).
    static let relativeDays = ["today": 0, "tomorrow": 1, "yesterday": -1]

    /// The date `days` after `now`'s, on the wall clock of `timeZone`.
    static func day(_ now: Date, plus days: Int, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return PlanAgenda.day(calendar.date(byAdding: .day, value: days, to: now) ?? now, timeZone: timeZone)
    }

    /// A day as `YYYY-MM-DD` (a real date of the Gregorian calendar), or `today`, `tomorrow`, `yesterday`.
    static func day(_ text: String) throws -> String {
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
