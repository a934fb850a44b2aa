import Foundation
import WireProtocol
import XCTest

/// Two regions in one daemon whose names collide the way São Paulo's and Helsinki's do: "Sé"
/// is a station in one and the start of "Seepra" in the other.
final class NamesAcrossRegionsTests: SharedDaemonTestCase {
    /// Sorted first by name, so a search that asks regions one by one asks it first.
    private static let hel = SmallRegion(name: "hel", latitude: 60.1699, longitude: 24.9384)
    private static let saopaulo = SmallRegion(name: "saopaulo", latitude: -23.5505, longitude: -46.6333)

    override class func makeSharedDaemon() throws -> DaemonHarness {
        let harness = try super.makeSharedDaemon()
        _ = try harness.importSmallRegions([
            (hel, .init(zone: "Europe/Helsinki", fromStop: "Seepra", toStop: "Senaatintori",
                             departure: "09:00:00", minutes: 8, dates: ("20260301", "20260430"))),
            (saopaulo, .init(zone: "America/Sao_Paulo", fromStop: "Sé", toStop: "Trianon-Masp",
                                  departure: "08:02:00", minutes: 8, dates: ("20260301", "20260430"))),
        ])
        return harness
    }

    func testAnExactNameInOneRegionRanksAbovePrefixMatchesInAnotherEvenNearThem() throws {
        let harness = try harness
        let results = try harness.json(["search", "Sé", "--near", Self.hel.southWest])["results"]?.arrayValue ?? []
        XCTAssertEqual(results.first?["name"]?.stringValue, "Sé", "\(results)")
        XCTAssertEqual(results.first?["region"]?.stringValue, "saopaulo")
        XCTAssertEqual(results.first?["match"]?.stringValue, "exact")
        XCTAssertTrue(results.dropFirst().contains { $0["name"]?.stringValue == "Seepra" }, "the prefixes follow: \(results)")
    }

    func testTheOtherEndChoosesTheRegionOfAShortNameInEitherOrder() throws {
        let harness = try harness
        for (from, to) in [("Sé", "Trianon-Masp"), ("Trianon-Masp", "Sé")] {
            let compared = try harness.umctl(["compare", from, to, "--at", "2026-03-10T07:50"])
            XCTAssertEqual(compared.status, 0, "\(from) → \(to): \(compared.stderr)")
            let plan = try harness.json(["plan", "new", from, to, "--mode", "walk"])
            XCTAssertEqual(plan["nodes"]?.arrayValue?.first?["name"]?.stringValue, from)
            XCTAssertEqual(plan["time_zone"]?.stringValue, "America/Sao_Paulo")
        }
    }

    func testWhenNoRegionHasEveryPlaceTheErrorNamesTheBestMatchOfEachInEachRegion() throws {
        let refused = try harness.umctl(["compare", "Seepra", "Trianon-Masp"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("in region hel: \"Seepra\" → Seepra, no match for \"Trianon-Masp\""), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("in region saopaulo:"), refused.stderr)
        let unknown = try harness.umctl(["compare", "Seepra", "Nowhere at all"])
        XCTAssertTrue(unknown.stderr.contains("Nowhere at all"), unknown.stderr)
    }
}
