import Foundation
import WireProtocol
import XCTest

/// Issue 39: "walking the whole way is no slower than this journey" is true of the journey the
/// plan shows, from when the traveller can leave for it. A town whose bus takes 15 min between
/// two corners that are a 28-min walk apart, every 30 min from 08:00.
final class WalkingNoSlowerNoteTests: XCTestCase {
    let region = SmallRegion(name: "walktown", latitude: 60.0, longitude: 25.0, spacing: 150)
    let note = "walking the whole way is no slower than this journey"

    /// A daemon with the town imported and a transit plan corner to corner leaving at 08:00:
    /// the daemon, the plan as made and its ID.
    private func transitPlanAtEight() throws -> (DaemonHarness, JSONValue, String) {
        let harness = try startDaemon(assertingCleanExit: false)
        let line = SmallRegion.Line(zone: "Europe/Helsinki", fromStop: "South Corner", toStop: "North Corner",
                                    departure: "08:00:00", minutes: 15, dates: ("20220101", "20221231"),
                                    frequency: (seconds: 1800, until: "12:00:00", exactTimes: true))
        _ = try harness.importSmallRegions([(region, line)])
        let created = try harness.json(["plan", "new", region.southWest, region.northEast, "--mode", "transit",
                                        "--at", "2022-01-12T08:00"])
        return (harness, created, String(Int64(try XCTUnwrap(created["id"]?.numberValue))))
    }

    /// A ride pinned while the plan left at 08:00 (the 08:30 bus, walking from 08:00 arrives
    /// 08:28) said so, and kept saying so once `plan time --at 08:40` missed it, although walking
    /// from 08:40 takes 28 min against a ride that arrives at 08:45.
    func testAMissedPinnedRideDoesNotSayWalkingIsNoSlower() throws {
        let (harness, created, id) = try transitPlanAtEight()
        let segment = try XCTUnwrap(created["segments"]?.arrayValue?.firstIndex { $0["mode"] == .string("transit") }, "\(created)") + 1
        let pinned = try harness.json(["plan", "pin", id, String(segment), "08:05"])
        let leg = try XCTUnwrap(pinned["segments"]?.arrayValue?[segment - 1]["leg"], "\(pinned)")
        XCTAssertEqual(leg["rides"]?.arrayValue?.first?["arrival"]?.stringValue, "2022-01-12T08:45:00+02:00", "the 08:30 bus: \(leg)")
        XCTAssertEqual(leg["walking_is_no_slower"], .bool(true), "from 08:00 walking arrives 08:28, before the bus: \(leg)")

        let late = try harness.json(["plan", "time", id, "--at", "08:40"])
        let missed = try XCTUnwrap(late["segments"]?.arrayValue?[segment - 1], "\(late)")
        XCTAssertEqual(missed["missed_connection"], .bool(true), "\(late)")
        XCTAssertEqual(missed["leg"]?["walking_is_no_slower"], .bool(false),
                       "from 08:40 walking arrives 09:08, after the 08:45 arrival shown: \(missed)")
        let shown = try harness.umctl(["plan", "show", id])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertFalse(shown.stdout.contains(note), shown.stdout)
        XCTAssertFalse(shown.stdout.contains("is no slower than transit"), "nor the mode note: \(shown.stdout)")
    }

    /// A plan of two places by transit made at 08:01 said "walking (28 min) is no slower than
    /// transit (44 min)" (the bus at 08:30 arrives 08:45); moved to 08:29 it kept saying so,
    /// although the ride then takes 16 min. The note is judged again with the ride. (At 08:00
    /// itself the corner's own stop, 0 m away, catches the 08:00 bus: session 58's end walks
    /// priced at their street lower bound no longer take a second to walk no way.)
    func testATwoPlacePlansWalkingNoteIsJudgedAgainAtItsNewTime() throws {
        let (harness, _, id) = try transitPlanAtEight()
        func modeNotes(_ plan: JSONValue) -> [String] {
            (plan["segments"]?.arrayValue ?? []).compactMap { $0["mode_note"]?.stringValue }
        }
        let created = try harness.json(["plan", "time", id, "--at", "08:01"])
        XCTAssertEqual(modeNotes(created), ["walking the whole way (28 min) is no slower than the whole plan by transit (44 min door to door from when you can leave, waits included)"], "\(created)")

        let later = try harness.json(["plan", "time", id, "--at", "08:29"])
        XCTAssertEqual(modeNotes(later), [], "a 16-min ride from 08:29: walking is slower: \(later)")
        let back = try harness.json(["plan", "time", id, "--at", "08:01"])
        XCTAssertEqual(modeNotes(back), ["walking the whole way (28 min) is no slower than the whole plan by transit (44 min door to door from when you can leave, waits included)"], "\(back)")
    }
}
