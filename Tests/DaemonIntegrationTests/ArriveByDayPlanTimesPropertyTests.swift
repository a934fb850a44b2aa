import Foundation
import TestSupport
import WireProtocol
import XCTest

/// Seeded arrive-by day plans on Tampere (three or four of its places, by transit, a deadline in the
/// morning): every node's time lies between its neighbours', and, in a plan that arrives in
/// time, the walk from a place of the traveller's to the stop of the ride after it ends when the
/// ride leaves (within the second the planner allows a connection), so the time to spare is
/// spent at the place (trial 60 F7), never at the stop.
final class ArriveByDayPlanTimesPropertyTests: SharedTampereDaemonTestCase {
    /// Places across Tampere, each with a transit stop within reach.
    private static let places = ["Keskustori", "Hervanta", "TAYS", "Kaleva", "Pyynikintori", "Lielahti", "Tampere-talo",
                                 "Hämeenkatu 9", "Rautatieasema", "Koskikeskus", "Nekalantie", "Hatanpää", "Amuri", "Tammela"]

    func testArriveByDayPlansWaitAtThePlacesAndKeepTheirNodesInOrder() throws {
        let harness = try harness
        var random = SeededRandom(seed: 61)
        var walksChecked = 0
        for sample in 0..<30 {
            let count = Int.random(in: 3...4, using: &random)
            var places: [String] = []
            while places.count < count {
                let place = Self.places.randomElement(using: &random) ?? "Keskustori"
                if !places.contains(place) { places.append(place) }
            }
            let minutes = Int.random(in: 8 * 60...11 * 60, using: &random)
            let deadline = String(format: "2022-01-12T%02d:%02d", minutes / 60, minutes % 60)
            let context = "sample \(sample): plan new \(places.joined(separator: " ")) --arrive-by \(deadline) --mode transit"
            let plan = try harness.json(["plan", "new"] + places + ["--arrive-by", deadline, "--mode", "transit"])
            let nodes = nodes(plan), segments = segments(plan)
            let times = nodes.map { date($0["time"]) }
            for index in times.indices {
                guard let time = times[index] else { continue }
                if let before = times[..<index].last(where: { $0 != nil }) ?? nil {
                    XCTAssertGreaterThanOrEqual(time, before.addingTimeInterval(-1), "\(context): node \(index + 1) before the one before it: \(nodes)")
                }
                if let after = times[(index + 1)...].first(where: { $0 != nil }) ?? nil {
                    XCTAssertLessThanOrEqual(time, after.addingTimeInterval(1), "\(context): node \(index + 1) after the one after it: \(nodes)")
                }
            }
            guard !segments.contains(where: { $0["missed_connection"] == .bool(true) }) else { continue }
            for index in 0..<max(0, segments.count - 1) where nodes[index]["inferred"] != .bool(true)
                && nodes[index + 1]["inferred"] == .bool(true) && nodes[index + 1]["stay_s"] == nil
                && segments[index]["mode"] == .string("walk") && segments[index + 1]["mode"] == .string("transit") {
                guard let ride = date(segments[index + 1]["leg"]?["departure"]),
                      let walkEnds = date(segments[index]["leg"]?["arrival"]), let atTheStop = times[index + 1] else { continue }
                XCTAssertEqual(walkEnds.timeIntervalSince(ride), 0, accuracy: 1, "\(context): the walk from node \(index + 1) waits at the stop: \(plan)")
                XCTAssertEqual(atTheStop.timeIntervalSince(ride), 0, accuracy: 1, "\(context): node \(index + 2): \(plan)")
                if let leaves = date(segments[index]["leg"]?["departure"]), let seconds = segments[index]["leg"]?["duration_s"]?.numberValue {
                    XCTAssertEqual(leaves.addingTimeInterval(seconds).timeIntervalSince(ride), 0, accuracy: 2,
                                   "\(context): the walk from node \(index + 1) leaves as late as its ride allows: \(plan)")
                }
                walksChecked += 1
            }
        }
        XCTAssertGreaterThan(walksChecked, 3, "walks from a place to a ride checked")
    }
}
