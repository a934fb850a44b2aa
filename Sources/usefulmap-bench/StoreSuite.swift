import Foundation
import Planner
import Store

/// The `store` suite: latency of the user database's common operations on a real file in a
/// temporary directory (WAL, synchronous=FULL, so each write includes its fsyncs), through the
/// async API the daemon uses (so each figure includes the hop to the store's thread and back).
func runStoreSuite() async throws -> SuiteReport {
    var report = SuiteReport(suite: "store")
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("usefulmap-bench-store-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("usefulmap.sqlite").path
    let store = try Store(path: path)
    var random = SeededGenerator(seed: 2022_01_12)

    let plans = try (0..<200).map { _ in try benchmarkPlan(nodes: 10, pointsPerLeg: 150, using: &random) }
    var saveSeconds: [Double] = []
    var ids: [Int64] = []
    for (index, plan) in plans.enumerated() {
        let (id, seconds) = try await timeAsync { try await store.write(Plans.create(plan, title: "bench \(index)")) }
        ids.append(id)
        saveSeconds.append(seconds)
    }
    report.addLatencies("save 10-node plan with geometry", saveSeconds)

    var replaceSeconds: [Double] = []
    for (id, plan) in zip(ids, plans.reversed()) {
        replaceSeconds.append(try await timeAsync { try await store.write(Plans.save(id: id, plan: plan, title: "replaced", generation: 2)) }.1)
    }
    report.addLatencies("re-save (replace) 10-node plan", replaceSeconds)

    var loadSeconds: [Double] = []
    for id in ids { loadSeconds.append(try await timeAsync { _ = try await store.read(Plans.load(id)) }.1) }
    report.addLatencies("load 10-node plan with geometry", loadSeconds)

    // Fill up to 1,000 plans in total, then list them.
    let filler = try benchmarkPlan(nodes: 3, pointsPerLeg: 20, using: &random)
    for index in ids.count..<1000 { _ = try await store.write(Plans.create(filler, title: "filler \(index)")) }
    var listSeconds: [Double] = []
    for _ in 0..<100 {
        let (summaries, seconds) = try await timeAsync { try await store.read(Plans.list()) }
        guard summaries.count == 1000 else { throw BenchmarkFailure("listed \(summaries.count) plans, expected 1000") }
        listSeconds.append(seconds)
    }
    report.addLatencies("list 1,000 plans", listSeconds)

    var historySeconds: [Double] = []
    for index in 0..<500 {
        let place = Place(name: "Stop \(index)", coordinate: Coordinate(latitude: 61.45, longitude: 23.8), kind: .transitStop)
        let entry = SearchHistoryEntry(query: "stop \(index)", place: place, date: Date())
        historySeconds.append(try await timeAsync { try await store.write(History.recordSearch(entry)) }.1)
    }
    report.addLatencies("append search history entry (cap 20)", historySeconds)

    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    report.notes["database"] = "1,000 plans, main file \(size / 1024) KiB (plus WAL)"
    report.notes["plan"] = "10 nodes, 9 legs × 150 geometry points, transit legs with 2 rides"
    return report
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A plan like a real door-to-door trip: every leg computed, with geometry and, for transit, rides.
func benchmarkPlan(nodes count: Int, pointsPerLeg: Int, using random: inout SeededGenerator) throws -> RoutePlan {
    let start = Date(timeIntervalSinceReferenceDate: 663_660_000)
    let nodes = (0..<count).map { index in
        PlanNode(place: Place(name: "Place \(index) \(random.next() % 10_000)",
                              coordinate: Coordinate(latitude: 61.45 + Double.random(in: 0..<0.1, using: &random),
                                                     longitude: 23.7 + Double.random(in: 0..<0.2, using: &random)),
                              kind: .address))
    }
    let modes = (1..<count).map { $0.isMultiple(of: 3) ? TravelMode.transit : .walk }
    let legs: [RouteLeg?] = modes.enumerated().map { index, mode in
        let departure = start.addingTimeInterval(Double(index) * 900)
        let geometry = (0..<pointsPerLeg).map { _ in
            Coordinate(latitude: 61.45 + Double.random(in: 0..<0.1, using: &random),
                       longitude: 23.7 + Double.random(in: 0..<0.2, using: &random))
        }
        let rides = mode != .transit ? [] : (0..<2).map { ride in
            TransitRide(lineName: "\(ride + 3)", vehicle: "bus", headsign: "Hervanta", tripID: "trip-\(index)-\(ride)",
                        boarding: TransitStopCall(stopID: "\(1000 + ride)", name: "Stop A", coordinate: geometry[0],
                                                  time: departure),
                        alighting: TransitStopCall(stopID: "\(2000 + ride)", name: "Stop B", coordinate: geometry[1],
                                                   time: departure.addingTimeInterval(600)))
        }
        return RouteLeg(mode: mode, expectedTravelTime: 840, distance: 1200, departure: departure,
                        arrival: departure.addingTimeInterval(840), geometry: geometry, rides: rides)
    }
    return try RoutePlan(restoring: nodes, modes: modes, legs: legs, timePreference: .departAt(start), pace: .normal,
                         locks: [:], pinned: nil, pending: [:])
}
