import Foundation

/// What a segment says about itself, stored with the plan (migrations 0018, 0020): why it has its
/// mode (`ModeNote`: a hop walked because walking is no slower than the ride, a ride the user
/// chose although walking is no slower) and why it has no leg (the routing error of the
/// computation that left it empty), so `plan show` says both after a restart as before it. The
/// mode note is kept as judged and put in words from the leg its segment has when shown
/// (`RoutePlan.modeNote(ofSegment:)`), so it never speaks of a leg it no longer sits under.
public struct SegmentNote: Hashable, Sendable, Codable {
    /// Why the segment has its mode; nil when nothing was chosen.
    public var mode: ModeNote?
    /// The code and message of the routing error that left the leg empty (`RoutingError.code`).
    public var errorCode: String?
    public var errorMessage: String?

    public init(mode: ModeNote? = nil, errorCode: String? = nil, errorMessage: String? = nil) {
        self.mode = mode
        self.errorCode = errorCode
        self.errorMessage = errorMessage
    }

    /// Nothing to say: the plan keeps no such note.
    public var isEmpty: Bool { mode == nil && errorCode == nil }
}

extension RoutePlan {
    /// Sets the mode note of segment `index` (nil clears it), keeping its error: a judgement, of
    /// the ground it names (`ModeNote.ground`), else of the segment's own ends.
    mutating func setModeNote(_ note: ModeNote?, ofSegment index: Int) {
        placeModeNote(groundedNote(note, ofSegment: index), onSegment: index)
    }

    /// Puts `note` on segment `index` as it is: a note judged before, moved with its ride (the
    /// ride split at its stops, ridden from end to end), keeps the ground it was judged over.
    mutating func placeModeNote(_ note: ModeNote?, onSegment index: Int) {
        let key = segmentKey(index)
        var kept = notes[key] ?? SegmentNote()
        kept.mode = note
        notes[key] = kept.isEmpty ? nil : kept
    }

    /// Segment `index`'s mode note without the words an older daemon stored (`ModeNote.storedWords`):
    /// its kind kept, with no figures, so it says nothing that needs them until the planner
    /// judges it again (`Planner.walkingRidesWalkingBeats`, `judgingPlannersWalksAgain`).
    mutating func forgettingStoredWords(ofSegment index: Int) {
        guard var note = note(ofSegment: index)?.mode, note.storedWords != nil else { return }
        note.storedWords = nil
        placeModeNote(note, onSegment: index)
    }

    /// What segment `index` says of its mode (`plan show`'s `mode:`, the wire's `mode_note`), in
    /// words from the leg it has now, leaving and arriving as the plan shows it
    /// (`ModeNote.words`); nil when it has no note or its note is not true of it now (another
    /// mode, a ride now no faster than the walk it was judged against: kept, and stored, until
    /// the planner judges the segment again).
    public func modeNote(ofSegment index: Int) -> String? {
        modeNotes[index]
    }

    /// Every segment's `modeNote`, the plan's times computed once. A note judged over more than
    /// its segment (`ModeNote.ground`: a hop from the user's node to the next, ridden through the
    /// stops inferred for it) reads that ground's shown times and names it; one whose ground the
    /// plan no longer goes between says nothing.
    public var modeNotes: [String?] {
        var times: (departures: [Date?], arrivals: [Date?])?
        var names: [String]?
        return legs.indices.map { index in
            guard let note = note(ofSegment: index)?.mode else { return usersDriveWithoutTheCar(index) }
            guard let ground = groundNodes(of: note, ofSegment: index) else { return nil }
            if times == nil { times = (departureTimes(), schedule()) }
            var shownGround: ModeNote.ShownGround?
            if ground != (index, index + 1) {
                if names == nil { names = shownNodeNames }
                shownGround = ModeNote.ShownGround(from: names?[ground.from] ?? "", to: names?[ground.to] ?? "",
                                                   leaving: times?.departures[ground.from] ?? nil,
                                                   arriving: times?.arrivals[ground.to] ?? nil)
            }
            return note.words(mode: modes[index], leg: legs[index], leaving: times?.departures[index] ?? nil,
                              arriving: times?.arrivals[index + 1] ?? nil, ground: shownGround)
        }
    }

    /// A drive the user set (locked: `plan mode … car`, a pinned or chosen drive) where the car
    /// is not at hand is theirs, and said plainly, where it waits (issue 39 item 3: car, bus,
    /// bus, then the user's drive, with nothing said).
    func usersDriveWithoutTheCar(_ index: Int) -> String? {
        guard modes[index] == .car, isLocked(segment: index), let left = carLeft(before: index) else { return nil }
        let waits = nodes[Self.carWaits(nodes: nodes, modes: modes, before: index)].place.name
        return "your drive: \(ModeNote.carNotAtHand(after: modes[left], onSegment: left)) (it waits at \(waits))"
    }

    /// The routing errors of a computation: `failures` (by segment) are stored with their
    /// segments, and every other segment forgets an error it had (its leg was found, or not asked).
    mutating func settingRoutingErrors(_ failures: [SegmentFailure]) {
        let keys = segmentKeys
        for (index, key) in keys.enumerated() {
            var note = notes[key] ?? SegmentNote()
            let failure = failures.first { $0.segment == index }
            note.errorCode = failure?.error.code
            note.errorMessage = failure?.error.message
            notes[key] = note.isEmpty ? nil : note
        }
    }
}
