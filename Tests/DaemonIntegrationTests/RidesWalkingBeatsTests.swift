import Foundation
import WireProtocol
import XCTest

/// Trial 49: a segment in transit mode rode the traveller away to walk back. Inserting
/// Pyynikintori E by transit before Pyynikintori (93 m on foot) took bus 8 one stop and walked
/// 393 m back. A transit segment is the best transit journey, and one that walking beats (no
/// slower door to door, or walking farther to and from its stops than the whole hop) is walked
/// and says why, also when the user inserted it by transit.
final class RidesWalkingBeatsTests: SharedTampereDaemonTestCase {
    func testAnInsertedRideThatRidesAwayToWalkBackIsWalkedAndSaysWhy() throws {
        let created = try harness.json(["plan", "new", Tampere.keskustori, "Pyynikintori", Tampere.tampereTalo,
                                        "--mode", "transit", "--at", "2022-01-12T09:00"])
        let inserted = try harness.json(["plan", "insert", try id(created), "Pyynikintori E", "--after", "1", "--mode", "transit"])
        let names = nodes(inserted).map { $0["name"]?.stringValue ?? "" }
        let hop = try XCTUnwrap(names.indices.dropLast().first { names[$0] == "Pyynikintori E" && names[$0 + 1] == "Pyynikintori" },
                                "the hop from the inserted stop to Pyynikintori: \(names)")
        let segment = segments(inserted)[hop]
        XCTAssertEqual(segment["mode"]?.stringValue, "walk", "93 m on foot, not a bus one stop and a walk back: \(segment)")
        XCTAssertTrue(segment["mode_note"]?.stringValue?.hasPrefix("walked: ") == true, "it says why: \(segment)")
        let shown = try harness.umctl(["plan", "show", try id(inserted)]).stdout
        XCTAssertTrue(shown.contains("mode: walked: "), shown)
    }
}
