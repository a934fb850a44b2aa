import Foundation
import WireProtocol
import XCTest

/// In an arrive-by plan, `plan alternatives` of a transit segment timed back from the arrival
/// lists the options that arrive in time: the latest departures that make it and the journeys
/// with fewer transfers (docs/planner.md, "Alternatives"). Trial 56: "Keskustori → Hervanta by
/// 09:20" rode bus 8 for a minute to Koskipuisto D and bus 6 from there; the list gave four
/// options arriving too late and not bus 6 alone, a walk to Koskipuisto D leaving a minute sooner.
final class ArriveByAlternativesTests: SharedTampereDaemonTestCase {
    func testInAnArriveByPlanTheOptionsAreThoseArrivingInTime() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Keskustori", "Hervanta", "--mode", "transit", "--arrive-by", "2022-01-12T09:20"])
        let plan = try id(created)
        let segment = try XCTUnwrap(transitSegments(created).last, "\(created)")
        let own = try XCTUnwrap(segments(created)[segment]["leg"], "\(created)")
        let listed = try harness.json(["plan", "alternatives", plan, String(segment + 1), "--count", "5"])
        let options = listed["options"]?.arrayValue ?? []
        XCTAssertEqual(options.count, 5, "\(listed)")
        let deadline = try XCTUnwrap(WireTime.date(from: "2022-01-12T09:20:00+02:00"))
        for option in options {
            let arrival = try XCTUnwrap(date(option["arrival"]), "\(option)")
            XCTAssertLessThanOrEqual(arrival, deadline.addingTimeInterval(1), "every option arrives by 09:20: \(option)")
        }
        XCTAssertEqual(listed["pin_conflicts"]?.arrayValue ?? [], [], "no option breaks the plan: \(listed)")
        XCTAssertTrue(options.contains { trips($0) == trips(own) }, "the plan's own ride is listed: \(trips(own)) in \(options)")
        let transfers = own["transfers"]?.numberValue ?? 0
        XCTAssertGreaterThan(transfers, 0, "the plan changes buses: \(own)")
        let fewer = try XCTUnwrap(options.firstIndex { ($0["transfers"]?.numberValue ?? 0) < transfers },
                                  "an option with fewer transfers arriving in time: \(options)")

        let copy = try id(try harness.json(["plan", "copy", plan]))
        let chosen = try harness.json(["plan", "choose", copy, String(segment + 1), String(fewer + 1), "--count", "5"])
        XCTAssertEqual(trips(segments(chosen)[segment]["leg"]), trips(options[fewer]), "the option taken: \(chosen)")
        let reached = try XCTUnwrap(date(nodes(chosen).last?["time"]), "\(chosen)")
        XCTAssertLessThanOrEqual(reached, deadline.addingTimeInterval(1), "still there by 09:20: \(chosen)")
    }

    /// At several deadlines: every option arrives by it, the plan's own ride is among them, and
    /// none leaves over a minute after it (the plan leaves as late as the deadline allows).
    func testTheListEndsWithThePlansOwnRideAtEveryDeadline() throws {
        let harness = try harness
        for time in ["07:40", "08:25", "09:05", "09:50"] {
            let created = try harness.json(["plan", "new", "Lielahti", "TAYS", "--mode", "transit", "--arrive-by", "2022-01-12T\(time)"])
            let segment = try XCTUnwrap(transitSegments(created).last, "\(created)")
            let own = try XCTUnwrap(segments(created)[segment]["leg"], "\(created)")
            let leaves = try XCTUnwrap(date(own["departure"]), "\(own)")
            let listed = try harness.json(["plan", "alternatives", try id(created), String(segment + 1), "--count", "4"])
            let options = listed["options"]?.arrayValue ?? []
            XCTAssertFalse(options.isEmpty, "\(time): \(listed)")
            let deadline = try XCTUnwrap(WireTime.date(from: "2022-01-12T\(time):00+02:00"))
            XCTAssertTrue(options.allSatisfy { (date($0["arrival"]) ?? .distantFuture) <= deadline.addingTimeInterval(1) },
                          "\(time): every option arrives in time: \(options)")
            XCTAssertTrue(options.contains { trips($0) == trips(own) }, "\(time): the plan's own ride: \(trips(own)) in \(options)")
            XCTAssertTrue(options.allSatisfy { (date($0["departure"]) ?? .distantFuture) <= leaves.addingTimeInterval(60) },
                          "\(time): none leaves over a minute after the plan's \(own): \(options)")
        }
    }

    private func trips(_ leg: JSONValue?) -> [String] {
        (leg?["rides"]?.arrayValue ?? []).compactMap { $0["trip_id"]?.stringValue }
    }
}
