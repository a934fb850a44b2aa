import Foundation
import WireProtocol
import XCTest

/// Issue 39 (trial 55 finding 4): a segment's mode note is true of the plan as it is now and
/// says one thing. Judged again at a new time it speaks of that time; it never contradicts itself,
/// never counts from a moment the plan shows nowhere, and a segment between two places at one
/// spot gets none.
final class ModeNotesStayTrueAfterEditsTests: SharedTampereDaemonTestCase {
    override class func makeSharedDaemon() throws -> DaemonHarness {
        let harness = try DaemonHarness(regionsFrom: try TampereRegion.dataDirectory())
        try harness.start(extraArguments: ["--clock-start", "2022-01-12T07:30:00+02:00"])
        return harness
    }

    func notes(_ plan: JSONValue) -> [String] { segments(plan).compactMap { $0["mode_note"]?.stringValue } }
    func modes(_ plan: JSONValue) -> [String] { segments(plan).compactMap { $0["mode"]?.stringValue } }

    /// 4a: moved from 11:45 (after the last bus 10) to 08:40, both walks kept "walked: no transit
    /// route found": the place is 1.0 km from its nearest stop, beyond the engine's radius, and
    /// the ride judged again was asked from place to place. It is asked as a new plan asks it, and
    /// the plan rides as one made at 08:40 does. (From 11:55: at 11:45 bus 8 to Tipotie, within
    /// the engine's radius beyond the place's nearest stop, is ridden since session 58.)
    func testAWalkWithNoRideAtOneTimeIsRiddenWhenTheTimeMovesToService() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Keskustori", "61.48647,23.71895", "Koskikeskus",
                                        "--mode", "transit", "--at", "2022-01-12T11:55"])
        XCTAssertEqual(modes(created), ["walk", "walk"], "no bus 10 after 11:39 nor bus 8 after 11:52: \(notes(created))")
        let id = try id(created)
        let moved = try harness.json(["plan", "time", id, "--at", "2022-01-12T08:40"])
        XCTAssertFalse(notes(moved).contains { $0.contains("no transit route found") }, "\(notes(moved))")
        let fresh = try harness.json(["plan", "new", "Keskustori", "61.48647,23.71895", "Koskikeskus",
                                      "--mode", "transit", "--at", "2022-01-12T08:40"])
        XCTAssertEqual(modes(moved), modes(fresh), "as a plan made at 08:40: \(notes(moved))")
        XCTAssertTrue(modes(moved).contains("transit"), "\(modes(moved))")
    }

    /// Trial 56 finding 10: `plan remove` made segment 5 the walk from the ride pinned at 09:08
    /// ("walked: the way from the pinned ride"); `plan insert … Kaleva --after 3` then took that
    /// ride's segment and its pin, and the note stayed on a plan with no pins. A note naming a
    /// pin goes with the pin.
    func testANoteNamingAPinGoesWhenThePinGoes() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Rautatieasema", "Hervanta", "TAYS", "Koskikeskus", "Lielahti",
                                        "--mode", "transit", "--at", "2022-01-12T08:00"])
        let id = try id(created)
        let pinned = try harness.umctl(["plan", "pin", id, "3", "09:08"])
        XCTAssertEqual(pinned.status, 0, pinned.stderr)
        _ = try harness.json(["plan", "insert", id, "Kaleva", "--after", "4"])
        let removed = try harness.json(["plan", "remove", id, "5"])
        XCTAssertTrue(notes(removed).contains { $0.contains("the way from the pinned ride") }, "while pinned: \(notes(removed))")

        let inserted = try harness.json(["plan", "insert", id, "Kaleva", "--after", "3"])
        XCTAssertEqual(inserted["pinned_segments"]?.arrayValue ?? [], [], "the insert took the pin: \(inserted)")
        XCTAssertFalse(notes(inserted).contains { $0.contains("pinned") }, "\(notes(inserted))")
        XCTAssertFalse(notes(try harness.json(["plan", "show", id])).contains { $0.contains("pinned") }, "stored so too")
    }

    /// 4b: "no transit route found …: the only transit found rides a hop that walking is no
    /// slower for" said two things, and "door to door from 1 h 29 min before the walk leaves"
    /// counted from a moment the plan shows nowhere.
    func testNotesAfterEditsSayOneThingFromATimeTheUserCanCheck() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Rautatieasema", "Hervanta", "61.50012,23.76728", "Tampere-talo",
                                        "--mode", "transit", "--arrive-by", "2022-01-12T09:19"])
        let id = try id(created)
        for edit in [["stay", id, "3", "--until", "09:24"], ["pin", id, "2", "07:36"], ["unpin", id], ["choose", id, "1", "1"],
                     ["insert", id, "61.49254,23.77639", "--after", "4"]] {
            let plan = try harness.json(["plan"] + edit)
            for note in notes(plan) {
                XCTAssertFalse(note.contains("no transit route found") && note.contains("transit found"), "\(edit): \(note)")
                XCTAssertNil(note.range(of: #"\d+ h( \d+ min)? (before|after) the walk leaves"#, options: .regularExpression),
                             "\(edit): \(note)")
            }
        }
    }

    /// 4d: Keskustori and the point at its coordinates are two places at one spot: the 0 m walk
    /// between them said "walked: walking (0 min) is no slower than transit (10 min …)".
    func testASegmentBetweenTwoPlacesAtOneSpotHasNoModeNote() throws {
        let harness = try harness
        let plan = try harness.json(["plan", "new", "Koskikeskus", "Keskustori", "61.4983297,23.7608257", "Hervanta",
                                     "--mode", "transit", "--at", "2022-01-12T09:00"])
        let still = segments(plan).filter { $0["leg"]?["distance_m"]?.numberValue == 0 }
        XCTAssertFalse(still.isEmpty, "a 0 m segment: \(modes(plan))")
        for segment in still { XCTAssertNil(segment["mode_note"], "\(segment)") }
    }
}
