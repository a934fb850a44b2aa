import Foundation
import Planner
import WireProtocol

/// `plan.alternatives` and `plan.copy`: the options of a segment (`plan.choose`, an edit, takes
/// one; the edits are all `PlanEditMethods`'), and a copy of a plan to edit.
struct DayPlanMethods: Sendable {
    let edits: PlanEditMethods
    /// Told of each copy, so that a copy of a plan owed a refresh is refreshed too.
    let refresher: BackgroundRefresher

    private var service: PlanService { edits.service }

    func register(in table: inout MethodTable) {
        table.register(Endpoints.planAlternatives) { params, _ in
            let listed = try await service.alternatives(id: params.id, segment: params.segment, count: params.count)
            let zone = listed.timeZone
            return AlternativesDocument(id: params.id, segment: params.segment, mode: WireMode(listed.plan.modes[listed.segment]),
                                        time: listed.time.map { WireTime.string(from: $0, timeZone: zone) },
                                        timeZone: WireTime.zoneName(zone),
                                        options: listed.options.map { WireDocuments.leg($0, timeZone: zone, departure: listed.time) },
                                        day: String(WireTime.string(from: service.input.planDay(listed.plan), timeZone: zone).prefix(10)))
        }
        table.register(Endpoints.planCopy) { params, _ in
            let owed = await refresher.isOwed(params.id)
            let copy = try await service.copy(id: params.id, title: params.title, expectedGeneration: params.expectedGeneration)
            await refresher.planCopied(from: params.id, as: copy.id, wasOwed: owed)
            return edits.document(copy)
        }
    }
}
