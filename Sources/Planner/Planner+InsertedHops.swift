import Foundation

/// The mode of a hop that a place inserted without a mode makes (`plan insert` with no
/// `--mode`), by the rule of presets and day plans: a hop is walked only when walking is no
/// slower, else it takes the faster mode, and it says why. The user's own mode always wins.
extension Planner {
    /// The mode chosen for one new segment, and why in the words the answer shows.
    public struct InsertedHop: Sendable, Equatable {
        /// The new segment (0-based) in the plan after the insert.
        public var segment: Int
        public var mode: TravelMode
        /// Why (`ModeNote`: ridden because faster, walked because no slower, …); nil when the
        /// mode was kept without asking.
        public var reason: ModeNote?
    }

    /// The modes of the segments that inserting `node` at `index` (as
    /// `RoutePlan.insertingNode(_:at:mode:hopModes:)`) makes in `plan`. A hop of a split walk or
    /// ride asks a walk and a ride leaving when the traveller is at its start (two queries a
    /// hop) and keeps the walk when it is no slower door to door (waiting included), else the
    /// ride. A split drive or bike ride stays one (the vehicle is at hand), and a hop to or from
    /// a stop the planner inferred for a ride stays a walk: it is the way to that ride (a ride
    /// there would split one trip across two segments); to (from) a pinned ride's stop, noted as
    /// the way to (from) the pinned ride, judged by the walk rule once computed.
    /// - throws: `PlannerError` for a bad index, `CancellationError`.
    public func insertedHops(_ node: PlanNode, at index: Int, in plan: RoutePlan) async throws -> [InsertedHop] {
        guard (0...plan.nodes.count).contains(index) else {
            throw PlannerError.nodeIndexOutOfRange(index: index, nodeCount: plan.nodes.count)
        }
        // The split segment, and the nodes the new hops join (`nil`: the inserted node).
        let split: Int, ends: [(from: Int?, to: Int?)]
        if index == 0 {
            (split, ends) = (0, [(nil, 0)])
        } else if index == plan.nodes.count {
            (split, ends) = (plan.segmentCount - 1, [(index - 1, nil)])
        } else {
            (split, ends) = (index - 1, [(index - 1, nil), (nil, index)])
        }
        let inherited = plan.modes[split]
        let first = index == 0 ? 0 : index - 1
        guard inherited == .walk || inherited == .transit else {
            return ends.indices.map { InsertedHop(segment: first + $0, mode: inherited, reason: nil) }
        }
        let now = clock.now()
        var cursor = (index == 0 ? nil : plan.departureTimes(startingAt: now)[split]) ?? plan.earliestDeparture(now: now) ?? now
        var hops: [InsertedHop] = []
        for (offset, end) in ends.enumerated() {
            let from = end.from.map { plan.nodes[$0].place } ?? node.place, to = end.to.map { plan.nodes[$0].place } ?? node.place
            let rides = [end.from.map { ($0, $0 - 1) }, end.to.map { ($0, $0) }].compactMap { $0 }.filter { stop, other in
                plan.nodes[stop].isInferred && plan.modes.indices.contains(other) && other != split && plan.modes[other] == .transit
            }
            if !rides.isEmpty, inherited == .walk {
                // A pinned ride keeps its stop, however far from the inserted place: the way there
                // is judged once computed, ridden on another vehicle when walking is slower
                // (`judgingPlannersWalksAgain`; issue 39: 1 h 13 min walked from Lielahti).
                let pinned = rides.first { plan.isPinned(segment: $0.1) }
                let note = pinned.map { stop, ride in ModeNote(ride == stop ? .wayToPinnedRide : .wayFromPinnedRide) }
                hops.append(InsertedHop(segment: first + offset, mode: .walk, reason: note))
                continue
            }
            let hop = try await fasterOfWalkAndRide(from: from, to: to, leavingAt: cursor, plan: plan, inherited: inherited)
            hops.append(InsertedHop(segment: first + offset, mode: hop.mode, reason: hop.reason))
            cursor = cursor.addingTimeInterval(hop.duration ?? 0)
        }
        return hops
    }

