import Foundation
import WireProtocol
import XCTest

/// Issue 39 item 3, found from outside on Tampere (trial 47, F16, F7, F12, F13): a mode change
/// or an edit after one builds a journey a traveller can follow. One vehicle trip is one ride
/// (never two segments), a ride never takes the traveller back to where they started, no drive
/// follows a ride unless the user chose it, and a day's hop no line serves is walked after an
/// edit as at creation, with no time nobody reaches named in its messages.
final class ModeChangesYouCanFollowTests: SharedTampereDaemonTestCase {
    func trips(_ segment: JSONValue) -> [String] {
        (segment["leg"]?["rides"]?.arrayValue ?? []).compactMap { $0["trip_id"]?.stringValue }
    }

    func modes(_ plan: JSONValue) -> [String] { segments(plan).compactMap { $0["mode"]?.stringValue } }

    func assertNoTripInTwoSegments(_ plan: JSONValue, _ context: String, file: StaticString = #filePath, line: UInt = #line) {
        var seen: Set<String> = []
        for segment in segments(plan) {
            for trip in Set(trips(segment)) {
                XCTAssertFalse(seen.contains(trip), "\(context): trip \(trip) in two segments: \(modes(plan))", file: file, line: line)
                seen.insert(trip)
            }
        }
    }

