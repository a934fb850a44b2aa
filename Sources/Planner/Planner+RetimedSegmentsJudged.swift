import Foundation

/// An edit's computation moves segments in time (`LegComputation.retimed`), and a choice the
/// planner made by the walk rule was made for its time: the planner's walks are judged again
/// (`judgingPlannersWalksAgain`) and the rides it asked are judged (`walkingRidesWalkingBeats`)
/// by one loop: each due segment judged once, the plan computed again after a change (which
/// retimes the segments after it), the ones that retimed judged in turn.
extension Planner {
    /// When the traveller is at each node of a plan being judged, as the judgements read it.
    struct JudgedTimes {
        let ready: [Date?], departures: [Date?], arrivals: [Date?]

        init(_ plan: RoutePlan, now: Date) {
            ready = plan.readyToLeave(now: now)
            departures = plan.departureTimes(startingAt: now)
            arrivals = plan.schedule(startingAt: now)
        }

        /// When a segment is judged from: when the traveller is at its start; a segment timed
        /// back (to a pin, to the arrival) from when it leaves: at 23:55 a walk timed back to the
        /// 08:02 bus leaves at 06:32, when buses run, not at 23:55, when the next one is hours away.
        func leaving(_ index: Int, in plan: RoutePlan) -> Date? {
            plan.timingSource(ofSegment: index).isBackward ? departures[index] ?? ready[index] : ready[index]
        }
    }

    /// What judging one segment decided: the plan kept (perhaps with a note), or a changed plan
    /// to compute again, with what to do to that computation afterwards.
    struct SegmentVerdict {
        var plan: RoutePlan
        var changed = false
        var queries = 0
        var afterComputing: ((inout LegComputation) -> Void)?
    }

    /// `computed` with every segment it retimed that `isDue` judged by `judge` (each once, in
    /// plan order or last first), the plan computed again after each change.
    /// - throws: only `CancellationError`.
    func judgingRetimedSegments(in computed: LegComputation, currentLocation: Coordinate?, lastFirst: Bool = false,
                                isDue: (RoutePlan, Int) -> Bool,
                                judge: (_ plan: RoutePlan, _ segment: Int, _ times: JudgedTimes) async throws -> SegmentVerdict)
        async throws -> LegComputation {
        var current = computed
        var judged: Set<SegmentKey> = []
        for _ in 0...computed.plan.segmentCount {
            let plan = current.plan
            let due = (0..<plan.segmentCount).filter {
                current.retimed.contains($0) && !judged.contains(plan.segmentKey($0)) && isDue(plan, $0)
            }
            guard !due.isEmpty else { return current }
            let times = JudgedTimes(plan, now: clock.now())
            var verdict = SegmentVerdict(plan: plan)
            for index in lastFirst ? due.reversed() : due {
                judged.insert(plan.segmentKey(index))
                let queries = verdict.queries
                verdict = try await judge(verdict.plan, index, times)
                verdict.queries += queries
                if verdict.changed { break }
            }
            current.queryCount += verdict.queries
            guard verdict.changed else {
                current.plan = verdict.plan
                return current
            }
            try Task.checkCancellation()
            let queries = current.queryCount
            current = try await computeLegsReporting(verdict.plan, currentLocation: currentLocation)
            current.queryCount += queries
            verdict.afterComputing?(&current)
        }
        return current
    }

    /// The judgement an edit's computation gets, the same for every edit (`plan refine` too):
    /// the planner's walks it retimed judged again, the rides it asked judged by the walk rule,
    /// and a day's hop no line serves walked, as `plan new` walks it.
    /// - throws: only `CancellationError`.
    public func judgingWhatTheEditComputed(_ computed: LegComputation, currentLocation: Coordinate? = nil) async throws
        -> LegComputation {
        let judged = try await judgingPlannersWalksAgain(in: computed, currentLocation: currentLocation)
        let walked = try await walkingRidesWalkingBeats(in: judged, currentLocation: currentLocation)
        return try await walkingDayHopsWithoutService(in: walked, currentLocation: currentLocation)
    }
}
