import Foundation
import WireProtocol
import XCTest

/// Session 57's tester: `plan show` and `plan alternatives` named different change stops for
/// the same trips. `plan new Lielahti TAYS --mode transit --at 09:20` showed bus 19 to Santalahti
/// and bus 38 from there; its alternatives, asked from the 09:33 the plan leaves, listed the same
/// two trips changing at Epilänharju, leaving and arriving together. Of equal journeys the engine
/// took the forward search's (the first stop where the next vehicle can be boarded) or the
/// backward pass's (the last) by when it was asked; it now takes the backward pass's.
final class ShownJourneyAmongAlternativesTests: SharedTampereDaemonTestCase {
    /// Every ride a plan shows, found among its segment's alternatives (the same trips), boards
    /// and alights at the same stops there.
    func testAlternativesShowThePlansJourneyWithItsChangeStops() throws {
        let harness = try harness
        let trips: [[String]] = [["Lielahti", "TAYS", "--at", "2022-01-12T09:20"],
                                 ["Keskustori", "TAYS", "Kaleva", "Lielahti", "--at", "2022-01-12T08:00"],
                                 ["Hervanta", "Lielahti", "Keskustori", "--at", "2022-01-12T10:00"]]
        var compared = 0, changes = 0
        for trip in trips {
            let created = try harness.json(["plan", "new"] + trip.prefix { !$0.hasPrefix("--") } + ["--mode", "transit"]
                                           + trip.drop { !$0.hasPrefix("--") })
            let plan = try id(created)
            for index in transitSegments(created) {
                guard let shown = segments(created)[index]["leg"]?["rides"]?.arrayValue, !shown.isEmpty else { continue }
                let options = try harness.json(["plan", "alternatives", plan, String(index + 1)])["options"]?.arrayValue ?? []
                let same = options.compactMap { $0["leg"]?["rides"]?.arrayValue ?? $0["rides"]?.arrayValue }
                    .first { $0.map { $0["trip_id"] } == shown.map { $0["trip_id"] } }
                guard let same else { continue }
                XCTAssertEqual(same.map(Self.stops), shown.map(Self.stops),
                               "\(trip) segment \(index + 1): the plan's journey among its alternatives, at the same stops")
                compared += 1
                changes += shown.count - 1
            }
        }
        XCTAssertGreaterThanOrEqual(compared, 5, "journeys compared")
        XCTAssertGreaterThanOrEqual(changes, 1, "a journey with a change among them")
    }

    /// Where a ride boards and alights, by stop ID.
    private static func stops(_ ride: JSONValue) -> [JSONValue?] { [ride["from_stop_id"], ride["to_stop_id"]] }
}
