import Foundation

/// The drawable lines of a plan, in travel order: one per walk or car leg, and for a transit leg
/// its access walk, each ride, each change's walk and its egress walk. Built once and shared by
/// `plan show --geometry`, the GeoJSON and GPX exports and the map picture.
///
/// ```swift
/// let geometry = PlanGeometry(plan: plan, times: plan.schedule(), toleranceMetres: 5) { ride in
///     shapes.line(of: ride)   // nil: the ride is drawn through its stops
/// }
/// ```
public struct PlanGeometry: Hashable, Sendable {
    /// Metres used by `plan show --geometry` and the exports when none is asked for.
    public static let defaultToleranceMetres = 5.0

    public struct Node: Hashable, Sendable {
        public var name: String
        public var coordinate: Coordinate
        public var time: Date?
    }

    /// Which part of a segment a line draws.
    public enum Part: Hashable, Sendable {
        /// A walk or car leg as a whole.
        case leg
        /// The ride at this index in `RouteLeg.rides`.
        case ride(Int)
        /// The walk at this index in `RouteLeg.walks`.
        case walk(Int)
    }

    public struct Line: Hashable, Sendable {
        /// 0-based segment of the plan.
        public var segment: Int
        public var part: Part
        /// `walk` for every walk (also those inside a transit leg), `car`, or `transit` for a ride.
        public var mode: TravelMode
        /// A ride's line name ("3").
        public var lineName: String?
        /// A ride's colour as GTFS `route_color` gives it (six hex digits), when the feed has one.
        public var color: String?
        public var departure: Date?
        public var arrival: Date?
        /// Metres along the unsimplified line (the engine's figure for walk and car legs).
        public var distance: Double?
        public var points: [Coordinate]

        public var duration: TimeInterval? {
            guard let departure, let arrival else { return nil }
            return arrival.timeIntervalSince(departure)
        }
    }

    /// A ride's line as the feed draws it (`shapes.txt`), cut to the part between its stops.
    public struct RideShape: Hashable, Sendable {
        public var points: [Coordinate]
        public var color: String?

        public init(points: [Coordinate], color: String?) {
            self.points = points
            self.color = color
        }
    }

    public var nodes: [Node]
    public var lines: [Line]

    /// - parameter times: the plan's schedule (`RoutePlan.schedule`), one per node.
    /// - parameter toleranceMetres: Ramer–Douglas–Peucker tolerance; 0 keeps every point.
    /// - parameter rideShape: the feed's shape of a ride; nil draws the ride through its stops.
    public init(plan: RoutePlan, times: [Date?], toleranceMetres: Double,
                rideShape: (TransitRide) -> RideShape? = { _ in nil }) {
        nodes = plan.nodes.enumerated().map { index, node in
            Node(name: node.place.name, coordinate: node.place.coordinate,
                 time: times.indices.contains(index) ? times[index] : nil)
        }
        var lines: [Line] = []
        for (segment, leg) in plan.legs.enumerated() {
            guard let leg else { continue }
            let start = leg.departure ?? (times.indices.contains(segment) ? times[segment] : nil)
            let end = leg.arrival ?? (times.indices.contains(segment + 1) ? times[segment + 1] : nil)
            guard leg.mode == .transit, !leg.rides.isEmpty else {
                let from = plan.nodes[segment].place.coordinate, to = plan.nodes[segment + 1].place.coordinate
                let points = leg.geometry.count >= 2 ? leg.geometry : [from, to]
                lines.append(Line(segment: segment, part: .leg, mode: leg.mode, departure: start, arrival: end,
                                  distance: leg.distance, points: simplify(points, toleranceMetres: toleranceMetres)))
                continue
            }
            let stopLines = Self.ridesThroughStops(leg)
            var nextWalk = 0
            func appendWalk() {
                guard nextWalk < leg.walks.count else { return }
                let walk = leg.walks[nextWalk]
                lines.append(Line(segment: segment, part: .walk(nextWalk), mode: .walk, departure: walk.start,
                                  arrival: walk.start.addingTimeInterval(walk.duration), distance: walk.distance,
                                  points: simplify(Self.streetLine(of: walk, in: leg), toleranceMetres: toleranceMetres)))
                nextWalk += 1
            }
            for (index, ride) in leg.rides.enumerated() {
                appendWalk()  // the access walk, then each change's walk
                let shape = rideShape(ride)
                let points = shape.map(\.points).flatMap { $0.count >= 2 ? $0 : nil } ?? stopLines[index]
                lines.append(Line(segment: segment, part: .ride(index), mode: .transit, lineName: ride.lineName,
                                  color: shape?.color, departure: ride.boarding.time, arrival: ride.alighting.time,
                                  distance: Self.length(points),
                                  points: simplify(points, toleranceMetres: toleranceMetres)))
            }
            while nextWalk < leg.walks.count { appendWalk() }  // the egress walk
        }
        self.lines = lines
    }

    /// The line of a walk inside a transit leg: for the walk to the first stop (from the last),
    /// the leg's geometry up to that stop (from it), which is the street line when the daemon
    /// timed the walk on the streets (`RouteLeg.withStreetEndWalks`); else, and for a change,
    /// the straight line between its ends.
    static func streetLine(of walk: TransitWalkStep, in leg: RouteLeg) -> [Coordinate] {
        let straight = [walk.from, walk.to]
        switch walk.kind {
        case .access:
            guard leg.geometry.first == walk.from, let stop = leg.geometry.firstIndex(of: walk.to), stop >= 1 else { return straight }
            return Array(leg.geometry[...stop])
        case .egress:
            guard leg.geometry.last == walk.to, let stop = leg.geometry.lastIndex(of: walk.from),
                  stop < leg.geometry.count - 1 else { return straight }
            return Array(leg.geometry[stop...])
        case .transfer:
            return straight
        }
    }

    /// Each ride's stops in order, cut out of the transit leg's geometry (the engine lays out the
    /// origin, every stop passed by each ride, then the destination), from its boarding to its
    /// alighting stop; two points when the geometry does not hold them.
    static func ridesThroughStops(_ leg: RouteLeg) -> [[Coordinate]] {
        var cursor = 0
        return leg.rides.map { ride in
            let rest = leg.geometry[min(cursor, leg.geometry.count)...]
            guard let first = rest.firstIndex(of: ride.boarding.coordinate),
                  let last = leg.geometry[first...].dropFirst().firstIndex(of: ride.alighting.coordinate) else {
                return [ride.boarding.coordinate, ride.alighting.coordinate]
            }
            cursor = last + 1
            return Array(leg.geometry[first...last])
        }
    }

    static func length(_ points: [Coordinate]) -> Double {
        zip(points, points.dropFirst()).reduce(0) { $0 + $1.0.distance(to: $1.1) }
    }
}
