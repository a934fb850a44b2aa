import Foundation

extension RouteLeg {
    /// The first change a realtime feed broke: the ride (index ≥ 1) that leaves its stop before
    /// the traveller, off the ride before it and through the change's walk, can be there, and
    /// when they can. Only live times break a change (the engine's own journeys hold theirs);
    /// nil when every change holds (trial 58 F1: bus 19 delayed 4 min got the traveller to
    /// Kivikirkko at 09:35, bus 6 left 09:33, and the pinned journey was shown as caught).
    public var brokenChange: (ride: Int, reached: Date)? { firstChangeMissed(liveOnly: true) }

    /// Whether every change still gets the traveller to the next ride: off the ride before and
    /// through the change's walk (at the leg's pace) by the time it leaves, whatever gave the
    /// times. A pinned journey kept at another pace (`walked(timesAsLong:)`) may no longer make
    /// a change between two stops: then it is not the journey the traveller can take.
    public var changesHold: Bool { firstChangeMissed(liveOnly: false) == nil }

    /// The first ride (index ≥ 1) that leaves before the traveller, off the ride before it and
    /// through the change's walk, can be at its stop, and when they can; with `liveOnly`, only a
    /// change with a live time at either end counts. Nil when every change holds.
    private func firstChangeMissed(liveOnly: Bool) -> (ride: Int, reached: Date)? {
        guard mode == .transit, rides.count > 1 else { return nil }
        let changes = walks.filter { $0.kind == .transfer }
        for index in 1..<rides.count {
            let (off, on) = (rides[index - 1].alighting, rides[index].boarding)
            guard !liveOnly || off.isRealtime || on.isRealtime else { continue }
            let walk = changes.indices.contains(index - 1) ? changes[index - 1].duration : 0
            let reached = off.time.addingTimeInterval(walk)
            if on.time < reached.addingTimeInterval(-RoutePlan.connectionSlack) { return (index, reached) }
        }
        return nil
    }
}
