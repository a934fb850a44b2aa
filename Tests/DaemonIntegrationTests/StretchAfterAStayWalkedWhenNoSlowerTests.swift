import Foundation
import WireProtocol
import XCTest

/// Issue 39, session 60 F4: after `plan stay` at a via of a day by transit, the stretch from the
/// via was ridden although walking it from the via arrives sooner: its ride was judged from the
/// stop the planner had inferred, never the stretch from the via, as a new day plan judges it.
/// After the stay, the stretch is walked when that is no slower, saying why
/// (`Planner.walkingTouchedStretchesNoSlower`).
final class StretchAfterAStayWalkedWhenNoSlowerTests: SharedTampereDaemonTestCase {
    /// `plan new Pyynikintori 61.48789,23.74805 "Hämeenkatu 9" --at 08:31 --mode transit`, `plan
    /// stay ID 2 12m`: left the via at 09:00, walked 10 min to Piispantalo for bus 10 at 09:17,
    /// at Hämeenkatu 9 at 09:27, where walking from the via arrives 09:22.
    func testAStayAtAViaWalksTheStretchAfterItWhenWalkingIsNoSlower() throws {
        try assertTheStretchAfterTheStayNoSlowerThanWalking(
            places: ["Pyynikintori", "61.48789,23.74805", "Hämeenkatu 9"], at: "2022-01-12T08:31", via: 1, stay: "12m")
    }

    /// `plan new Kissanmaa 61.48832,23.75509 "Rautatieasema A" --at 07:48 --mode transit`, a stay
    /// of 7 min at the second place: buses 13 and 12 to 08:53, where walking from the via arrives
    /// 08:51.
    func testAStayAtAViaRidesNoSlowerThanWalkingFromTheVia() throws {
        try assertTheStretchAfterTheStayNoSlowerThanWalking(
            places: ["Kissanmaa", "61.48832,23.75509", "Rautatieasema A"], at: "2022-01-12T07:48", via: 1, stay: "7m")
    }

    /// A day plan of `places` by transit with `stay` at the user's place `via` (0-based among
    /// them): the stretch from it to the next place arrives no later than walking it from when
    /// the traveller leaves the via, and a stretch walked says why.
    private func assertTheStretchAfterTheStayNoSlowerThanWalking(places: [String], at: String, via: Int, stay: String,
                                                                 file: StaticString = #filePath, line: UInt = #line) throws {
        let harness = try harness
        let created = try harness.json(["plan", "new"] + places + ["--at", at, "--mode", "transit"])
        let plan = try id(created)
        let own = nodes(created).indices.filter { nodes(created)[$0]["inferred"] != .bool(true) }
        guard own.count == places.count else { return XCTFail("\(places.count) places: \(created)", file: file, line: line) }
        let stayed = try harness.json(["plan", "stay", plan, String(own[via] + 1), stay])
        let ownAfter = nodes(stayed).indices.filter { nodes(stayed)[$0]["inferred"] != .bool(true) }
        let start = ownAfter[via], end = ownAfter[via + 1]
        let leaving = try XCTUnwrap(nodes(stayed)[start]["departure"]?.stringValue, "the via is left after its stay: \(stayed)",
                                    file: file, line: line)
        let arriving = try XCTUnwrap(date(nodes(stayed)[end]["time"]), "\(stayed)", file: file, line: line)
        let compare = try harness.json(["compare", typed(nodes(stayed)[start]), places[via + 1], "--at", leaving])
        let walk = compare["options"]?.arrayValue?.first { $0["mode"] == .string("walk") }
        let walked = try XCTUnwrap(date(walk?["arrival"]), "a walk from the via: \(compare)", file: file, line: line)
        XCTAssertLessThanOrEqual(arriving.timeIntervalSince(walked), 30,
                                 "the stretch after the stay arrives no later than walking it from the via (\(walked)): \(stayed)",
                                 file: file, line: line)
        let stretch = Array(segments(stayed)[start..<end])
        if !stretch.contains(where: { $0["mode"] == .string("transit") }) {
            XCTAssertTrue(stretch.contains { $0["mode_note"]?.stringValue?.hasPrefix("walked") == true },
                          "a walked stretch says why: \(stayed)", file: file, line: line)
        }
    }
}
