import Foundation
import WireProtocol
import XCTest

/// Issue 41 item 6: an error names what the user typed — the option, the place — never a wire
/// parameter or an internal place ID.
final class ErrorsNameWhatWasTypedTests: SharedDaemonTestCase {
    static let region = SmallRegion(name: "oulu", latitude: 65.0121, longitude: 25.4651)

    override class func makeSharedDaemon() throws -> DaemonHarness {
        let harness = try super.makeSharedDaemon()
        let result = try harness.umctl(["region", "import", region.name, "--osm", try region.writeOSM(in: harness.directory).path])
        guard result.status == 0 else { throw HarnessError("import: \(result.stderr)") }
        return harness
    }

    func testATooShortRealtimeIntervalIsRefusedNamingTheOption() throws {
        let feed = try harness.directory.appendingPathComponent("trips.pb").path
        let refused = try harness.umctl(["region", "set", Self.region.name, "--realtime", feed, "--realtime-interval", "5s"])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("--realtime-interval"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("10s"), "says what it takes: \(refused.stderr)")
        XCTAssertFalse(refused.stderr.contains("realtime_interval_s"), refused.stderr)
        XCTAssertEqual(try harness.json(["region", "list"])["regions"]?.arrayValue?.first?["realtime_feeds"]?.arrayValue ?? [], [],
                       "nothing changed")
    }

    func testComparingAPlaceWithItselfNamesThePlaceNotItsInternalID() throws {
        let place = Self.region.southWest
        let refused = try harness.umctl(["compare", place, place])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains(place), "names the place as typed: \(refused.stderr)")
        XCTAssertFalse(refused.stderr.contains("coord:") || refused.stderr.contains("node:") || refused.stderr.contains("stop:"),
                       refused.stderr)
        XCTAssertEqual(try harness.json(["history", "routes"])["entries"]?.arrayValue ?? [], [], "nothing recorded")
    }
}
