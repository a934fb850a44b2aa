import Foundation

/// Why the hops an edit chose next to a node it put or moved have their modes ("by transit: 11
/// min where walking takes 15 min"), found again in the plan the edit left: the stops next to the
/// node are chosen again and the computation puts in the stops its rides use, so segment numbers
/// move, while the user's own nodes (the ends of `stretches()`) keep their order.
extension RoutePlan {
    /// Which side of the edited node a hop lies.
    public enum HopSide: Sendable { case before, after }

    /// How many of the plan's own nodes (the ends of `stretches()`) come before position `index`:
    /// the ordinal of an own node put or kept there, the same after an edit that only adds or
    /// leaves out inferred stops.
    public func ownNodes(before index: Int) -> Int {
        nodes.indices.prefix(index).filter { !nodes[$0].isInferred || $0 == 0 || $0 == nodes.count - 1 }.count
    }

    /// The stretch on `side` of own node `ordinal`.
    func stretch(_ side: HopSide, ofOwnNode ordinal: Int) -> Range<Int>? {
        let all = stretches(), position = side == .before ? ordinal - 1 : ordinal
        return all.indices.contains(position) ? all[position] : nil
    }

    /// The segment of `stretch` that says why the stretch has its mode: its ride, else its first.
    func notedSegment(of stretch: Range<Int>) -> Int {
        stretch.first { modes[$0] == .transit } ?? stretch.lowerBound
    }

    /// Each reason on the segment that says it, in the stretch on its side of own node `ordinal`
    /// (nil clears the note there), judged over that whole stretch (its ground).
    mutating func noting(_ reasons: [(side: HopSide, reason: ModeNote?)], nextToOwnNode ordinal: Int) {
        for (side, reason) in reasons {
            guard let stretch = stretch(side, ofOwnNode: ordinal) else { continue }
            var grounded = reason
            grounded?.ground = ground(from: stretch.lowerBound, to: stretch.upperBound)
            setModeNote(grounded, ofSegment: notedSegment(of: stretch))
        }
    }

    /// The answer's words: "segment 2 by transit: 6 min door to door from Pyynikintori to
    /// Hämeenpuisto (walks and waits included) where walking takes 8 min" (the hop's figures, on
    /// its ride: `ModeNote.ground`), one line per reason a segment of the
    /// stretch on its side of own node `ordinal` gives (`ModeNote.givesTheSameReason`), as that
    /// segment shows it, numbered as this plan (the edited one, computed) is shown, in segment order.
    public func hopLines(_ reasons: [(side: HopSide, reason: ModeNote)], nextToOwnNode ordinal: Int) -> [String] {
        let shown = modeNotes
        return reasons.compactMap { side, reason -> (Int, String)? in
            guard let segment = stretch(side, ofOwnNode: ordinal)?.first(where: {
                      self.note(ofSegment: $0)?.mode?.givesTheSameReason(as: reason) == true && shown[$0] != nil }),
                  let note = shown[segment] else { return nil }
            return (segment, "segment \(segment + 1) \(note)")
        }.sorted { $0.0 < $1.0 }.map(\.1)
    }
}
