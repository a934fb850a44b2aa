import Foundation
import WireProtocol
import XCTest

/// Issue 24: what each option costs. Transit from the Nysse zone fares, the car from
/// `--car-cost-per-km` (an estimate), and a plan's total only when every part is known.
final class PricesTests: XCTestCase {
    private func option(_ document: JSONValue, _ mode: String) -> JSONValue? {
        document["options"]?.arrayValue?.first { $0["mode"]?.stringValue == mode }
    }

    func testCompareShowsTheTransitFareAndTheCarCostAsAnEstimateWhenOneIsSet() throws {
        let harness = try startDaemon(regionsFrom: try TampereRegion.dataDirectory(), extraArguments: ["--car-cost-per-km", "0.25", "EUR"])
        let query = ["compare", Tampere.keskustori, Tampere.hervanta, "--at", Tampere.morning]
        let document = try harness.json(query)
        let transit = try XCTUnwrap(option(document, "transit"))
        XCTAssertEqual(transit["price"]?["amount"]?.numberValue, 3.5, "the AB zone fare: \(transit)")
        XCTAssertEqual(transit["price"]?["currency"]?.stringValue, "EUR")
        XCTAssertEqual(transit["price_estimate"], .bool(false))
        let car = try XCTUnwrap(option(document, "car"))
        let metres = try XCTUnwrap(car["distance_m"]?.numberValue)
        let amount = try XCTUnwrap(car["price"]?["amount"]?.numberValue, "\(car)")
        XCTAssertEqual(amount, (metres / 1000 * 0.25 * 100).rounded() / 100, accuracy: 0.011)
        XCTAssertEqual(car["price_estimate"], .bool(true))
        XCTAssertEqual(car["price_note"]?.stringValue, "estimate: 0.25 EUR/km")
        XCTAssertEqual(option(document, "walk")?["price"], .null)

        let table = try harness.umctl(query).stdout
        XCTAssertTrue(table.contains("price"), table)
        XCTAssertTrue(table.contains("3.50 EUR"), table)
        XCTAssertTrue(table.contains("≈ "), table)
        XCTAssertTrue(table.contains("note: car price is an estimate: 0.25 EUR/km"), table)
    }

    func testWithoutACarCostTheCarHasNoPriceAndAPlanSumsItsFares() throws {
        let harness = try startDaemon(regionsFrom: try TampereRegion.dataDirectory())
        let document = try harness.json(["compare", Tampere.keskustori, Tampere.hervanta, "--at", Tampere.morning])
        let car = try XCTUnwrap(option(document, "car"))
        XCTAssertEqual(car["price"], .null)
        XCTAssertEqual(car["price_note"]?.stringValue, "no car cost set (--car-cost-per-km)")

        let plan = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "transit", "--at", Tampere.morning])
        let legs = plan["segments"]?.arrayValue?.compactMap { $0["leg"] } ?? []
        let transitFares = plan["segments"]?.arrayValue?.filter { $0["mode"]?.stringValue == "transit" }
            .compactMap { $0["leg"]?["price"]?["amount"]?.numberValue } ?? []
        XCTAssertFalse(legs.isEmpty)
        XCTAssertFalse(transitFares.isEmpty, "\(plan)")
        XCTAssertEqual(plan["price"]?["amount"]?.numberValue, transitFares.reduce(0, +))
        let id = try XCTUnwrap(plan["id"]?.numberValue)
        let shown = try harness.umctl(["plan", "show", String(Int(id))]).stdout
        XCTAssertTrue(shown.contains("fare 3.50 EUR"), shown)
        XCTAssertTrue(shown.contains(", price \(String(format: "%.2f", transitFares.reduce(0, +))) EUR"), shown)
    }
}
