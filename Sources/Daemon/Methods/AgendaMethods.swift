import Foundation
import Planner
import WireProtocol

/// `agenda.day`: every stored plan that leaves on a day (`PlanAgendaService`), in order of leaving.
struct AgendaMethods: Sendable {
    let agenda: PlanAgendaService

    func register(in table: inout MethodTable) {
        table.register(Endpoints.agendaDay) { params, _ in
            let asked = try params.day.map(PlanAgendaService.checkedDay)
            return AgendaDocument(day: asked, plans: try await agenda.plans(leavingOn: asked).map(Self.document))
        }
    }

    private static func document(_ entry: PlanAgendaService.Entry) -> AgendaEntryDocument {
        let agenda = entry.agenda, outcome = entry.plan
        func wire(_ date: Date) -> String { WireTime.string(from: date, timeZone: entry.timeZone) }
        return AgendaEntryDocument(
            id: outcome.id, title: outcome.title, day: entry.day, leave: wire(agenda.leave), arrival: agenda.arrival.map(wire),
            arrivalDays: agenda.arrivalDays, firstLeg: agenda.firstLeg, states: agenda.states.map(\.rawValue),
            stateWords: agenda.stateWords, generation: outcome.generation, timeZone: WireTime.zoneName(entry.timeZone))
    }
}
