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
        /// "by transit: 12 min door to door (walks and waits included) where walking takes 28 min", "walked: walking (6 min) is no
        /// slower than transit (9 min)"; nil when the mode was kept without asking.
        public var reason: String?
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
                let note = pinned.map { stop, ride in ride == stop ? RoutePlan.wayToPinnedRideNote : RoutePlan.wayFromPinnedRideNote }
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
        async throws -> (mode: TravelMode, reason: String?, duration: TimeInterval?) {
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
    /// neither is found. The reason is what the segment says, its minutes read as the legs'
    /// (`ShownTime`): both options leaving at `leaving`.
    static func walkOrRide(walking: TimeInterval?, riding: TimeInterval?, inherited: TravelMode, leaving: Date,
                           distances: WalkedDistances? = nil) -> (mode: TravelMode, reason: String?) {
        func shown(_ seconds: TimeInterval) -> String { ShownTime.text(from: leaving, to: leaving.addingTimeInterval(seconds)) }
        if let walking, let riding, walking > riding, let distances, distances.riding > distances.walking {
            return (.walk, WalkRuleReason.rideWalksFarther + "\(metres(distances.riding)) to and from its stops, "
                        + "more than the whole way on foot (\(metres(distances.walking)), \(shown(walking)))")
        }
        switch (walking, riding) {
        case let (walking?, riding?) where walking <= riding:
            return (.walk, WalkRuleReason.walked + walkingIsNoSlower(walking: walking, riding: riding, leaving: leaving))
        case let (walking?, riding?):
            // Door to door is more than the ride's own minutes that its segment shows: say so (issue 39).
            return (.transit, "by transit: \(shown(riding)) door to door (walks and waits included) where walking takes \(shown(walking))")
        case let (walking?, nil):
            return (.walk, WalkRuleReason.noRoute + " (walking takes \(shown(walking)))")
        case (nil, _?):
            return (.transit, "by transit: no walking route found")
        case (nil, nil):
            return (inherited, nil)
        }
    }

    /// How far `ride` walks against how far `walk` is; nil without both (or a walk of no length).
    static func walkedDistances(of ride: RouteLeg?, against walk: RouteLeg?) -> WalkedDistances? {
        guard let ride, let walking = walk?.distance, walking > 0, !ride.rides.isEmpty else { return nil }
        return WalkedDistances(riding: ride.walks.reduce(0) { $0 + $1.distance }, walking: walking)
    }

    /// "300 m", "1.2 km": a walk's length as the reasons give it.
    static func metres(_ distance: Double) -> String {
        distance < 1000 ? "\(Int(distance.rounded())) m" : String(format: "%.1f km", distance / 1000)
    }

    /// How the walk rule's reasons for a walk begin (`walkOrRide` writes them from `WalkRuleReason`),
    /// and nothing else the planner notes: a walk so noted is the planner's, judged again when its
    /// time moves.
    static let walkRuleReasonPrefixes = [WalkRuleReason.walked + "walking (", WalkRuleReason.rideWalksFarther,
                                         WalkRuleReason.noRoute]

    /// The beginnings of the walk rule's reasons for a walk, written and recognised from here.
    enum WalkRuleReason {
        static let walked = "walked: "
        static let rideWalksFarther = "walked: the ride walks "
        static let noRoute = "walked: no transit route found"
    }

    /// "walking (6 min) is no slower than transit (9 min)": the walk and the ride door to door,
    /// both leaving at `leaving`, in minutes as a leg between its two shown times reads (the
    /// difference of the minutes shown, not the seconds rounded), so the note says what the
    /// walk leg beside it shows.
    static func walkingIsNoSlower(walking: TimeInterval, riding: TimeInterval, leaving: Date) -> String {
        "walking (\(ShownTime.text(from: leaving, to: leaving.addingTimeInterval(walking)))) is no slower than transit "
            + "(\(ShownTime.text(from: leaving, to: leaving.addingTimeInterval(riding))))"
    }

    /// A walk rule's reason for a walk, its walking minutes read as `shown` (the walk computed for
    /// it, as its segment shows it): the rule judged the same walk leaving at another second (an
    /// inserted or moved hop's, a day's hop no line serves, asked before the edit's legs were
    /// computed), which may read a minute more or less. The ride it names is read as no faster
    /// than that walk (as `notingWalkedHopsAsShown` has it). Any other note as it is.
    static func walkRuleReason(_ note: String, readAs shown: String) -> String {
        // Where each reason gives the walk's minutes: just before the ")" after these words.
        let openings = [WalkRuleReason.walked + "walking (", WalkRuleReason.noRoute + " (walking takes ",
                        "more than the whole way on foot ("]
        guard Planner.walkRuleReasonPrefixes.contains(where: { note.hasPrefix($0) }),
              let opening = openings.lazy.compactMap({ note.range(of: $0) }).first,
              let close = note[opening.upperBound...].firstIndex(of: ")") else { return note }
        let figure = note[opening.upperBound..<close]
        let start = figure.range(of: ", ", options: .backwards)?.upperBound ?? figure.startIndex  // "93 m, 1 min"
        var read = note
        read.replaceSubrange(start..<close, with: shown)
        let transit = ") is no slower than transit ("
        guard note.hasPrefix(WalkRuleReason.walked + "walking ("), let ride = read.range(of: transit),
              let rideClose = read[ride.upperBound...].firstIndex(of: ")"),
              let riding = minutes(read[ride.upperBound..<rideClose]), let walking = minutes(Substring(shown)), riding < walking
        else { return read }
        read.replaceSubrange(ride.upperBound..<rideClose, with: shown)
        return read
    }

    /// The minutes of a duration as `ShownTime.text` writes it ("1 h 03 min", "8 min", "< 1 min").
    private static func minutes(_ text: Substring) -> Int? {
        if text == "< 1 min" { return 0 }
        let numbers = text.split(separator: " ").compactMap { Int($0) }
        switch numbers.count {
        case 1: return numbers[0]
        case 2: return numbers[0] * 60 + numbers[1]
        default: return nil
        }
    }

    /// Whether a walk's mode note is `walkOrRide`'s for a ride that walks farther than the hop.
    static func isRideWalksFartherNote(_ note: String) -> Bool { note.hasPrefix(WalkRuleReason.rideWalksFarther) }

    /// Whether a ride's mode note is `walkingIsNoSlower`'s, the note of a ride kept although
    /// walking is no slower (not the reason a move or an insert gave the ride).
    static func isWalkingNoSlowerNote(_ note: String) -> Bool {
        note.hasPrefix("walking (") && note.contains(") is no slower than transit (")
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
