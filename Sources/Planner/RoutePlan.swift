import Foundation

/// A door-to-door plan: ≥ 2 nodes and, for each of the `nodes.count - 1` segments,
/// a mode and an optional leg (absent = not computed yet, or the query failed).
///
/// The invariant `modes.count == legs.count == nodes.count - 1` is kept by making the
/// three arrays settable only through the operations in this module.
public struct RoutePlan: Hashable, Sendable, Codable {
    public private(set) var nodes: [PlanNode]
    public private(set) var modes: [TravelMode]
    public internal(set) var legs: [RouteLeg?]
    public var timePreference: TimePreference
    public internal(set) var pace: WalkingPace
    /// Step-free travel for walk and transit legs (`settingAccess`).
    public internal(set) var access: AccessNeed
    public internal(set) var locks: [SegmentKey: SegmentLock]
    /// The pinned departures, one per segment at most (a day plan has several fixed
    /// departures: the morning train and the evening bus), keyed by their segment.
    public internal(set) var pins: [SegmentKey: PinnedDeparture]
    public internal(set) var pending: [SegmentKey: PendingSegmentUpdate]
    /// Proposals the user dismissed (`dismissingPendingUpdate`), the proposed leg per pinned
    /// segment: the same departure is not proposed again until the pin, the timetable or the
    /// legs that time it change (`forgettingDismissalsOfEmptiedLegs`).
    public internal(set) var dismissed: [SegmentKey: RouteLeg]
    /// Why a segment has its mode, or why it has no leg (`SegmentNote`): written by the planner
    /// with the plan, kept while the segment continues between the same two places.
    public internal(set) var notes: [SegmentKey: SegmentNote]

    /// Creates a plan; every leg starts empty.
    /// - throws: `PlannerError.tooFewNodes` unless there are at least two nodes,
    ///   `segmentIndexOutOfRange` unless `modes` has exactly one entry per segment,
    ///   `invalidCoordinate` for a node outside the valid range.
    public init(nodes: [PlanNode], modes: [TravelMode], timePreference: TimePreference = .leaveNow,
                pace: WalkingPace = .normal, access: AccessNeed = .any) throws {
        guard nodes.count >= 2 else { throw PlannerError.tooFewNodes(nodes.count) }
        guard modes.count == nodes.count - 1 else {
            throw PlannerError.segmentIndexOutOfRange(index: modes.count, segmentCount: nodes.count - 1)
        }
        for node in nodes where !node.place.coordinate.isValid {
            throw PlannerError.invalidCoordinate(latitude: node.place.coordinate.latitude,
                                                 longitude: node.place.coordinate.longitude)
        }
        self.nodes = nodes
        self.modes = modes
        self.legs = Array(repeating: nil, count: modes.count)
        self.timePreference = timePreference
        self.pace = pace
        self.access = access
        self.locks = [:]
        self.pins = [:]
        self.pending = [:]
        self.dismissed = [:]
        self.notes = [:]
    }

    /// Restores a saved plan with at most one pin.
    public init(restoring nodes: [PlanNode], modes: [TravelMode], legs: [RouteLeg?],
                timePreference: TimePreference, pace: WalkingPace,
                locks: [SegmentKey: SegmentLock], pinned: PinnedDeparture?,
                pending: [SegmentKey: PendingSegmentUpdate], dismissed: [SegmentKey: RouteLeg] = [:]) throws {
        try self.init(restoring: nodes, modes: modes, legs: legs, timePreference: timePreference, pace: pace, locks: locks,
                      pins: pinned.map { [$0] } ?? [], pending: pending, dismissed: dismissed)
    }

    /// Restores a saved plan exactly (used by storage). Checks the invariant.
    public init(restoring nodes: [PlanNode], modes: [TravelMode], legs: [RouteLeg?],
                timePreference: TimePreference, pace: WalkingPace,
                locks: [SegmentKey: SegmentLock], pins: [PinnedDeparture],
                pending: [SegmentKey: PendingSegmentUpdate], dismissed: [SegmentKey: RouteLeg] = [:],
                access: AccessNeed = .any, notes: [SegmentKey: SegmentNote] = [:]) throws {
        try self.init(nodes: nodes, modes: modes, timePreference: timePreference, pace: pace, access: access)
        guard legs.count == modes.count else {
            throw PlannerError.segmentIndexOutOfRange(index: legs.count, segmentCount: modes.count)
        }
        self.legs = legs
        self.locks = locks
        self.pins = Dictionary(pins.map { ($0.segment, $0) }, uniquingKeysWith: { _, last in last })
        self.pending = pending
        self.dismissed = dismissed
        self.notes = notes
    }

    public var segmentCount: Int { modes.count }

    /// The key of segment `index` (0-based): its ends' place IDs, and how many segments before it
    /// join the same two places the same way.
    public func segmentKey(_ index: Int) -> SegmentKey {
        let from = nodes[index].place.id, to = nodes[index + 1].place.id
        let occurrence = (0..<index).count { nodes[$0].place.id == from && nodes[$0 + 1].place.id == to }
        return SegmentKey(fromID: from, toID: to, occurrence: occurrence)
    }

    /// Every segment's key, in order (`segmentKey` of each, counted in one pass).
    public var segmentKeys: [SegmentKey] {
        var seen: [SegmentKey: Int] = [:]  // keyed by the first occurrence of each pair of places
        return (0..<segmentCount).map { index in
            let first = SegmentKey(fromID: nodes[index].place.id, toID: nodes[index + 1].place.id, occurrence: 0)
            let occurrence = seen[first, default: 0]
            seen[first] = occurrence + 1
            return SegmentKey(fromID: first.fromID, toID: first.toID, occurrence: occurrence)
        }
    }

