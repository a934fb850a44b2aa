import Foundation

/// A plan never walks (or drives) to a stop the planner inserted and straight back: P → X → P
/// with X inferred and no ride on either side is a detour that serves nothing.
extension RoutePlan {
    /// Removes every there-and-back detour through an inferred stop: P → X → P, X inferred (not
    /// the current location), neither segment transit nor pinned. X and one of the two P nodes go
    /// (the second, or the first when the second is the destination); the P kept takes the stay
    /// of the one removed when it has none. The legs around keep their keys and their legs
    /// (`Planner.computeLegs` asks the transit ones it retimes again: leaving out a detour makes
    /// the traveller earlier). A plan that is only P → X → P is left as it is (both ends would go).
    public func removingDetours() -> RoutePlan {
        removingDetours(retimingTransit: false).plan
    }

    /// `removingDetours()`, also giving the segment of this plan each remaining segment was
    /// (`origins`). With `retimingTransit`, the transit legs (not pinned) a removal retimes are
    /// emptied: those timed through the P kept (`segmentsTimed(throughNode:)`: after it while
    /// timed forward, before it while timed back), where the traveller now is earlier (later),
    /// and those whose timing source the removal changed (a stay "until" that went with the P).
    func removingDetours(retimingTransit: Bool) -> (plan: RoutePlan, origins: [Int]) {
        var plan = self
        var origins = Array(0..<segmentCount)
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
            let step = Self.origins(count: plan.segmentCount, replacing: (index - 1)..<(index + 1), with: 0)
            let before = plan
            plan.replaceStructure(nodes: nodes, modes: modes, legs: legs, origins: step)
            origins.removeSubrange((index - 1)...index)
            if retimingTransit {
                // The P kept is node index - 1 now.
                for segment in plan.segmentsTimed(throughNode: index - 1)
                where plan.modes[segment] == .transit && !plan.isPinned(segment: segment) {
                    plan.legs[segment] = nil
                }
                plan.emptyLegsRetimed(since: before, origins: step)
            }
            index = max(1, index - 1)
        }
        return (plan, origins)
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
