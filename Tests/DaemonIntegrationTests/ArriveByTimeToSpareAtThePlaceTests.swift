import Foundation
import WireProtocol
import XCTest

/// Trial 60 F7: an arrive-by day plan spends the time to spare at the traveller's places, not at
/// a stop. `plan new Hervanta "Hämeenkatu 9" Pyynikintori --arrive-by 09:40 --mode transit` got
/// to Hämeenkatu 9 at 09:19, left at once and waited 7 min at Koskipuisto C for bus 8 at 09:29,
/// where `compare "Hämeenkatu 9" Pyynikintori --arrive-by 09:40` leaves at 09:26 for that bus.
final class ArriveByTimeToSpareAtThePlaceTests: SharedTampereDaemonTestCase {
    func testTheWalkFromAViaToItsRideLeavesAsLateAsTheRideAllows() throws {
        let harness = try harness
        let plan = try harness.json(["plan", "new", "Hervanta", "Hämeenkatu 9", "Pyynikintori",
                                     "--arrive-by", "2022-01-12T09:40", "--mode", "transit"])
        let nodes = nodes(plan), segments = segments(plan)
        let via = try XCTUnwrap(nodes.firstIndex { $0["name"] == .string("Hämeenkatu 9") && $0["inferred"] != .bool(true) }, "\(nodes)")
        XCTAssertEqual(segments[via]["mode"], .string("walk"), "a walk from the via to its stop: \(segments)")
        XCTAssertEqual(segments[via + 1]["mode"], .string("transit"), "then the ride: \(segments)")
        let ride = try XCTUnwrap(date(segments[via + 1]["leg"]?["departure"]), "\(segments[via + 1])")
        let walkLeaves = try XCTUnwrap(date(segments[via]["leg"]?["departure"]), "\(segments[via])")
        let walkSeconds = try XCTUnwrap(segments[via]["leg"]?["duration_s"]?.numberValue, "\(segments[via])")
        let atTheStop = try XCTUnwrap(date(nodes[via + 1]["time"]), "\(nodes[via + 1])")
        // The walk reaches the stop when the ride leaves: no wait at the stop.
        XCTAssertEqual(atTheStop.timeIntervalSince(ride), 0, accuracy: 1, "at the stop when the ride leaves: \(nodes[via + 1]), ride \(ride)")
        XCTAssertEqual(walkLeaves.addingTimeInterval(walkSeconds).timeIntervalSince(ride), 0, accuracy: 2,
                       "the walk leaves as late as the ride allows: \(segments[via])")
        // The traveller gets to the via earlier and leaves it later: the time to spare is there.
        let arrived = try XCTUnwrap(date(nodes[via]["time"]), "\(nodes[via])")
        XCTAssertLessThan(arrived, walkLeaves, "\(nodes[via])")
        // As `compare` from the via by the same time leaves for that bus.
        let compared = try harness.json(["compare", "Hämeenkatu 9", "Pyynikintori", "--arrive-by", "2022-01-12T09:40"])
        let option = try XCTUnwrap(compared["options"]?.arrayValue?.first { $0["mode"] == .string("transit") }, "\(compared)")
        let compareLeaves = try XCTUnwrap(date(option["departure"]), "\(option)")
        XCTAssertEqual(walkLeaves.timeIntervalSince(compareLeaves), 0, accuracy: 60, "compare leaves \(compareLeaves): \(segments[via])")
        // plan show and the Google Maps link say the same departure.
        let id = try id(plan)
        let clock = DateFormatter()
        clock.timeZone = TimeZone(identifier: "Europe/Helsinki")
        clock.locale = Locale(identifier: "en_US_POSIX")
        clock.dateFormat = "HH:mm"
        let shown = try harness.umctl(["plan", "show", id]).stdout
        XCTAssertTrue(shown.contains("leaves \(clock.string(from: walkLeaves))"), "plan show: \(shown)")
        let link = try harness.umctl(["plan", "link", id, String(via + 1)]).stdout
        let stamp = Int(walkLeaves.timeIntervalSince1970 / 60) * 60 + TimeZone(identifier: "Europe/Helsinki")!.secondsFromGMT(for: walkLeaves)
        XCTAssertTrue(link.contains("!8j\(stamp)"), "the link leaves then: \(link)")
        // Pinned, the ride keeps the time to spare at the via.
        let pinned = try harness.json(["plan", "pin", id, String(via + 2), clock.string(from: ride)])
        XCTAssertEqual(try XCTUnwrap(date(self.segments(pinned)[via]["leg"]?["departure"]), "\(pinned)").timeIntervalSince(walkLeaves), 0,
                       accuracy: 1, "pinned: \(self.segments(pinned)[via])")
        XCTAssertEqual(try XCTUnwrap(date(self.nodes(pinned)[via + 1]["time"])).timeIntervalSince(ride), 0, accuracy: 1, "pinned: \(pinned)")
    }

    /// A depart-at plan keeps its rule: the traveller leaves the via when they get there.
    func testADepartAtPlanStillLeavesTheViaWhenTheTravellerGetsThere() throws {
        let harness = try harness
        let plan = try harness.json(["plan", "new", "Hervanta", "Hämeenkatu 9", "Pyynikintori",
                                     "--at", "2022-01-12T08:50", "--mode", "transit"])
        let nodes = nodes(plan), segments = segments(plan)
        let via = try XCTUnwrap(nodes.firstIndex { $0["name"] == .string("Hämeenkatu 9") && $0["inferred"] != .bool(true) }, "\(nodes)")
        guard segments[via]["mode"] == .string("walk") else { return }
        let arrived = try XCTUnwrap(date(nodes[via]["time"]), "\(nodes[via])")
        let walkLeaves = try XCTUnwrap(date(segments[via]["leg"]?["departure"]), "\(segments[via])")
        XCTAssertEqual(walkLeaves.timeIntervalSince(arrived), 0, accuracy: 1, "\(plan)")
    }
}
