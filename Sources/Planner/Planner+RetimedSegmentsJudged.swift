import Foundation

/// An edit's computation moves segments in time (`LegComputation.retimed`), and a choice the
/// planner made by the walk rule was made for its time: the planner's walks are judged again
/// (`judgingPlannersWalksAgain`) and the rides it asked are judged (`walkingRidesWalkingBeats`)
/// by one loop: each due segment judged once, the plan computed again after a change (which
/// retimes the segments after it), the ones that retimed judged in turn.
extension Planner {
    /// When the traveller is at each node of a plan being judged, as the judgements read it.
    struct JudgedTimes {
        let ready: [Date?], departures: [Date?], arrivals: [Date?], latest: [Date?], dueForPins: [Date?]

        init(_ plan: RoutePlan, now: Date) {
            ready = plan.readyToLeave(now: now)
            departures = plan.departureTimes(startingAt: now)
            arrivals = plan.schedule(startingAt: now)
            latest = plan.latestDepartures()
            dueForPins = plan.latestArrivalsForPins()
        }

        /// When a segment is judged from: the start of its span (`span(of:in:)`).
        func leaving(_ index: Int, in plan: RoutePlan) -> Date? {
            span(of: index..<(index + 1), in: plan).leaving
        }

        /// The two moments the walk rule judges a stretch (nodes `stretch.lowerBound` through
        /// `upperBound`) between, its walk and its ride door to door alike: from the time the
        /// plan fixes to the time the ride gets there. Timed forward, from when the traveller is
        /// at its start (`ready`: a wait for the ride counts) to when the ride gets them to its
        /// end. Timed back to the arrival, the mirror: from when the ride leaves (the latest the
        /// traveller may leave its start) to the latest they may be at its end (a ride arriving
        /// early counts its wait there), by `latestDepartures`; not from when an earlier ride
        /// gets them to its start, which counted a wait only the ride paid (issue 39: Tammelan
        /// puistokatu → Koskikeskus by 08:20 walked 07:56–08:14, "no slower than transit (23
        /// min)", where bus 2 leaves 07:56 and arrives 08:10). Timed back to a pin in a plan
        /// leaving at a time, from when it leaves (`departures`: at 23:55 a walk timed back to the
        /// 08:02 bus leaves at 06:32, when buses run) to when it gets there, or when its end is
        /// the pinned segment's start, to the latest the traveller may be there to make the pin
        /// (`latestArrivalsForPins`, when it gets there no later: a ride arriving sooner only
        /// waits for the pin; trial 59b F8: bus 19 from Kaleva A at 09:12:40 got them to
        /// Rautatieasema A at 09:26:25 for the bus 12 whose walk leaves 09:29:28, and the 1002 s
        /// walk, no slower for the pin, was judged against the ride's own 825 s and not taken,
        /// though the ride said walking was no slower).
        func span(of stretch: Range<Int>, in plan: RoutePlan) -> (leaving: Date?, arriving: Date?) {
            let start = stretch.lowerBound, end = stretch.upperBound
            guard plan.timingSource(ofSegment: end - 1).isBackward else { return (ready[start], arrivals[end]) }
            if let leaving = latest[start], let mustLeaveEnd = latest[end] {
                return (leaving, end == plan.segmentCount ? mustLeaveEnd : plan.nodes[end].latestArrival(leavingAt: mustLeaveEnd))
            }
            // A stretch that misses the pin is judged by when it gets there.
            let due = dueForPins[end].map { due in arrivals[end].map { max($0, due) } ?? due }
            return (departures[start] ?? ready[start], due ?? arrivals[end])
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
    /// the stretches of the planner's it retimed planned again where a new plan of their places
    /// does better (`planningTouchedStretchesAfresh`) and walked where a new day plan walks them
    /// (`walkingTouchedStretchesNoSlower`), the planner's walks it retimed judged
    /// again, the rides it asked judged by the walk rule, and a day's hop no line serves walked,
    /// as `plan new` walks it.
    /// - throws: only `CancellationError`.
    public func judgingWhatTheEditComputed(_ computed: LegComputation, currentLocation: Coordinate? = nil) async throws
        -> LegComputation {
        let afresh = try await planningTouchedStretchesAfresh(in: computed, currentLocation: currentLocation)
        let stretchesWalked = try await walkingTouchedStretchesNoSlower(in: afresh, currentLocation: currentLocation)
        let judged = try await judgingPlannersWalksAgain(in: stretchesWalked, currentLocation: currentLocation)
        let walked = try await walkingRidesWalkingBeats(in: judged, currentLocation: currentLocation)
        return try await walkingDayHopsWithoutService(in: walked, currentLocation: currentLocation)
    }
}
