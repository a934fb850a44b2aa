import Foundation

/// Why a segment has its mode, as the planner judged it: what it decided (`kind`) and the
/// figures it decided on (the walk, the ride door to door, both counted from `from`). It is data,
/// stored as such (migration 0020), and put in words only when the plan is shown, from the leg
/// it sits under (`words(under:leaving:arriving:)`): a walk's minutes are that walk's, a ride's
/// door to door is that ride's from its own departure to its arrival, so a note never says a
/// figure judged before the legs were final (issue 39: "23 min door to door" of a 07:48 → 08:03
/// ride in a plan from 07:40). Nothing reads a note's words back.
public struct ModeNote: Hashable, Sendable, Codable {
    /// What the planner decided, and so what the note claims.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// Walked: walking takes no longer than the ride door to door (`Planner.walkOrRide`).
        case walkedNoSlower = "walked_no_slower"
        /// Walked: the ride walks farther to and from its stops than the whole way on foot.
        case walkedRideWalksFarther = "walked_ride_walks_farther"
        /// Walked: no ride was found (`noRide`: the transit answer's words, when it said more).
        case walkedNoTransitRoute = "walked_no_transit_route"
        /// Ridden: the ride door to door is faster than walking.
        case riddenFaster = "ridden_faster"
        /// Ridden: no walk was found.
        case riddenNoWalkingRoute = "ridden_no_walking_route"
        /// A ride the user chose although walking is no slower (`Planner.notingWalkingNoSlower`).
        case riddenWalkingNoSlower = "ridden_walking_no_slower"
        /// The first ride of a plan of two places by transit, where walking the whole way is no
        /// slower than the whole plan door to door (`Planner.notingWalkingNoSlowerEndToEnd`): its
        /// figures are the whole way's, not its segment's.
        case wholeWayWalkingNoSlower = "whole_way_walking_no_slower"
        /// Walked so that it does not take the pinned vehicle itself (`walkingTheWayToPinnedRides`).
        case wayToPinnedRide = "way_to_pinned_ride"
        case wayFromPinnedRide = "way_from_pinned_ride"
        /// Not driven: the car is not at hand, left behind on an earlier segment (`carLeftOnSegment`).
        case notDriven = "not_driven"

        /// The walk rule's reasons for a walk: a walk so noted is the planner's, judged again
        /// when its time moves (`RoutePlan.isPlannersWalk`).
        public var isWalkRule: Bool { [.walkedNoSlower, .walkedRideWalksFarther, .walkedNoTransitRoute].contains(self) }

