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
            let carLeftBy = judged.modes[left]
            try await notDriving(index, in: &judged, of: plan, leavingAt: start) { note in
                note.carLeftOnSegment = left
                note.carLeftBy = carLeftBy
            }
            queries += 2
        }
        guard queries > 0 else { return computed }
        var again = try await computeLegsReporting(judged, currentLocation: currentLocation)
        again.queryCount += computed.queryCount + queries
        return again
    }

    /// `computed` with each drive of the planner's after which the car is never driven again
    /// (`RoutePlan.driveLeavingTheCarForGood`) walked or ridden by the walk rule, last first, and
    /// the plan computed again (trial 58 F7: `plan preset ID fastest` drove Hämeenkatu 9 → TAYS A
    /// before a locked bus and left the car there for the rest of the day). `.fastest` only
    /// proposes a drive the car comes back from (the day ends driving, or where the car waits);
    /// a drive the user chose (locked) stays theirs. Two queries a drive.
    /// - throws: only `CancellationError`.
    func judgingDrivesLeavingTheCarForGood(in computed: LegComputation, currentLocation: Coordinate? = nil) async throws
        -> LegComputation {
        let plan = computed.plan
        let leaving = plan.readyToLeave(now: clock.now())
        var judged = plan, queries = 0
        while let index = judged.driveLeavingTheCarForGood() {
            let start = leaving[index] ?? plan.earliestDeparture(now: clock.now()) ?? clock.now()
            try await notDriving(index, in: &judged, of: plan, leavingAt: start)
            queries += 2
        }
        guard queries > 0 else { return computed }
        var again = try await computeLegsReporting(judged, currentLocation: currentLocation)
        again.queryCount += computed.queryCount + queries
        return again
    }

    /// Hop `index` of `judged` walked or ridden by the walk rule instead of driven (two queries),
    /// its note said by `noting`. Ridden from (to) a pinned ride's stop the planner inferred, the
    /// hop would board the pinned vehicle itself, one trip in two segments (seeds 38 and 45: a
    /// drive inserted after a pinned ride, judged at a later edit): walked, as the way from (to) it.
    private func notDriving(_ index: Int, in judged: inout RoutePlan, of plan: RoutePlan, leavingAt start: Date,
                            noting: (inout ModeNote) -> Void = { _ in }) async throws {
        let hop = try await fasterOfWalkAndRide(from: plan.nodes[index].place, to: plan.nodes[index + 1].place,
                                                leavingAt: start, plan: plan, inherited: .walk)
        var mode = hop.mode, note = hop.reason ?? ModeNote(.notDriven)
        if mode == .transit, let way = judged.wayToPinnedRide(of: index) {
            mode = .walk
            note = ModeNote(way)
        }
        noting(&note)
        judged.setMode(mode, at: index)
        judged.legs[index] = nil
        judged.setModeNote(note, ofSegment: index)
    }
}


extension RoutePlan {
    /// The chain's last drive when it is the planner's (not locked) and leaves the car for good:
    /// it ends before the plan does, and not within `carWithinReach` of where the plan ends. Nil
    /// when the last drive ends the day, or the user chose it.
    func driveLeavingTheCarForGood() -> Int? {
        guard let last = modes.lastIndex(of: .car), last < segmentCount - 1, !isLocked(segment: last),
              let end = nodes.last,
              nodes[last + 1].place.coordinate.distance(to: end.place.coordinate) > Self.carWithinReach else { return nil }
        return last
    }
}
