import Foundation
import WireProtocol
import XCTest

/// Edits query only the segments they touched; showing a plan queries nothing.
final class RecomputeTests: XCTestCase {
    func testChangingOneSegmentsModeOnAFiveSegmentPlanQueriesOnlyThatSegmentAndShowQueriesNothing() throws {
        let harness = try startDaemon(regionsFrom: try TampereRegion.dataDirectory())

        // Keskustori → Pyynikki → Ratina → Tampere-talo → railway station → Hervanta: 5 segments.
        var plan = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "walk", "--at", Tampere.morning])
        let id = String(Int64(try XCTUnwrap(plan["id"]?.numberValue)))
        for (after, place) in [(1, Tampere.pyynikki), (2, Tampere.ratina), (3, Tampere.tampereTalo), (4, Tampere.railwayStation)] {
            plan = try harness.json(["plan", "insert", id, "--after", String(after), place, "--mode", "walk"])  // five walks
        }
        let segments = try XCTUnwrap(plan["segments"]?.arrayValue)
        XCTAssertEqual(segments.count, 5)
        XCTAssertTrue(segments.allSatisfy { $0["leg"] != .null }, "every leg computed: \(segments)")
        let legsBefore = segments.map { $0["leg"]?["duration_s"] }

        let before = try harness.counters()
        plan = try harness.json(["plan", "mode", id, "3", "car"])
        let after = try harness.counters()
        XCTAssertEqual(after.routingQueries.total - before.routingQueries.total, 1, "only segment 3 is queried")
        XCTAssertEqual(after.routingQueries.car - before.routingQueries.car, 1)
        XCTAssertEqual(after.plansRecomputed - before.plansRecomputed, 1)
        let legsAfter = (plan["segments"]?.arrayValue ?? []).map { $0["leg"]?["duration_s"] }
        for index in [0, 1, 3, 4] {
            XCTAssertEqual(legsAfter[index], legsBefore[index], "segment \(index + 1) kept its leg")
        }
        XCTAssertEqual(plan["segments"]?.arrayValue?[2]["mode"], .string("car"))

        let beforeShow = try harness.counters()
        let shown = try harness.json(["plan", "show", id])
        XCTAssertEqual(shown["segments"], plan["segments"])
        _ = try harness.umctl(["plan", "show", id])
        XCTAssertEqual(try harness.counters().routingQueries, beforeShow.routingQueries, "plan show makes no routing query")
    }

    func testPaceChangeQueriesExactlyTheWalkAndTransitLegs() throws {
        let harness = try startDaemon(regionsFrom: try TampereRegion.dataDirectory())
        // Keskustori → (walk) → its stop → (transit) → Hervanta, with a car segment in front.
        let plan = try harness.json(["plan", "new", "Keskustori", Tampere.hervanta, "--mode", "transit", "--at", Tampere.morning])
        let id = String(Int64(try XCTUnwrap(plan["id"]?.numberValue)))
        let edited = try harness.json(["plan", "insert", id, "--after", "1", Tampere.pyynikki, "--mode", "car"])
        _ = try harness.json(["plan", "mode", id, "2", "walk"])
        let modes = (edited["segments"]?.arrayValue ?? []).map { $0["mode"]?.stringValue ?? "" }
        XCTAssertEqual(modes.filter { $0 == "transit" }.count, 1, "\(edited)")
        let before = try harness.counters()
        let slow = try harness.json(["plan", "pace", id, "fast"])
        let after = try harness.counters()
        let count = { (mode: String) in (slow["segments"]?.arrayValue ?? []).filter { $0["mode"] == .string(mode) }.count }
        XCTAssertEqual(after.routingQueries.car, before.routingQueries.car, "car legs are not asked again")
        XCTAssertEqual(after.routingQueries.walk - before.routingQueries.walk, count("walk"), "every walk leg once")
        XCTAssertEqual(after.routingQueries.transit - before.routingQueries.transit, count("transit"),
                       "every transit leg once: its walks depend on the pace")
    }
}
