import Foundation

/// When one routing query should be anchored.
public enum LegTiming: Hashable, Sendable {
    /// Earliest arrival leaving at this instant.
    case departAt(Date)
    /// Latest departure still arriving by this instant.
    case arriveBy(Date)

    public var isDepartAt: Bool {
        if case .departAt = self { return true }
        return false
    }

    /// The instant the query is anchored at.
    public var date: Date {
        switch self {
        case .departAt(let date), .arriveBy(let date): date
        }
    }
}

/// One routing question for one segment.
public struct LegQuery: Hashable, Sendable {
    public var from: Place
    public var to: Place
    public var mode: TravelMode
    public var timing: LegTiming
    /// Walk durations (walk legs, and transit access/egress walks) are scaled by this pace.
    public var pace: WalkingPace
    /// Transit only: stops the journey must not board, alight or change at (the user removed
    /// them from the plan: "don't go via there"). Engines match them by position (a few metres).
    public var avoiding: [Coordinate]
    /// Walk and transit: step-free travel (the wheelchair street profile, the step-free timetable).
    public var access: AccessNeed
    /// Transit only: the traveller's places beyond `from` and `to` when those are stops inferred
    /// for them; the engine boards and alights only within its access radius of these.
    public var travellerEnds: TravellerEnds
    /// Transit only: the line (`TransitRide.lineName`) every ride must be of, nil for any: a line
    /// pin asks for that line's journeys, which another line may beat (trial 60 F1), so they are
    /// never among the answers to an ordinary query. Engines without it may ignore it.
    public var riding: String?

    public init(from: Place, to: Place, mode: TravelMode, timing: LegTiming, pace: WalkingPace,
                avoiding: [Coordinate] = [], access: AccessNeed = .any, travellerEnds: TravellerEnds = TravellerEnds(),
                riding: String? = nil) {
        self.from = from
        self.to = to
        self.mode = mode
        self.timing = timing
        self.pace = pace
        self.avoiding = avoiding
        self.access = access
        self.travellerEnds = travellerEnds
        self.riding = riding
    }
}

/// Why a routing engine gave no leg. `code` is stable and goes on the wire.
public enum RoutingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The engine knows the area but found no way (no service that day, disconnected roads).
    /// `searched`: the time the engine searched from (by, arriving), when the words name it
    /// ("no transit service leaving after 12:01"), so that a caller can say where it comes from.
    case noRoute(String, searched: Date? = nil)
    /// The area, or this mode in it, is not covered by any imported region or feed.
    case unsupportedInRegion(String)
    /// A point is more than the engine's snapping distance from any road.
    case noRoadNearby(String)
    /// The date is outside every feed's service period; the message names the period.
    case outsideServicePeriod(String)
    /// The engine itself failed (a worker crashed twice, a corrupt region).
    case engineFailure(String)
    /// The ends are farther apart in a straight line than anyone would go by this mode (a walk
    /// over 30 km, a bike ride over 100 km: `PlannerConfiguration.comparedDistanceLimits`), so
    /// it was not asked of any engine.
    case tooFar(mode: TravelMode, straightLineMetres: Double, limitMetres: Double)

    /// The words of the transit engine's `noRoute` when it found rides but each rides a hop that
    /// walking is no slower for: a walk so noted says that, not "no transit route found" before it.
    public static let onlyRidesWalkingBeats = "the only transit found rides a hop that walking is no slower for"

    public var code: String {
        switch self {
        case .noRoute: "no_route"
        case .unsupportedInRegion: "unsupported_in_region"
        case .noRoadNearby: "no_road_nearby"
        case .outsideServicePeriod: "outside_service_period"
        case .engineFailure: "engine_failure"
        case .tooFar: "too_far"
        }
    }

    public var message: String {
        switch self {
        case .noRoute(let m, _), .unsupportedInRegion(let m), .noRoadNearby(let m),
             .outsideServicePeriod(let m), .engineFailure(let m): m
        case let .tooFar(mode, straightLine, limit):
            "the ends are \(Self.kilometres(straightLine)) apart in a straight line, over the \(Self.kilometres(limit)) "
                + "up to which a \(mode == .bike ? "bike ride" : mode.rawValue) is worth computing"
        }
    }

    public var description: String { "\(code): \(message)" }

    /// "41.2 km", "30 km".
    private static func kilometres(_ metres: Double) -> String {
        let tenths = (metres / 100).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int(tenths / 10)) km" : "\(tenths / 10) km"
    }
}

/// The planner's only view of routing. Implementations live in outer modules
/// (Streets, Transit, and the daemon's router that dispatches between them).
public protocol RoutingPort: Sendable {
    /// One leg. Throws `RoutingError` (or `CancellationError`).
    func leg(for query: LegQuery) async throws -> RouteLeg
    /// Transit stops within `radius` metres, nearest first, at most `limit`.
    func nearbyStops(around coordinate: Coordinate, radius: Double, limit: Int) async throws -> [Place]
    /// Text place search, best first.
    func search(_ text: String, near: Coordinate?) async throws -> [Place]
    /// Up to `count` different legs for the question (transit: the next departures and the
    /// journeys with fewer transfers). Defaults to the one `leg(for:)` answer.
    func alternatives(for query: LegQuery, count: Int) async throws -> [RouteLeg]
    /// `leg`, a leg found earlier for `query`, as the live data sees its trips now: their live
    /// times, a cancellation, alerts (a transit engine with a realtime feed). Defaults to the
    /// leg unchanged.
    func liveLeg(_ leg: RouteLeg, for query: LegQuery) async -> RouteLeg
    /// Every call of the trip `ride` is on, in order, its run's times as the live data sees
    /// them; empty when the engine does not know the trip. Defaults to empty.
    func calls(ofTripOf ride: TransitRide) async -> [TripCall]
}

extension RoutingPort {
    public func liveLeg(_ leg: RouteLeg, for query: LegQuery) async -> RouteLeg { leg }

    public func calls(ofTripOf ride: TransitRide) async -> [TripCall] { [] }
}

/// "Now", injected so that tests control time.
public protocol WallClock: Sendable {
    func now() -> Date
}

/// The real clock, chosen by the composition root.
public struct SystemClock: WallClock {
    public init() {}
    public func now() -> Date { Date() }
}