        /// The mode the note explains; nil for a drive not taken (the mode it explains is any).
        var mode: TravelMode? {
            switch self {
            case .walkedNoSlower, .walkedRideWalksFarther, .walkedNoTransitRoute, .wayToPinnedRide, .wayFromPinnedRide: .walk
            case .riddenFaster, .riddenNoWalkingRoute, .riddenWalkingNoSlower, .wholeWayWalkingNoSlower: .transit
            case .notDriven: nil
            }
        }
    }

    public var kind: Kind
    /// The walk judged, in seconds, leaving at `from`.
    public var walking: TimeInterval?
    /// The ride judged door to door (its walks and waits included), in seconds from `from`.
    public var riding: TimeInterval?
    /// The moment both figures count from: when the traveller was at the segment's start.
    public var from: Date?
    /// How far the ride walks to and from its stops, and the whole way on foot, in metres.
    public var rideWalks: Double?
    public var walkDistance: Double?
    /// The transit answer's words when no ride was found ("no transit service leaving after …").
    public var noRide: String?
    /// A hop the car is not at hand for: the segment (0-based) on which the traveller left it
    /// (`RoutePlan.carLeft(before:)`), and that segment's mode (nil in notes stored before it was
    /// kept: a ride, the only one then).
    public var carLeftOnSegment: Int?
    public var carLeftBy: TravelMode?
    /// A note stored as words before migration 0020: shown as it was, its figures unknown, until
    /// its segment is asked again (`RoutePlan.forgettingStoredWords`).
    public var storedWords: String?
    /// The two places both figures were judged between (`Ground`): the segment's own ends, or a
    /// stretch's when a hop or a stretch was judged and its note put on its ride. Nil in notes
    /// stored before it was kept: of the segment they sit under.
    public var ground: Ground?

    public init(_ kind: Kind, walking: TimeInterval? = nil, riding: TimeInterval? = nil, from: Date? = nil,
                rideWalks: Double? = nil, walkDistance: Double? = nil, noRide: String? = nil,
                carLeftOnSegment: Int? = nil, carLeftBy: TravelMode? = nil, storedWords: String? = nil, ground: Ground? = nil) {
        self.kind = kind
        self.walking = walking
        self.riding = riding
        self.from = from
        self.rideWalks = rideWalks
        self.walkDistance = walkDistance
        self.noRide = noRide
        self.carLeftOnSegment = carLeftOnSegment
        self.carLeftBy = carLeftBy
        self.storedWords = storedWords
        self.ground = ground
    }

    /// Stored as before the car could be left by a walk (the segment's key is the one stored then).
    enum CodingKeys: String, CodingKey {
        case kind, walking, riding, from, rideWalks, walkDistance, noRide, carLeftBy, storedWords, ground
        case carLeftOnSegment = "carNotAtHandAfterRide"
    }

    /// This judgement, keeping what `earlier` said besides the walk rule's reason (the car not at
    /// hand, `judgingDrivesWithoutTheCar`) when a segment is judged again.
    func keeping(_ earlier: ModeNote?) -> ModeNote {
        var kept = self
        kept.carLeftOnSegment = earlier?.carLeftOnSegment
        kept.carLeftBy = earlier?.carLeftBy
        return kept
    }

    /// Whether `other` gives the same reason, whatever its figures (an edit's answer finds the
    /// segment that says a hop's reason once the plan is computed: `RoutePlan.hopLines`).
    public func givesTheSameReason(as other: ModeNote) -> Bool {
        kind == other.kind && noRide == other.noRide && carLeftOnSegment == other.carLeftOnSegment
    }

    /// The note in words, of a segment in mode `mode` with `leg` (nil: none yet), leaving at
    /// `leaving` and arriving at `arriving` as the plan shows it (nil: no time shown). Every
    /// figure is of what it sits under or says what it is of (issue 39 trial 54: "34 min door to
    /// door" under "transit 19 min" was the whole trip's): a walk's minutes are the walk leg's
    /// between those shown times (a wait at the stop after it is no walking); a ride's door to
    /// door is its leg's, from its departure to its arrival, the minutes its header shows; a ride
    /// judged against a walk is door to door from when the traveller was at the start, its wait
    /// included and said (`compare` asked at that second arrives then); a walk judged and not
    /// shown reads as `compare` shows it asked at a whole minute. Without a leg or times, the
    /// figures judged. Nil when the note is not true of the segment: it explains another mode,
    /// or the ride shown is no faster than the walk it was judged against, or the walk shown is
    /// slower than the ride it was judged against (it stays kept, and says so again once judged
    /// true). `ground`: the ground the figures were judged over when it is more than the segment
    /// (`ModeNote.ground`), as shown: a ride's door to door is then the ground's, from leaving its
    /// first place to arriving at its last, and said so ("from Pyynikintori to Hämeenpuisto"); a
    /// walk's own minutes are no figure of such a ground, and its note says nothing.
    public func words(mode: TravelMode, leg: RouteLeg?, leaving: Date?, arriving: Date?, ground: ShownGround? = nil) -> String? {
        if let explained = kind.mode, explained != mode { return nil }
        if let storedWords { return storedWords }
        if ground != nil, kind.mode == .walk, walking != nil || riding != nil { return nil }
        // A segment between two places at one spot walks 0 s: no mode is a reason to go nowhere
        // ("walking (0 min) is no slower than transit (10 min …)", trial 55 finding 4d). The whole
        // way of a plan is not a segment: that it walks in no time is its note's point.
        if walking == 0, kind != .wholeWayWalkingNoSlower, carLeftOnSegment == nil { return nil }
        let judgedFrom = from ?? Date(timeIntervalSinceReferenceDate: 0)
        func judged(_ seconds: TimeInterval) -> Int { ShownTime.minutes(from: judgedFrom, to: judgedFrom.addingTimeInterval(seconds)) }
        // The segment's own minutes, as its two shown times give them.
        var shown: Int?
        if let ground {
            shown = ground.leaving.flatMap { leaving in ground.arriving.map { ShownTime.minutes(from: leaving, to: $0) } }
        } else if let leg, mode == .walk, let leaving, let arriving {
            shown = ShownTime.minutes(from: leaving, to: min(arriving, leaving.addingTimeInterval(leg.expectedTravelTime)))
        } else if let leg, let departure = leg.departure ?? leaving, let arrival = leg.arrival ?? arriving {
            shown = ShownTime.minutes(from: departure, to: arrival)
        }
        let walked = shown ?? walking.map(judged), ridden = riding.map(judged)
        let judgedWalk = walking.map(Self.walkMinutes)
        let text = ShownTime.text(minutes:)
        let reason: String
        switch kind {
        case .walkedNoSlower:
            guard let walked, let ridden, walked <= ridden, isCountedNear(leaving: shown == nil ? nil : leaving) else { return nil }
            reason = "walked: walking (\(text(walked))) is no slower than transit (\(text(ridden)) door to door"
                + "\(rideCounted(against: shown == nil ? nil : leaving)), the wait for the ride included)"
        case .walkedRideWalksFarther:
            guard let rideWalks, let walkDistance, let walked else { return nil }
            reason = "walked: the ride walks \(Self.metres(rideWalks)) to and from its stops, "
                + "more than the whole way on foot (\(Self.metres(walkDistance)), \(text(walked)))"
        case .walkedNoTransitRoute where noRide == RoutingError.onlyRidesWalkingBeats:
            // Rides were found, each no faster than walking: said once (trial 55 finding 4b read "no
            // transit route found …: the only transit found rides a hop …").
            reason = "walked: every ride found rides a hop that walking is no slower for" + (walked.map { " (walking takes \(text($0)))" } ?? "")
        case .walkedNoTransitRoute:
            reason = "walked: no transit route found" + (walked.map { " (walking takes \(text($0)))" } ?? "")
                + (noRide.map { ": \($0)" } ?? "")
        case .riddenFaster:
            guard let ridden = shown ?? ridden, let judgedWalk, ridden < judgedWalk else { return nil }
            reason = "by transit: \(text(ridden)) door to door \(ground.map { "from \($0.from) to \($0.to)" } ?? "from its departure") "
                + "(walks and waits included) where walking takes \(text(judgedWalk))"
        case .riddenNoWalkingRoute:
            reason = "by transit: no walking route found"
        case .riddenWalkingNoSlower:
            guard let judgedWalk, let ridden else { return nil }
            // Judged from when the traveller can leave the segment's start: the wait before the ride leaves is said.
            if let ground {
                // Judged over the ground from when the traveller was at its first place: both figures say so.
                reason = "walking from \(ground.from) to \(ground.to) (\(text(judgedWalk))) is no slower than transit "
                    + "(\(text(ridden)) door to door from when you are at \(ground.from), walks and waits included)"
            } else {
                let wait = (leg?.departure ?? leaving).map { ShownTime.minutes(from: judgedFrom, to: $0) } ?? 0
                reason = "walking (\(text(judgedWalk))) is no slower than transit (\(text(ridden)) door to door"
                    + (wait > 0 ? ", its \(text(wait)) wait before it leaves included)" : ")")
            }
        case .wholeWayWalkingNoSlower:
            guard let judgedWalk, let ridden else { return nil }
            reason = "walking the whole way (\(text(judgedWalk))) is no slower than the whole plan by transit "
                + "(\(text(ridden)) door to door from when you can leave, waits included)"
        case .wayToPinnedRide:
            reason = "walked: the way to the pinned ride"
        case .wayFromPinnedRide:
            reason = "walked: the way from the pinned ride"
        case .notDriven:
            reason = "not driven"
        }
        guard let left = carLeftOnSegment else { return reason }
        let why = Self.carNotAtHand(after: carLeftBy ?? .transit, onSegment: left)
        return kind == .notDriven ? "\(reason): \(why)" : "\(reason); \(why)"
    }

    /// "the car is not at hand after the walk on segment 2": the segment (0-based) that left it behind.
    static func carNotAtHand(after mode: TravelMode, onSegment left: Int) -> String {
        "the car is not at hand after the \([TravelMode.walk: "walk", .bike: "bike ride"][mode] ?? "ride") on segment \(left + 1)"
    }

    /// From when a walk's ride was judged, said against the walk's shown departure `walkLeaves`:
    /// " from when the walk leaves", or how many minutes before or after (a walk timed back to a
    /// pin); "" when neither is known.
    func rideCounted(against walkLeaves: Date?) -> String {
        guard let from, let walkLeaves else { return "" }
        let offset = ShownTime.minute(from) - ShownTime.minute(walkLeaves)
        if offset == 0 { return " from when the walk leaves" }
        return " from \(ShownTime.text(minutes: abs(offset))) \(offset < 0 ? "before" : "after") the walk leaves"
    }

    /// Whether the ride was judged near enough to when the walk leaves (`walkLeaves`) to be said
    /// of it: from a wait at its start, not an hour away ("11 min door to door from 1 h 29 min
    /// before the walk leaves", a time the plan shows nowhere and a user cannot check, trial 55
    /// finding 4b). A judgement older than that is stale: the note waits until judged again.
    func isCountedNear(leaving walkLeaves: Date?) -> Bool {
        guard let from, let walkLeaves else { return true }
        return abs(walkLeaves.timeIntervalSince(from)) < Self.countedNear
    }

    /// How far from when a walk leaves its ride may have been judged and still be said of it.
    static let countedNear: TimeInterval = 30 * 60

    /// A walk judged and not shown, in minutes as `compare` shows it asked at a whole minute
    /// (`umctl compare A B --at 08:50`): its whole minutes ("< 1 min" there reads 1 min).
    static func walkMinutes(_ seconds: TimeInterval) -> Int {
        max(seconds > 0 ? 1 : 0, ShownTime.minutes(from: Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: seconds)))
    }

    /// "300 m", "1.2 km": a walk's length as the notes give it.
    static func metres(_ distance: Double) -> String {
        distance < 1000 ? "\(Int(distance.rounded())) m" : String(format: "%.1f km", distance / 1000)
    }
}
