import Foundation
import Planner

/// Planner overhead with an instant in-memory routing port (no engine): how much the planning
/// itself costs per computeLegs / refine / link, and RDP throughput on a long polyline.
func runPlannerSuite() async throws -> SuiteReport {
    var report = SuiteReport(suite: "planner")
    let port = InstantRoutingPort()
    let planner = Planner(routing: port, clock: SystemClock())
    let start = Date(timeIntervalSince1970: 1_641_974_400)

    // A 7-segment plan along a line, every leg empty.
    let places = (0..<8).map { InstantRoutingPort.place("P\($0)", east: Double($0) * 3_000) }
    let modes: [TravelMode] = [.walk, .transit, .walk, .transit, .walk, .car, .walk]
    let empty = try RoutePlan(nodes: places.map { PlanNode(place: $0) }, modes: modes, timePreference: .departAt(start))

    var computeTimes: [Double] = []
    var computed = empty
    for _ in 0..<2_000 {
        let (plan, seconds) = try await timeAsync { try await planner.computeLegs(empty) }
        computed = plan
        computeTimes.append(seconds)
    }
    report.addLatencies("computeLegs 7 segments", computeTimes)

    var refineTimes: [Double] = []
    var queries = 0
    for _ in 0..<300 {
        let (result, seconds) = try await timeAsync { try await planner.refineCounting(computed, depth: 2) }
        queries = result.queries
        refineTimes.append(seconds)
    }
    report.addLatencies("refine depth 2 worst case", refineTimes)
    report.add("routing queries per refine", Double(queries), unit: "count")

    let tokyo = TimeZone(identifier: "Asia/Tokyo") ?? TimeZone.current
    var linkTimes: [Double] = []
    for index in 0..<5_000 {
        let (_, seconds) = try time { try GoogleMapsLink.build(plan: computed, segment: index % 7, timeZone: tokyo) }
        linkTimes.append(seconds)
    }
    report.addLatencies("Google Maps link", linkTimes)

    var generator = SeededGenerator(seed: 42)
    let line = (0..<200_000).map { i -> Coordinate in
        let jitter = Double.random(in: -8...8, using: &generator)
        return InstantRoutingPort.place("", east: Double(i) * 2, north: 30 * sin(Double(i) / 500) + jitter).coordinate
    }
    let (kept, rdpSeconds) = time { simplify(line, toleranceMetres: 5) }
    report.add("RDP 200k points, 5 m", rdpSeconds * 1000, unit: "ms")
    report.add("RDP throughput", Double(line.count) / rdpSeconds, unit: "points/s")
    report.notes["rdp kept"] = "\(kept.count) of \(line.count)"
    report.notes["port"] = "in-memory, answers instantly: figures are planner overhead only"
    return report
}

/// Answers every question instantly from geometry: walk 80 m/min, car 600 m/min, transit
/// 300 m/min leaving when asked; a stop every 400 m along the line. Never splits anything.
struct InstantRoutingPort: RoutingPort {
    static func place(_ name: String, east: Double, north: Double = 0) -> Place {
        let metresPerDegree = Coordinate.earthRadiusMetres * .pi / 180
        return Place(name: name, coordinate: Coordinate(latitude: 61.4981 + north / metresPerDegree,
                                                        longitude: 23.761 + east / (metresPerDegree * cos(61.4981 * .pi / 180))))
    }

    func leg(for query: LegQuery) async throws -> RouteLeg {
        let metres = query.from.coordinate.distance(to: query.to.coordinate)
        switch query.mode {
        case .walk:
            return RouteLeg(mode: .walk, expectedTravelTime: metres / 80 * 60 * query.pace.durationMultiplier, distance: metres)
        case .car:
            return RouteLeg(mode: .car, expectedTravelTime: metres / 600 * 60 + 120, distance: metres)
        case .bike:
            return RouteLeg(mode: .bike, expectedTravelTime: metres / 250 * 60, distance: metres)
        case .transit:
            let seconds = metres / 300 * 60 + 300
            switch query.timing {
            case .departAt(let date):
                return RouteLeg(mode: .transit, expectedTravelTime: seconds, distance: metres, departure: date,
                                arrival: date.addingTimeInterval(seconds))
            case .arriveBy(let date):
                return RouteLeg(mode: .transit, expectedTravelTime: seconds, distance: metres,
                                departure: date.addingTimeInterval(-seconds), arrival: date)
            }
        }
    }

    func nearbyStops(around coordinate: Coordinate, radius: Double, limit: Int) async throws -> [Place] {
        let origin = Self.place("", east: 0).coordinate
        let east = origin.distance(to: Coordinate(latitude: origin.latitude, longitude: coordinate.longitude))
        let nearest = (east / 400).rounded()
        return (-3...3).map { Self.place("Stop \(Int(nearest) + $0)", east: (nearest + Double($0)) * 400) }
            .filter { $0.coordinate.distance(to: coordinate) <= radius }
            .sorted { $0.coordinate.distance(to: coordinate) < $1.coordinate.distance(to: coordinate) }
            .prefix(limit).map { $0 }
    }

    func search(_ text: String, near: Coordinate?) async throws -> [Place] { [] }
}
