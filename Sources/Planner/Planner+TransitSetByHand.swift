import Foundation

/// `plan mode ID N transit` on the walk to a pinned ride (docs/planner.md, "Beside a pin the walk
/// would miss"): joined, the pinned ride keeps the user's leg with the walk as its access walk,
/// which is sound only when the traveller can make that walk. When they can't, the segment rides
/// to the pin's stop on its own (`RoutePlan.changingMode(…, now:)`), and the pin is missed there.
extension Planner {
    /// Segment `index` of `plan` set to transit by hand at the planner's clock and computed by
    /// `compute`. Kept apart from a pin its walk would miss, its ride may still board the pinned
    /// vehicle itself, upstream of the pin's stop: one trip would run through two segments, so the
    /// walk then joins the pinned ride as when the traveller can make it.
    public func settingTransitByHand(ofSegment index: Int, in plan: RoutePlan, stopsAround: [AccessStops],
                                     compute: (RoutePlan) async throws -> LegComputation) async throws -> LegComputation {
        let changed = try plan.changingMode(ofSegment: index, to: .transit, stopsAround: stopsAround, now: clock.now())
        let computed = try await compute(changed)
        guard computed.plan.ridesAPinnedVehicleOffItsPin,
              let joined = pinJoinedInstead(settingTransit: index, in: plan, stopsAround: stopsAround) else { return computed }
        return try await compute(joined)
    }

    /// Whether setting segment `index` to transit keeps it apart from a pinned ride its walk would miss.
    public func keepsAPinApart(settingTransit index: Int, in plan: RoutePlan, stopsAround: [AccessStops]) -> Bool {
        pinJoinedInstead(settingTransit: index, in: plan, stopsAround: stopsAround) != nil
    }

    /// The change joining the pinned ride whatever the time, when the change at the planner's
    /// clock keeps it apart; nil when both are the same.
    private func pinJoinedInstead(settingTransit index: Int, in plan: RoutePlan, stopsAround: [AccessStops]) -> RoutePlan? {
        guard let apart = try? plan.changingMode(ofSegment: index, to: .transit, stopsAround: stopsAround, now: clock.now()),
              let joined = try? plan.changingMode(ofSegment: index, to: .transit, stopsAround: stopsAround),
              joined.segmentCount != apart.segmentCount else { return nil }
        return joined
    }
}
