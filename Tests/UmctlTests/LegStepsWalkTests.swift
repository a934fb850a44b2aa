import Foundation
@testable import umctl
import WireProtocol
import XCTest

/// The walks `plan show` lists in a transit leg, step by step.
final class LegStepsWalkTests: XCTestCase {
    /// Trial 49: a destination on the stop itself read "10:38  walk 1 min Keskus → near Keskus":
    /// the street engine answers 0 m in 1 s, and a positive duration reads at least 1 min. A walk
    /// that goes nowhere is not a step; a short one that goes somewhere still is.
    func testAWalkOfNoDistanceToOrFromTheStopIsNotShown() throws {
        let leg = try Self.leg(walks: [
            #"{"kind":"access","from":"near Keskus","to":"Keskus","start":"2022-01-12T10:24:59+02:00","duration_s":1,"distance_m":0}"#,
            #"{"kind":"egress","from":"Pohjola","to":"near Pohjola","start":"2022-01-12T10:34:00+02:00","duration_s":1,"distance_m":0.4}"#,
        ])
        let steps = Render.legSteps(leg)
        XCTAssertEqual(steps.count, 1, "only the ride: \(steps)")
        XCTAssertTrue(steps.first?.contains("bus 2 Keskus → 10:34 Pohjola") == true, "\(steps)")

        let short = try Self.leg(walks: [
            #"{"kind":"egress","from":"Pohjola","to":"near Pohjola","start":"2022-01-12T10:34:00+02:00","duration_s":4,"distance_m":3}"#,
        ])
        XCTAssertEqual(Render.legSteps(short).last?.trimmingCharacters(in: .whitespaces), "10:34  walk < 1 min Pohjola → near Pohjola (3 m)")
    }

    /// Trial 48: a change at one stop read "change 1 min Kalevankangas → Kalevankangas"; trial 50:
    /// its "1 min" (the minimum change) read as the time to the next ride, 5 minutes later.
    func testAChangeAtOneStopNamesItOnce() throws {
        let leg = try Self.leg(walks: [
            #"{"kind":"transfer","from":"Kalevankangas","to":"Kalevankangas","start":"2022-01-12T10:30:00+02:00","duration_s":60,"distance_m":0}"#,
            #"{"kind":"transfer","from":"Keskustori E","to":"Keskustori G","start":"2022-01-12T10:31:00+02:00","duration_s":60,"distance_m":69}"#,
        ])
        let steps = Render.legSteps(leg).map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertTrue(steps.contains("10:30  change at Kalevankangas"), "\(steps)")
        XCTAssertTrue(steps.contains("10:31  walk 1 min Keskustori E → Keskustori G (69 m)"), "\(steps)")
    }

    /// Trial 49 finding 10: a 116-s walk read "1 min" beside a 103-s one reading "2 min" (one
    /// rounded alone, one the difference of its times). A step's duration is the difference of
    /// its shown start and end, as a leg's.
    func testAWalkStepReadsTheMinutesBetweenItsShownStartAndEnd() throws {
        let leg = try Self.leg(walks: [
            #"{"kind":"access","from":"near Keskus","to":"Keskus","start":"2022-01-12T10:23:00+02:00","duration_s":116,"distance_m":140}"#,
            #"{"kind":"egress","from":"Pohjola","to":"near Pohjola","start":"2022-01-12T10:34:30+02:00","duration_s":103,"distance_m":120}"#,
        ])
        let steps = Render.legSteps(leg).map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertTrue(steps.contains("10:23  walk 1 min near Keskus → Keskus (140 m)"), "10:23:00 → 10:24:56: \(steps)")
        XCTAssertTrue(steps.contains("10:34  walk 2 min Pohjola → near Pohjola (120 m)"), "10:34:30 → 10:36:13: \(steps)")
    }

    static func leg(walks: [String]) throws -> LegDocument {
        let json = #"{"duration_s":600,"distance_m":1400,"departure":"2022-01-12T10:24:59+02:00","arrival":"2022-01-12T10:34:01+02:00","transfers":0,"rides":[{"line":"2","vehicle":"bus","headsign":null,"from":"Keskus","to":"Pohjola","departure":"2022-01-12T10:25:00+02:00","arrival":"2022-01-12T10:34:00+02:00","trip_id":"T2_8","cancelled":false,"realtime":false,"alerts":[]}],"walks":["#
            + walks.joined(separator: ",") + "]}"
        return try WireCodec.decoder.decode(LegDocument.self, from: Data(json.utf8))
    }
}
