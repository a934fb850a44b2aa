import Foundation

/// What times each segment's leg in `Planner.computeLegs`: the one rule that the recompute and
/// the edits that decide which legs to empty (stays, unpinning) both read, so they never
/// disagree about which way a leg is timed.
extension RoutePlan {
    /// Where a segment's leg takes its time from.
    public enum LegTimingSource: Hashable, Sendable {
        /// The segment is pinned: its own fixed departure.
        case pinned
        /// Forward from the plan's start (leave now, depart at).
        case forwardFromStart
        /// Backward from the requested arrival (arrive by, no pin).
        case backwardFromArrival
        /// Forward from this pin's arrival (the last pin before the segment).
        case forwardFromPin(SegmentKey)
        /// Backward from this pin's departure (the first pin, for the segments before it).
        case backwardFromPin(SegmentKey)

        /// Whether the leg is timed going backward (it arrives by something after it).
        public var isBackward: Bool {
            switch self {
            case .backwardFromArrival, .backwardFromPin: true
            case .pinned, .forwardFromStart, .forwardFromPin: false
            }
        }
    }

    /// The segments before the first pin that are timed back from it. In a leave-now or
    /// depart-at plan a node with a stay "until" at or before the pin holds the traveller there
    /// anyway: only the segments from the last such node to the pin are timed back, those before
    /// it go forward from the start, so the start is never ignored. In an arrive-by plan every
    /// segment before the first pin is timed back. Empty without pins.
    public var segmentsTimedBackFromFirstPin: Range<Int> {
        guard let first = pinnedSegmentIndex else { return 0..<0 }
        if case .arriveBy = timePreference { return 0..<first }
        let anchor = (0...first).last { nodes[$0].stay?.isUntil == true } ?? 0
        return anchor..<first
    }

    /// Where segment `index`'s leg takes its time from (see `LegTimingSource`).
    public func timingSource(ofSegment index: Int) -> LegTimingSource {
        let pinned = pinnedSegmentIndices
        guard let first = pinned.first else {
            if case .arriveBy = timePreference { return .backwardFromArrival }
            return .forwardFromStart
        }
        if pinned.contains(index) { return .pinned }
        if index < first {
            return segmentsTimedBackFromFirstPin.contains(index) ? .backwardFromPin(segmentKey(first)) : .forwardFromStart
        }
        let previous = pinned.last { $0 < index } ?? first
        return .forwardFromPin(segmentKey(previous))
    }

    /// The segments whose times a stay at node `index` moves: the legs leaving it and after it
    /// while they are timed forward through it, and the legs arriving at it and before it while
    /// they are timed backward through it (each stretch up to its pin or anchor).
    public func segmentsTimed(throughNode index: Int) -> [Int] {
        var moved: [Int] = []
        if index < segmentCount, case let source = timingSource(ofSegment: index), source != .pinned, !source.isBackward {
            var segment = index
            while segment < segmentCount, timingSource(ofSegment: segment) == source { moved.append(segment); segment += 1 }
        }
        if index > 0, case let source = timingSource(ofSegment: index - 1), source.isBackward {
            var segment = index - 1
            while segment >= 0, timingSource(ofSegment: segment) == source { moved.append(segment); segment -= 1 }
        }
        return moved.sorted()
    }

    /// Empties the transit legs (not pinned, not chosen routes) whose timing source differs from
    /// the one they had in `old`, the plan before an edit: an unpin, an unlock or a new stay
    /// "until" retimes them, and a full recompute would ask them again. The planner's walks
    /// (`isPlannersWalk`) too: asked again, they are judged again at their new times.
    /// `origins` (as in `replaceStructure`; default: the same segments) says which segment of
    /// `old` each one was, so edits that shift indices or renumber keys compare the same segment and pin.
    mutating func emptyLegsRetimed(since old: RoutePlan, origins: [Int?]? = nil) {
        let origins = origins ?? sameSegments
        for index in 0..<segmentCount
        where (modes[index] == .transit || isPlannersWalk(segment: index)) && !isPinned(segment: index) && legs[index] != nil {
            guard let before = origins[index] else { continue }
            if translated(old.timingSource(ofSegment: before), from: old, origins: origins) != timingSource(ofSegment: index) {
                legs[index] = nil
            }
        }
    }

    /// A timing source of `old` named as this plan names it: the pin's key renumbered through
    /// `origins`; nil when that pin's segment is gone.
    private func translated(_ source: LegTimingSource, from old: RoutePlan, origins: [Int?]) -> LegTimingSource? {
        func renamed(_ key: SegmentKey) -> SegmentKey? {
            guard let before = old.segmentIndex(of: key), let after = origins.firstIndex(of: before) else { return nil }
            return segmentKey(after)
        }
        switch source {
        case .forwardFromPin(let key): return renamed(key).map(LegTimingSource.forwardFromPin)
        case .backwardFromPin(let key): return renamed(key).map(LegTimingSource.backwardFromPin)
        case .pinned, .forwardFromStart, .backwardFromArrival: return source
        }
    }
}

extension RoutePlan {
    /// After `Planner.refine` split segments of `original`: a split is measured forward from the
    /// schedule's time (which may differ from the recompute's cursor: a plan back-dated from a
    /// later ride, a stretch timed backward) and changes when the traveller gets to the legs
    /// after it (before it, timed backward). So the split's own transit legs and those it
    /// retimes are emptied for the recompute that follows, which times them as a full recompute
    /// of the refined plan would; its walks stay (they carry no times).
    func emptyingTransitLegsRetimedBySplits(of original: RoutePlan) -> RoutePlan {
        let kept = Set(original.segmentKeys)
        let keys = segmentKeys
        let split = keys.indices.filter { !kept.contains(keys[$0]) }
        var plan = self
        for index in split {
            let retimed = [index] + (timingSource(ofSegment: index).isBackward
                ? segmentsTimed(throughNode: index) : segmentsTimed(throughNode: index + 1))
            for segment in retimed where modes[segment] == .transit && !isPinned(segment: segment) { plan.legs[segment] = nil }
        }
        return plan
    }
}
