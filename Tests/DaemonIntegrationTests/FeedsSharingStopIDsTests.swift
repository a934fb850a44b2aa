import Foundation
import WireProtocol
import XCTest

/// Stop ids are unique only inside their feed: two feeds of one region may both have a stop
/// "S1" (the place index keys stops by feed and id).
final class FeedsSharingStopIDsTests: XCTestCase {
    func testTwoFeedsOfOneRegionSharingStopIDsImportAndEveryStopIsFound() throws {
        let harness = try startDaemon()
        let town = SmallRegion(name: "town", latitude: 61.5, longitude: 23.76)
        func line(_ kind: String) -> SmallRegion.Line {
            // Both feeds number their stops S1 and S2.
            SmallRegion.Line(zone: "Europe/Helsinki", fromStop: "\(kind) Asema", toStop: "\(kind) Tori", departure: "08:00:00",
                             minutes: 10, dates: ("20260101", "20261231"))
        }
        let imported = try harness.umctl([
            "region", "import", town.name, "--osm", try town.writeOSM(in: harness.directory).path,
            "--gtfs", try town.writeFeed(line("Bus"), in: harness.directory, fileName: "buses.zip").path,
            "--gtfs", try town.writeFeed(line("Tram"), in: harness.directory, fileName: "trams.zip").path,
        ])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        for name in ["Bus Asema", "Bus Tori", "Tram Asema", "Tram Tori"] {
            let found = try harness.json(["search", name, "--region", "town"])["results"]?.arrayValue ?? []
            XCTAssertTrue(found.contains { $0["name"]?.stringValue == name && $0["kind"] == .string("stop") },
                          "\(name): \(found)")
        }
    }
}
