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

    static func document(_ conflict: RoutePlan.PinConflict, option: Int, plan: RoutePlan, timeZone zone: TimeZone) -> PinConflictDocument {
        func time(_ date: Date) -> String { WireTime.string(from: date, timeZone: zone) }
        // A pin is shown leaving as `pins` has it (a ride: when it leaves its stop); the walk to
        // its stop, leaving earlier, by its own time.
        func pinned(_ segment: Int) -> (shown: String?, walk: String?) {
            guard let pin = plan.pin(ofSegment: segment) else { return (nil, nil) }
            let walks = ShownTime.minute(pin.departure) != ShownTime.minute(pin.shownDeparture)
            return (time(pin.shownDeparture), walks ? time(pin.departure) : nil)
        }
        switch conflict {
        case .arrivesTooLate(let missed, let arriving):
            let pin = pinned(missed.segment)
            return PinConflictDocument(option: option + 1, pinnedSegment: missed.segment + 1, kind: "arrives_too_late",
                                       time: time(arriving), ready: time(missed.ready), pinned: pin.shown, pinnedWalkLeaves: pin.walk)
        case .leavesTooEarly(let early, let leaving):
            let pin = pinned(early.segment)
            return PinConflictDocument(option: option + 1, pinnedSegment: early.segment + 1, kind: "leaves_too_early",
                                       time: time(leaving), ready: time(early.ready), pinned: pin.shown, pinnedWalkLeaves: pin.walk)
        case .arrivesAfterArriveBy(let late, let arriving):
            return PinConflictDocument(option: option + 1, pinnedSegment: nil, kind: "arrives_after_arrive_by",
                                       time: time(arriving), ready: time(late.reached), pinned: nil, arriveBy: time(late.arriveBy))
        }
    }

    func register(in table: inout MethodTable) {
        table.register(Endpoints.planAlternatives) { params, _ in
            let listed = try await service.alternatives(id: params.id, segment: params.segment, count: params.count)
            let zone = listed.timeZone
            return AlternativesDocument(id: params.id, segment: params.segment, mode: WireMode(listed.plan.modes[listed.segment]),
                                        time: listed.time.map { WireTime.string(from: $0, timeZone: zone) },
                                        timeZone: WireTime.zoneName(zone),
                                        options: listed.options.map { WireDocuments.leg($0, timeZone: zone, departure: listed.time) },
                                        day: String(WireTime.string(from: service.input.planDay(listed.plan), timeZone: zone).prefix(10)),
                                        pinConflicts: listed.pinConflicts.sorted { $0.key < $1.key }.map { option, conflict in
                                            Self.document(conflict, option: option, plan: listed.plan, timeZone: zone)
                                        })
        }
        table.register(Endpoints.planCopy) { params, _ in
            let owed = await refresher.isOwed(params.id)
            let copy = try await service.copy(id: params.id, title: params.title, expectedGeneration: params.expectedGeneration)
            await refresher.planCopied(from: params.id, as: copy.id, wasOwed: owed)
            return edits.document(copy)
        }
    }
}
