import Foundation

/// A mode change that joins segments (a walk set across an inferred stop, a ride joined with the
/// walk to its stop) changes the numbers of the segments after it: `plan mode ID 2 walk` then
/// `plan mode ID 2 transit` meant another leg the second time (trial 50). The answer says the
/// numbering changed and what the segment the user changed is now, so the next command can
/// name what they mean (docs/planner.md, "Segment numbers after an edit").
extension RoutePlan {
    /// One line when `changed` (segment `index` of this plan, from 0) has another number of
    /// segments, else none: "segments renumbered (5 → 3): segment 2 is now Koskipuisto D →
    /// Hervanta by walk; the later ones moved down by 2" (the last clause when there are any).
    public func renumberingLines(after changed: RoutePlan, changedSegment index: Int) -> [String] {
        guard changed.segmentCount != segmentCount, nodes.indices.contains(index) else { return [] }
        // The segment the user changed starts, now, at the last of the nodes up to its old start still there.
        let kept = Set(changed.nodes.map(\.place.id))
        guard let start = nodes[...index].last(where: { kept.contains($0.place.id) }),
              var now = changed.nodes.firstIndex(where: { $0.place.id == start.place.id }),
              now < changed.segmentCount else { return [] }
        // A ride set by hand that walks to a stop the change put in (`walkingToItsStops`) is the
        // segment after that walk.
        let before = Set(nodes.map(\.place.id))
        if now + 1 < changed.segmentCount, changed.modes[now] == .walk, changed.modes[now + 1] == .transit,
           changed.nodes[now + 1].isInferred, !before.contains(changed.nodes[now + 1].place.id) {
            now += 1
        }
        let names = changed.shownNodeNames
        let shift = segmentCount - changed.segmentCount
        // The later segments, if any, moved by the same number.
        let later = now + 1 == changed.segmentCount || index + 1 >= segmentCount ? ""
            : shift > 0 ? "; the later ones moved down by \(shift)" : "; the later ones moved up by \(-shift)"
        return ["segments renumbered (\(segmentCount) → \(changed.segmentCount)): segment \(now + 1) is now "
                + "\(names[now]) → \(names[now + 1]) by \(changed.modes[now].rawValue)\(later)"]
    }
}
