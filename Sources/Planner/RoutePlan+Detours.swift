import Foundation

/// A plan never walks (or drives) to a stop the planner inserted and straight back: P → X → P
/// with X inferred and no ride on either side is a detour that serves nothing.
extension RoutePlan {
    /// Removes every there-and-back detour through an inferred stop: P → X → P, X inferred (not
    /// the current location), neither segment transit nor pinned. X and one of the two P nodes go
    /// (the second, or the first when the second is the destination); the P kept takes the stay
    /// of the one removed when it has none. The legs around keep their keys and their legs
    /// (`Planner.computeLegs` asks the transit ones again: leaving out a detour makes the
    /// traveller earlier). A plan that is only P → X → P is left as it is (both ends would go).
    public func removingDetours() -> RoutePlan {
        var plan = self
        var index = 1
        while index < plan.nodes.count - 1 {
            guard plan.isDetour(at: index), plan.nodes.count > 3 else { index += 1; continue }
            let last = index + 1 == plan.nodes.count - 1
            let removed = last ? index - 1 : index + 1     // the P that goes
            let kept = last ? index + 1 : index - 1
            var nodes = plan.nodes, modes = plan.modes, legs = plan.legs
            if nodes[kept].stay == nil { nodes[kept].stay = nodes[removed].stay }
            // Either way the segments to X and back go; the one into the first P (or out of the
            // second) joins the same two places as before, so it keeps its key, lock and leg.
            nodes.removeSubrange(min(index, removed)...max(index, removed))
            modes.removeSubrange((index - 1)...index)
            legs.removeSubrange((index - 1)...index)
            plan.replaceStructure(nodes: nodes, modes: modes, legs: legs)
            plan.pruneDetachedState()
            index = max(1, index - 1)
        }
        return plan
    }

    /// Whether node `index` is the middle of a there-and-back detour (see `removingDetours`).
    func isDetour(at index: Int) -> Bool {
        guard index > 0, index < nodes.count - 1 else { return false }
        let node = nodes[index]
        return node.isInferred && !node.isCurrentLocation
            && nodes[index - 1].place.id == nodes[index + 1].place.id
            && modes[index - 1] != .transit && modes[index] != .transit
            && !isPinned(segment: index - 1) && !isPinned(segment: index)
    }

    /// Whether the plan has a there-and-back detour through an inferred stop anywhere.
    public var hasDetour: Bool {
        (1..<max(1, nodes.count - 1)).contains(where: isDetour(at:))
    }
}
