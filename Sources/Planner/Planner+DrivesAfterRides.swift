import Foundation

/// A car stays with its driver (DESIGN.md "Judgement"): after a ride the car is where the ride
/// began, so no segment the planner chose drives after a transit segment of the plan. Presets
/// keep to it (`RoutePlan.applyingPreset`, `rebuildingStretches`); a segment set to transit by hand
/// (`plan mode ID N transit` after `plan preset ID fastest` drove every segment) puts a ride
/// before drives the planner chose, which are then judged again here by the walk rule.
extension Planner {
    /// `computed` with every unlocked drive after its first transit segment walked or ridden by
    /// the one rule (`walkOrRide`: walked when no slower than the ride door to door, leaving when
    /// the traveller is at its start), saying why, and the plan computed again. A drive the user
    /// chose (locked: `plan mode … car`, a chosen or pinned drive) stays theirs. Two queries a drive.
    /// - throws: only `CancellationError`.
    public func judgingDrivesAfterRides(in computed: LegComputation, currentLocation: Coordinate? = nil) async throws -> LegComputation {
        let plan = computed.plan
        guard let ride = plan.modes.firstIndex(of: .transit) else { return computed }
        let drives = (ride..<plan.segmentCount).filter { plan.modes[$0] == .car && !plan.isLocked(segment: $0) }
        guard !drives.isEmpty else { return computed }
        let leaving = plan.readyToLeave(now: clock.now())
        var judged = plan, queries = 0
        for index in drives {
            let start = leaving[index] ?? plan.earliestDeparture(now: clock.now()) ?? clock.now()
            let hop = try await fasterOfWalkAndRide(from: plan.nodes[index].place, to: plan.nodes[index + 1].place,
                                                    leavingAt: start, plan: plan, inherited: .walk)
            queries += 2
            let ridden = plan.modes[..<index].lastIndex(of: .transit) ?? ride
            var note = hop.reason ?? ModeNote(.notDriven)
            note.carNotAtHandAfterRide = ridden
            judged.setMode(hop.mode, at: index)
            judged.legs[index] = nil
            judged.setModeNote(note, ofSegment: index)
        }
        var again = try await computeLegsReporting(judged, currentLocation: currentLocation)
        again.queryCount += computed.queryCount + queries
        return again
    }
}