    /// F16: Nekalantie → Keskustori → Koskikeskus → Keskustori by transit, the ride to the stop
    /// by Koskikeskus pinned; `plan mode … transit` on the 247 m walk from that stop rode the
    /// same bus on in a second segment and walked 274 m back. The walk joins the pinned ride as
    /// its walk from the stop, and the pin stays. (Keskustori → Koskikeskus is walked now, walking
    /// being no slower, so the plan rides to that stop from Nekalantie, without the insert.)
    func testSettingTheWalkFromAPinnedRidesStopToTransitKeepsTheTripInOneSegment() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Nekalantie", "Koskikeskus", "Keskustori", "--mode", "transit",
                                        "--at", "2022-01-12T08:49"])
        let id = try id(created)
        let inserted = created
        // The ride to the stop the planner inferred for Koskikeskus, and the walk from it.
        let ride = try XCTUnwrap(segments(inserted).indices.last { index in
            index + 1 < segments(inserted).count && modes(inserted)[index] == "transit" && modes(inserted)[index + 1] == "walk"
                && nodes(inserted)[index + 1]["inferred"] == .bool(true)
        }, "a ride to an inferred stop, then a walk: \(modes(inserted))")
        let pinned = try harness.json(["plan", "choose", id, String(ride + 1), "3"])
        let pinnedTrips = trips(segments(pinned)[ride])
        XCTAssertFalse(pinnedTrips.isEmpty, "\(pinned)")

        let changed = try harness.json(["plan", "mode", id, String(ride + 2), "transit"])
        assertNoTripInTwoSegments(changed, "plan mode \(ride + 2) transit after the ride was pinned")
        XCTAssertEqual(segments(changed).count, segments(pinned).count - 1, "the walk joins the ride: \(modes(changed))")
        XCTAssertEqual(trips(segments(changed)[ride]), pinnedTrips, "the pinned bus, ridden from the same stop: \(changed)")
        XCTAssertEqual(changed["pinned_segments"], .array([.number(Double(ride + 1))]), "the pin stays: \(changed)")
        XCTAssertNil(changed["removed_pins"]?.arrayValue?.first, "no pin removed: \(changed)")
    }

    /// The mirror of F16: the walk to a pinned ride's stop set to transit joins the ride as its
    /// walk to the stop; the ride is the one the user chose, leaving with the walk, its pin kept
    /// (asked again from the walk's start, the engine's own walk estimate missed the pinned bus
    /// and proposed a later one, and the pin was reported removed).
    func testSettingTheWalkToAPinnedRidesStopToTransitKeepsTheChosenRideAndItsPin() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", Tampere.pyynikki, Tampere.hervanta, "--mode", "transit", "--at", Tampere.morning])
        XCTAssertEqual(modes(created), ["walk", "transit", "walk"], "a walk to the stop first: \(created)")
        let id = try id(created)
        let chosen = try harness.json(["plan", "choose", id, "2", "1"])
        let chosenTrips = trips(segments(chosen)[1])
        XCTAssertFalse(chosenTrips.isEmpty, "\(chosen)")

        let changed = try harness.json(["plan", "mode", id, "1", "transit"])
        XCTAssertEqual(modes(changed), ["transit", "walk"], "the walk joins the ride: \(changed)")
        XCTAssertEqual(trips(segments(changed)[0]), chosenTrips, "the ride the user chose: \(changed)")
        XCTAssertEqual(changed["pinned_segments"], .array([.number(1)]), "the pin stays: \(changed)")
        XCTAssertNil(changed["removed_pins"]?.arrayValue?.first, "no pin removed: \(changed)")
        XCTAssertEqual(changed["pending"], .array([]), "nothing proposed instead: \(changed)")
        XCTAssertEqual(segments(changed)[0]["leg"]?["departure"], nodes(chosen)[0]["time"], "it leaves with the walk: \(changed)")
    }

    /// F7: after choose, preset and unpin (the ride keeps its mode lock), `plan mode ID 1
    /// transit` on the walk to the ride's inferred stop rode bus 8 away and walked back, leaving
    /// 4 min earlier. The walk joins the ride as its walk to the stop, as on a plan without that
    /// history, and the traveller leaves no earlier than with the walk.
    func testSettingTheWalkToALockedRidesStopToTransitRidesFromTheOriginInOneSegment() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Keskustori", "TAYS", "Hervanta", "--mode", "transit",
                                        "--arrive-by", "2022-01-12T09:30"])
        let id = try id(created)
        _ = try harness.json(["plan", "move", id, "3", "Kaleva"])
        _ = try harness.json(["plan", "choose", id, "2", "1"])
        _ = try harness.json(["plan", "preset", id, "transit"])
        let unpinned = try harness.json(["plan", "unpin", id])
        XCTAssertEqual(modes(unpinned).prefix(2), ["walk", "transit"], "a walk to the ride's stop first: \(unpinned)")
        XCTAssertEqual(segments(unpinned)[1]["locked"], .bool(true), "unpin keeps the ride's mode lock: \(unpinned)")

        let changed = try harness.json(["plan", "mode", id, "1", "transit"])
        XCTAssertEqual(segments(changed).count, segments(unpinned).count - 1, "the walk joins the ride: \(modes(changed))")
        XCTAssertEqual(nodes(changed)[1]["inferred"], .bool(false), "no stop left between: \(changed)")
        assertNoTripInTwoSegments(changed, "plan mode 1 transit after unpin")
        let before = try XCTUnwrap(date(nodes(unpinned)[0]["time"])), after = try XCTUnwrap(date(nodes(changed)[0]["time"]))
        XCTAssertGreaterThanOrEqual(after, before, "no ride away and back that leaves earlier than the walk: \(changed)")
    }

    /// Session 57: a day's last hop to a place 1.0 km from its nearest stop, walked by `plan mode
    /// ID 2 walk` and set back by `plan mode ID 2 transit`, asked the ride from TAYS A to the
    /// place itself: "no transit stop within 800 m of the destination", exit 4, where the new
    /// plan rode buses 6 and 10 and walked from Trikookuja. The ride walks to the stop a new plan
    /// walks to, and is computed.
    func testSettingTransitAgainWalksToTheStopANewPlanWalksToWhereTheEngineReachesNone() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Hervanta", "TAYS", "61.48647,23.71895", "--mode", "transit",
                                        "--at", "2022-01-12T08:03"])
        XCTAssertEqual(modes(created).suffix(2), ["transit", "walk"], "the new plan walks from a stop: \(created)")
        let stop = try XCTUnwrap(nodes(created).dropLast().last?["name"]?.stringValue)
        let id = try id(created)
        let walked = try harness.json(["plan", "mode", id, "2", "walk"])
        XCTAssertEqual(modes(walked), ["transit", "walk"], "the stop goes with the ride: \(walked)")

        let changed = try harness.json(["plan", "mode", id, "2", "transit"])
        XCTAssertEqual(modes(changed), ["transit", "transit", "walk"], "a ride, then the walk from its stop: \(changed)")
        XCTAssertEqual(nodes(changed)[2]["name"], .string(stop), "the stop the new plan walked from: \(changed)")
        XCTAssertEqual(nodes(changed)[2]["inferred"], .bool(true), "\(changed)")
        XCTAssertFalse(segments(changed)[1]["leg"]?.isNull ?? true, "the ride is computed: \(changed)")
        XCTAssertFalse(segments(changed)[1]["leg"]?["rides"]?.arrayValue?.isEmpty ?? true, "it rides: \(changed)")
        XCTAssertEqual(segments(changed)[1]["locked"], .bool(true), "the user's ride stays locked: \(changed)")
        let notes = changed["mode_notes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        XCTAssertEqual(notes, ["segments renumbered (2 → 3): segment 2 is now TAYS A → \(stop) by transit"],
                       "the answer names the ride the user set: \(changed)")
    }

    /// The boarding side: a walk from that place set to transit walks to the stop a new plan
    /// walks to and rides from there; the answer names the ride, now segment 2, as the user's.
    func testSettingTransitOnAWalkFromAPlaceNoStopIsNearWalksToItsStopAndNamesTheRide() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "61.48647,23.71895", "Keskustori", "--mode", "walk", "--at", "2022-01-12T08:03"])
        let id = try id(created)
        let changed = try harness.json(["plan", "mode", id, "1", "transit"])
        XCTAssertEqual(modes(changed), ["walk", "transit"], "a walk to the stop, then the ride: \(changed)")
        XCTAssertEqual(nodes(changed)[1]["inferred"], .bool(true), "\(changed)")
        XCTAssertFalse(segments(changed)[1]["leg"]?["rides"]?.arrayValue?.isEmpty ?? true, "it rides: \(changed)")
        let stop = try XCTUnwrap(nodes(changed)[1]["name"]?.stringValue)
        let notes = changed["mode_notes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        XCTAssertEqual(notes, ["segments renumbered (1 → 2): segment 2 is now \(stop) → Keskustori by transit"], "\(changed)")
    }

    /// F12: `plan preset ID fastest` drove both segments; `plan mode ID 1 transit` then left
    /// segment 2 an unlocked drive from Hervanta, where the car is not. It is walked or ridden by
    /// the walk rule and says why; a drive the user chose stays theirs.
    /// `plan insert … --mode transit` of a place whose nearest stop is beyond the engine's 800 m
    /// rode from the door both ways: "no transit stop within 800 m of the destination", the plan
    /// stored without a route. Each ride now walks to and from the stop a new plan walks to.
    func testInsertingAPlaceNoStopIsNearByTransitWalksToAndFromItsStops() throws {
        let harness = try harness
        let direct = try harness.json(["plan", "new", "Hervanta", "61.48647,23.71895", "TAYS", "--mode", "transit",
                                       "--at", "2022-01-12T08:03"])
        let created = try harness.json(["plan", "new", "Hervanta", "TAYS", "--mode", "transit", "--at", "2022-01-12T08:03"])
        let inserted = try harness.umctl(["plan", "insert", try id(created), "61.48647,23.71895", "--after", "1", "--mode", "transit"])
        XCTAssertEqual(inserted.status, 0, "\(inserted.stdout)\(inserted.stderr)")
        let plan = try harness.json(["plan", "show", try id(created)])
        XCTAssertEqual(modes(plan), modes(direct), "walks to and from stops as a new plan through the place: \(plan)")
        XCTAssertTrue(segments(plan).allSatisfy { !($0["leg"]?.isNull ?? true) }, "every leg computed: \(plan)")
        let place = try XCTUnwrap(nodes(plan).firstIndex { $0["inferred"] == .bool(false) && $0["name"] == .string("61.48647,23.71895") },
                                  "\(plan)")
        XCTAssertEqual(modes(plan)[place - 1], "walk", "the ride before it ends at a stop and walks on: \(plan)")
        XCTAssertEqual(modes(plan)[place], "walk", "the ride after it starts at a stop walked to: \(plan)")
    }

    func testSettingASegmentToTransitNeverLeavesTheCarAfterTheRideUnlessTheUserChoseIt() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Keskustori", "Hervanta", "TAYS", "--mode", "transit",
                                        "--at", "2022-01-12T08:10"])
        let id = try id(created)
        let fastest = try harness.json(["plan", "preset", id, "fastest"])
        XCTAssertEqual(modes(fastest), ["car", "car"], "the fastest preset drives: \(fastest)")

        let changed = try harness.json(["plan", "mode", id, "1", "transit"])
        XCTAssertEqual(modes(changed).first, "transit", "\(changed)")
        XCTAssertFalse(modes(changed).dropFirst().contains("car"), "no drive after the ride: \(modes(changed))")
        let note = segments(changed).last?["mode_note"]?.stringValue ?? ""
        XCTAssertTrue(note.contains("the car is not at hand after the ride on segment 1"), "the segment says why: \(note)")
        XCTAssertFalse(segments(changed).last?["leg"]?.isNull ?? true, "the new mode is computed: \(changed)")

        // A drive the user set stays theirs.
        let again = try harness.json(["plan", "new", "Keskustori", "Hervanta", "TAYS", "--mode", "car", "--at", "2022-01-12T08:10"])
        let other = try self.id(again)
        _ = try harness.json(["plan", "mode", other, "2", "car"])
        let userDrive = try harness.json(["plan", "mode", other, "1", "transit"])
        XCTAssertEqual(modes(userDrive).last, "car", "the drive the user chose stays: \(userDrive)")
    }

    /// F13: a day by transit moved to an hour with no service kept its rides as "no leg", while
    /// `plan new` at that hour walks them ("walked: no transit route found").
    func testADayMovedToAnHourWithoutServiceWalksItsHopsAsPlanNewDoes() throws {
        let harness = try harness
        let places = ["Keskustori", "Hervanta", "Tampere-talo", "Kaleva"]
        let created = try harness.json(["plan", "new"] + places + ["--mode", "transit", "--at", "2022-01-12T08:10"])
        XCTAssertTrue(modes(created).contains("transit"), "\(created)")
        let moved = try harness.json(["plan", "time", try id(created), "--at", "2022-01-12T11:40"])
        let fresh = try harness.json(["plan", "new"] + places + ["--mode", "transit", "--at", "2022-01-12T11:40"])
        XCTAssertEqual(modes(moved), modes(fresh), "the same fallback as at creation: \(moved)")
        for (index, segment) in segments(moved).enumerated() {
            XCTAssertFalse(segment["leg"]?.isNull ?? true, "segment \(index + 1) has a leg: \(moved)")
        }
        XCTAssertTrue(segments(moved).contains { ($0["mode_note"]?.stringValue ?? "").hasPrefix("walked: no transit route found") },
                      "a walked hop says why: \(moved)")
    }

    /// F13: the rides the user locked stay rides without service, and the one after the first
    /// missing leg was asked at a time carried over the gap; its message names no such time,
    /// but the rides the engine found around it (it said no service times at all, session 50).
    func testARideAfterAMissingLegNamesNoTimeTheTravellerNeverReaches() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Keskustori", "Hervanta", "Tampere-talo", "--mode", "transit",
                                        "--at", "2022-01-12T08:10"])
        let id = try id(created)
        let rides = transitSegments(created)
        XCTAssertGreaterThanOrEqual(rides.count, 2, "two rides: \(modes(created))")
        for ride in rides { _ = try harness.json(["plan", "mode", id, String(ride + 1), "transit"]) }  // the user's now
        let result = try harness.umctl(["plan", "time", id, "--at", "2022-01-12T11:40", "--json"])
        let moved = try WireCodec.decoder.decode(JSONValue.self, from: Data(result.stdout.utf8))
        let failed = segments(moved).indices.filter { segments(moved)[$0]["leg"]?.isNull ?? true }
        XCTAssertGreaterThanOrEqual(failed.count, 2, "the locked rides find no service: \(moved)")
        let later = try XCTUnwrap(failed.dropFirst().first)
        let message = segments(moved)[later]["error"]?["message"]?.stringValue ?? ""
        XCTAssertFalse(message.contains("after 2022-01-12 11:4"), "segment \(later + 1) names a time nobody reaches: \(message)")
        XCTAssertTrue(message.contains("segment \(failed[0] + 1) has no leg"), "it says why it has none: \(message)")
        // Left by session 50: the rides around it are real and still named (the morning's last, the next day's first).
        XCTAssertTrue(message.contains("; on this hop ") && message.contains("the next is ") && message.contains("+1d (2022-01-13)"),
                      "when service ended and resumes on this hop: \(message)")
        XCTAssertFalse(message.contains("(searched from"), "nothing about the guessed time: \(message)")
    }
}
