import Foundation

/// Street legs (walk, bike, car) asked once and shared, by their two ends, mode, pace and access
/// (a step-free walk takes another way).
///
/// A street leg does not depend on the time it is asked for (a present one just advances the
/// time cursor), so one answer serves every question with the same ends. `compare` hands one
/// share to all its modes:
/// - the transit option asks its access and egress walks at once (the first of them to be
///   filled brings the others along), instead of one after the other around the ride;
/// - a walk the transit option needs that the walk option also asks (a destination at a stop:
///   the access walk goes to the same point) is routed once, the second asker waiting for the
///   first one's answer.
///
/// Answers are kept for the share's life (one `computeLegs` run or one comparison), failures
/// too. Transit legs are never shared: they depend on the time.
actor StreetLegShare {
    private struct Key: Hashable {
        var from: Coordinate
        var to: Coordinate
        var mode: TravelMode
        var pace: WalkingPace
        var access: AccessNeed
    }

    private var asked: [Key: Task<Result<RouteLeg, RoutingError>, Error>] = [:]

    /// The legs for `queries` (street modes), in order: those not asked before are all asked of
    /// `planner`'s routing port at once, the others joined. Cancelling the caller cancels them,
    /// and an ask that was cancelled (the engine cancels its asker) cancels the caller: it throws
    /// `CancellationError`.
    func legs(for queries: [LegQuery], by planner: Planner) async throws -> [Result<RouteLeg, RoutingError>] {
        // Looked up and stored with no suspension between: the actor makes it one step.
        let tasks = queries.map { query in
            let key = Key(from: query.from.coordinate, to: query.to.coordinate, mode: query.mode, pace: query.pace,
                          access: query.access)
            if let task = asked[key] { return task }
            let task = Task { try await planner.leg(for: query) }
            asked[key] = task
            return task
        }
        return try await withTaskCancellationHandler {
            var results: [Result<RouteLeg, RoutingError>] = []
            for task in tasks { results.append(try await task.value) }
            if tasks.contains(where: \.isCancelled) { throw CancellationError() }
            return results
        } onCancel: {
            for task in tasks { task.cancel() }
        }
    }
}
