import Foundation

extension ModeNote {
    /// Where a note's figures were judged: the walk and the ride door to door both went from the
    /// place `fromID` to the place `toID` (place IDs, as `SegmentKey` keeps them). A hop judged
    /// from the user's node to the next and ridden through stops the planner inferred has its
    /// note on the ride between those stops; its figures are still the hop's (issue 39: "1 min
    /// door to door … where walking takes 8 min" under a one-stop bus was the ride's minute
    /// against the walk from Pyynikintori to Hämeenpuisto), so its words read the shown times
    /// of the hop, named (`RoutePlan.modeNotes`).
    public struct Ground: Hashable, Sendable, Codable {
        public var fromID: String
        public var toID: String

        public init(fromID: String, toID: String) {
            self.fromID = fromID
            self.toID = toID
        }
    }

    /// A ground other than the segment the note sits under, as the plan shows it: its places'
    /// names and the times shown for leaving the first and arriving at the last (nil: none shown).
    public struct ShownGround: Hashable, Sendable {
        public var from: String
        public var to: String
        public var leaving: Date?
        public var arriving: Date?

        public init(from: String, to: String, leaving: Date?, arriving: Date?) {
            self.from = from
            self.to = to
            self.leaving = leaving
            self.arriving = arriving
        }
    }
}

extension RoutePlan {
    /// The ground between nodes `from` and `to` (node indices).
    func ground(from: Int, to: Int) -> ModeNote.Ground {
        ModeNote.Ground(fromID: nodes[from].place.id, toID: nodes[to].place.id)
    }

    /// The nodes segment `index`'s note was judged between: the nearest node of its ground's first
    /// place at or before the segment and of its last place after it; the segment's own ends for
    /// a note that keeps no ground (stored before it was kept). Nil when the plan no longer goes
    /// between them there (a stop chosen again): the note says nothing until judged again.
    func groundNodes(of note: ModeNote, ofSegment index: Int) -> (from: Int, to: Int)? {
        guard let ground = note.ground else { return (index, index + 1) }
        guard let from = nodes.indices.prefix(index + 1).last(where: { nodes[$0].place.id == ground.fromID }),
              let to = nodes.indices.dropFirst(index + 1).first(where: { nodes[$0].place.id == ground.toID }) else { return nil }
        return (from, to)
    }

    /// `note` with the ground it was judged over: as given, else segment `index`'s own ends (a
    /// judgement of that segment). A note without figures needs none.
    func groundedNote(_ note: ModeNote?, ofSegment index: Int) -> ModeNote? {
        guard var note, note.ground == nil, note.storedWords == nil, note.walking != nil || note.riding != nil,
              nodes.indices.contains(index + 1) else { return note }
        note.ground = ground(from: index, to: index + 1)
        return note
    }
}