    /// The 0-based index of the segment with this key, if it is in the plan.
    public func segmentIndex(of key: SegmentKey) -> Int? {
        let between = (0..<segmentCount).filter { nodes[$0].place.id == key.fromID && nodes[$0 + 1].place.id == key.toID }
        return between.indices.contains(key.occurrence) ? between[key.occurrence] : nil
    }

    // MARK: - Internal mutation (operations keep the invariant)

    /// Replaces nodes and modes together; legs are reset to empty except those the caller keeps.
    /// `origins[i]` is the segment of the plan before that new segment `i` continues (nil: a new
    /// one). The decisions (locks, pins, pending updates, dismissals) of a segment that continues
    /// between the same two places follow it to its new key (its occurrence may have changed);
    /// all others go, so that a stale decision cannot come back to life when the same two places
    /// meet again later.
    mutating func replaceStructure(nodes: [PlanNode], modes: [TravelMode], legs: [RouteLeg?], origins: [Int?]) {
        precondition(nodes.count >= 2 && modes.count == nodes.count - 1 && legs.count == modes.count
                     && origins.count == modes.count, "RoutePlan invariant broken by an internal operation")
        let old = self
        self.nodes = nodes
        self.modes = modes
        self.legs = legs
        carryDecisions(from: old, origins: origins)
    }

    /// Segment `i` of the new structure comes from segment `i` of the old one: the edit changed
    /// places or modes, not the number of segments.
    var sameSegments: [Int?] { Array(0..<segmentCount) }

    /// The origins (see `replaceStructure`) of a plan of `count` segments whose segments in
    /// `replaced` became `added` new ones; the others keep their order.
    static func origins(count: Int, replacing replaced: Range<Int>, with added: Int) -> [Int?] {
        Array(0..<replaced.lowerBound) + Array(repeating: nil, count: added) + Array(replaced.upperBound..<count)
    }

    /// Re-keys the decisions of `old` to the segments that continue its segments (`origins`).
    private mutating func carryDecisions(from old: RoutePlan, origins: [Int?]) {
        var locks: [SegmentKey: SegmentLock] = [:], pins: [SegmentKey: PinnedDeparture] = [:]
        var pending: [SegmentKey: PendingSegmentUpdate] = [:], dismissed: [SegmentKey: RouteLeg] = [:]
        var notes: [SegmentKey: SegmentNote] = [:]
        let oldKeys = old.segmentKeys, newKeys = segmentKeys
        for (index, origin) in origins.enumerated() {
            guard let origin, oldKeys.indices.contains(origin) else { continue }
            let before = oldKeys[origin], after = newKeys[index]
            guard before.joinsSamePlaces(as: after) else { continue }
            locks[after] = old.locks[before]
            if var pin = old.pins[before] { pin.segment = after; pins[after] = pin }
            if var update = old.pending[before] { update.segment = after; pending[after] = update }
            dismissed[after] = old.dismissed[before]
            notes[after] = old.notes[before]
        }
        self.locks = locks
        self.pins = pins
        self.pending = pending
        self.dismissed = dismissed
        self.notes = notes
    }

    mutating func setMode(_ mode: TravelMode, at index: Int) {
        modes[index] = mode
    }

    mutating func setNode(_ node: PlanNode, at index: Int) {
        nodes[index] = node
    }

    /// The indices of the pinned segments, in order.
    public var pinnedSegmentIndices: [Int] {
        guard !pins.isEmpty else { return [] }
        let keys = segmentKeys
        return keys.indices.filter { pins[keys[$0]] != nil }
    }

    /// The first pinned segment's index (the pin that anchors the start of the plan).
    public var pinnedSegmentIndex: Int? { pinnedSegmentIndices.first }

    /// The first pin in segment order (a plan with one pin: its pin).
    public var pinned: PinnedDeparture? { pinnedSegmentIndex.flatMap { pins[segmentKey($0)] } }

    /// The pin of segment `index`, if it has one.
    public func pin(ofSegment index: Int) -> PinnedDeparture? {
        guard (0..<segmentCount).contains(index) else { return nil }
        return pins[segmentKey(index)]
    }

    /// Whether segment `index` is pinned.
    public func isPinned(segment index: Int) -> Bool { pin(ofSegment: index) != nil }

    /// The pinned departure of segment `index` when its leg has no date of its own (walk, car).
    func pinnedDeparture(ofSegment index: Int) -> Date? { pin(ofSegment: index)?.departure }

    /// Whether the user decided this segment's mode (by hand, by removing a stop, or by pinning).
    public func isLocked(segment index: Int) -> Bool {
        guard (0..<segmentCount).contains(index) else { return false }
        return locks[segmentKey(index)] != nil
    }

    /// The lock of segment `index`, if any.
    public func lock(ofSegment index: Int) -> SegmentLock? {
        guard (0..<segmentCount).contains(index) else { return nil }
        return locks[segmentKey(index)]
    }

    /// The note of segment `index` (why its mode, why no leg), if any.
    public func note(ofSegment index: Int) -> SegmentNote? {
        guard (0..<segmentCount).contains(index) else { return nil }
        return notes[segmentKey(index)]
    }

    /// The pending update of segment `index`, if any.
    public func pendingUpdate(ofSegment index: Int) -> PendingSegmentUpdate? {
        guard (0..<segmentCount).contains(index) else { return nil }
        return pending[segmentKey(index)]
    }
}
