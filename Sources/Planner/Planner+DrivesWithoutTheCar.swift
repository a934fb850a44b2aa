import Foundation

/// A car stays with its driver (DESIGN.md "Judgement"): it waits where its last drive ended, so
/// no segment the planner chose drives where the traveller left it behind, after a ride, a walk or
/// a bike ride (`RoutePlan.carLeft(before:)`). Presets keep to it (`RoutePlan.applyingPreset`,
/// `rebuildingStretches`); a segment set to another mode by hand (`plan mode ID N transit|walk`
/// after `plan preset ID fastest` drove every segment) leaves the car behind before drives the
/// planner chose, which are then judged again here by the walk rule.
extension Planner {
    /// `computed` with every unlocked drive the car is not at hand for walked or ridden by the one
    /// rule (`walkOrRide`: walked when no slower than the ride door to door, leaving when the
    /// traveller is at its start), saying why, and the plan computed again. A drive the user
    /// chose (locked: `plan mode … car`, a chosen or pinned drive) stays theirs. Two queries a drive.
    /// - throws: only `CancellationError`.
    public func judgingDrivesWithoutTheCar(in computed: LegComputation, currentLocation: Coordinate? = nil) async throws -> LegComputation {
        let plan = computed.plan
        let leaving = plan.readyToLeave(now: clock.now())
        var judged = plan, queries = 0
        // In order: a drive walked leaves the car where the one before it ended.
        for index in 0..<plan.segmentCount where plan.modes[index] == .car && !plan.isLocked(segment: index) {
            guard let left = judged.carLeft(before: index) else { continue }
            let start = leaving[index] ?? plan.earliestDeparture(now: clock.now()) ?? clock.now()
            let hop = try await fasterOfWalkAndRide(from: plan.nodes[index].place, to: plan.nodes[index + 1].place,
                                                    leavingAt: start, plan: plan, inherited: .walk)
            queries += 2
            var mode = hop.mode, note = hop.reason ?? ModeNote(.notDriven)
            // Ridden from (to) a pinned ride's stop the planner inferred, the hop would board the
            // pinned vehicle itself, one trip in two segments (seeds 38 and 45: a drive inserted
            // after a pinned ride, judged at a later edit): walked, as the way from (to) it.
            if mode == .transit, let way = judged.wayToPinnedRide(of: index) {
                mode = .walk
                note = ModeNote(way)
            }
            note.carLeftOnSegment = left
            note.carLeftBy = judged.modes[left]
            judged.setMode(mode, at: index)
            judged.legs[index] = nil
            judged.setModeNote(note, ofSegment: index)
        }
        guard queries > 0 else { return computed }
        var again = try await computeLegsReporting(judged, currentLocation: currentLocation)
        again.queryCount += computed.queryCount + queries
        return again
    }
}