    /// Walk or ride from `from` to `to` leaving at `date`: the walk when it is no slower than the
    /// ride door to door, else the ride; `inherited` when neither is found.
    func fasterOfWalkAndRide(from: Place, to: Place, leavingAt date: Date, plan: RoutePlan, inherited: TravelMode)
        async throws -> (mode: TravelMode, reason: ModeNote?, duration: TimeInterval?) {
        func asked(_ mode: TravelMode) async throws -> RouteLeg? {
            let query = LegQuery(from: from, to: to, mode: mode, timing: .departAt(date), pace: plan.pace, access: plan.access)
            if case .success(let found) = try await self.leg(for: query) { return found }
            return nil
        }
        let walk = try await asked(.walk), ride = try await asked(.transit)
        let walking = walk?.expectedTravelTime
        let riding = ride.map { $0.arrival?.timeIntervalSince(date) ?? $0.expectedTravelTime }
        let choice = Self.walkOrRide(walking: walking, riding: riding, inherited: inherited, leaving: date,
                                     distances: Self.walkedDistances(of: ride, against: walk))
        return (choice.mode, choice.reason, choice.mode == .walk ? walking : riding)
    }

    /// How far a ride walks (its access, transfer and egress walks, all its stretch's walks) and
    /// how far walking the hop is: `walkOrRide` walks a hop whose ride walks farther.
    public struct WalkedDistances: Sendable, Equatable {
        public var riding: Double
        public var walking: Double

        public init(riding: Double, walking: Double) {
            self.riding = riding
            self.walking = walking
        }
    }

    /// The one rule of inserted hops, presets, day plans and the rides an edit computes: a hop is
    /// walked when walking takes no longer than the ride door to door (waiting included), when
    /// the ride walks farther to and from its stops than walking the whole hop (it takes the
    /// traveller away to walk back: bus 8 one stop from Pyynikintori E, then 393 m back to
    /// Pyynikintori, 93 m away), or when no ride is found; else it rides. `inherited` when
    /// neither is found. The reason is the judgement with its figures, both options leaving at
    /// `leaving` (`ModeNote`, put in words from the leg computed when the plan is shown).
    static func walkOrRide(walking: TimeInterval?, riding: TimeInterval?, inherited: TravelMode, leaving: Date,
                           distances: WalkedDistances? = nil) -> (mode: TravelMode, reason: ModeNote?) {
        func note(_ kind: ModeNote.Kind) -> ModeNote { ModeNote(kind, walking: walking, riding: riding, from: leaving) }
        if let walking, let riding, walking > riding, let distances, distances.riding > distances.walking {
            var farther = note(.walkedRideWalksFarther)
            farther.rideWalks = distances.riding
            farther.walkDistance = distances.walking
            return (.walk, farther)
        }
        switch (walking, riding) {
        case let (walking?, riding?) where walking <= riding: return (.walk, note(.walkedNoSlower))
        case (_?, _?): return (.transit, note(.riddenFaster))
        case (_?, nil): return (.walk, note(.walkedNoTransitRoute))
        case (nil, _?): return (.transit, note(.riddenNoWalkingRoute))
        case (nil, nil): return (inherited, nil)
        }
    }

    /// How far `ride` walks against how far `walk` is; nil without both (or a walk of no length).
    static func walkedDistances(of ride: RouteLeg?, against walk: RouteLeg?) -> WalkedDistances? {
        guard let ride, let walking = walk?.distance, walking > 0, !ride.rides.isEmpty else { return nil }
        return WalkedDistances(riding: ride.walks.reduce(0) { $0 + $1.distance }, walking: walking)
    }

    /// The note of a ride the user chose although walking (`walking`) is no slower than it door
    /// to door (`riding`), both leaving at `leaving`.
    static func walkingIsNoSlower(walking: TimeInterval, riding: TimeInterval, leaving: Date) -> ModeNote {
        ModeNote(.riddenWalkingNoSlower, walking: walking, riding: riding, from: leaving)
    }
}

extension RoutePlan {
    /// The answer's words for the hops of inserting a node at `index` of this plan, as `inserted`
    /// (its result, computed) numbers its segments (`hopLines`): "segment 3 by transit: …".
    public func insertedHopLines(_ hops: [Planner.InsertedHop], at index: Int, in inserted: RoutePlan) -> [String] {
        inserted.hopLines(hops.compactMap { hop in hop.reason.map { (hop.segment < index ? .before : .after, $0) } },
                          nextToOwnNode: ownNodes(before: index))
    }
}
