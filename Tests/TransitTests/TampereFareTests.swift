import Foundation
import Planner
@testable import Transit
import XCTest

/// The Nysse zone fares on the real feed. The expected fare is read from the feed's own CSV
/// files here (stops' zone_id, the trip's stop_times, fare_rules and fare_attributes), not
/// through the code under test.
final class TampereFareTests: XCTestCase {
    private func feedFile(_ name: String) throws -> [[String: String]] { try tampereFeedRows(name) }

    func testKeskustoriToHervantaByTransitCostsTheZoneFareItsStopsDemand() throws {
        let imported = try TampereTransitTests.imported.get()
        let router = imported.router
        let from = try XCTUnwrap(router.stops.first { $0.id == "0805" }, "Keskustori A").coordinate
        let to = try XCTUnwrap(router.stops.first { $0.id == "3522" }, "Hervantakeskus E").coordinate
        let result = try router.leg(from: from, to: to, timing: .departAt(localDate(2022, 1, 12, 10, 0)), pace: .normal,
                                    accessRadius: 30)
        let rides = result.best.rides
        XCTAssertFalse(rides.isEmpty)

        // By hand: the zone of every stop each ride passes, from its trip's stop_times.
        var zoneOfStop: [String: String] = [:]
        for row in try feedFile("stops.txt") { zoneOfStop[row["stop_id"] ?? ""] = row["zone_id"] ?? "" }
        let tripIDs = Set(rides.compactMap(\.tripID))
        let stopTimes = try feedFile("stop_times.txt").filter { tripIDs.contains($0["trip_id"] ?? "") }
        var zones: Set<String> = []
        for ride in rides {
            let calls = stopTimes.filter { $0["trip_id"] == ride.tripID }
                .sorted { Int($0["stop_sequence"] ?? "") ?? 0 < Int($1["stop_sequence"] ?? "") ?? 0 }
            let stops = calls.compactMap { $0["stop_id"] }
            let board = try XCTUnwrap(stops.firstIndex(of: ride.boarding.stopID ?? ""))
            let alight = try XCTUnwrap(stops[board...].firstIndex(of: ride.alighting.stopID ?? ""))
            for stop in stops[board...alight] { zones.insert(try XCTUnwrap(zoneOfStop[stop])) }
        }
        XCTAssertEqual(zones, ["A", "B"], "Keskustori is in zone A and Hervanta in B")

        // By hand: the cheapest fare whose contains_id zones hold every zone passed. Every Nysse
        // fare allows unlimited changes (empty transfers) for 5400 s, so one ticket covers the trip.
        var contains: [String: Set<String>] = [:]
        for row in try feedFile("fare_rules.txt") { contains[row["fare_id"] ?? "", default: []].insert(row["contains_id"] ?? "") }
        let attributes = try feedFile("fare_attributes.txt")
        let boardings = rides.map(\.boarding.time)
        let span = (boardings.max() ?? .distantPast).timeIntervalSince(boardings.min() ?? .distantPast)
        let covering = attributes.filter { row in
            (contains[row["fare_id"] ?? ""].map { zones.isSubset(of: $0) } ?? false)
                && row["transfers"] == "" && Double(row["transfer_duration"] ?? "").map { span <= $0 } ?? false
        }
        let cheapest = try XCTUnwrap(covering.min { Decimal(string: $0["price"] ?? "")! < Decimal(string: $1["price"] ?? "")! })
        let expected = Money(amount: try XCTUnwrap(Decimal(string: cheapest["price"] ?? "")), currency: cheapest["currency_type"] ?? "")
        XCTAssertEqual(cheapest["fare_id"], "AB")
        XCTAssertEqual(result.best.price?.price, expected, result.best.price?.note ?? "")
        XCTAssertNil(result.best.price?.note)
    }

    func testTheNysseFaresAreReadWithoutSkippingAny() throws {
        let report = try TampereTransitTests.imported.get().report
        XCTAssertEqual(report.rowsRead["fare_attributes.txt"], 12)
        XCTAssertEqual(report.rowsRead["fare_rules.txt"], 25)
        XCTAssertFalse(report.skipped.keys.contains { $0.hasPrefix("fare") }, "\(report.skipped)")
    }
}
