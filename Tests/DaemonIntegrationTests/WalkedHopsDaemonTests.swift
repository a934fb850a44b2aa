import Foundation
import TestSupport
import WireProtocol
import XCTest

/// Issue 39 item 3 on Tampere: a transit preset, a day by transit and a move ride only where
/// that is faster than walking (the rule of an inserted hop), and the walked segment says why; a
/// ride the user chose stays theirs and says when walking is no slower.
final class WalkedHopsDaemonTests: SharedTampereDaemonTestCase {
    /// 45 m north of Ratina.
    static let nearRatina = "61.49220,23.76390"
    /// 45 m north of Hervanta.
    static let nearHervanta = "61.45060,23.85100"

    func modes(_ plan: JSONValue) -> [String] { segments(plan).compactMap { $0["mode"]?.stringValue } }
    func modeNote(_ plan: JSONValue, _ segment: Int) -> String? { segments(plan)[segment]["mode_note"]?.stringValue }

    func testADayByTransitWalksItsShortHopAndTheSegmentSaysWhy() throws {
        // Ratina is a 10-minute walk from Keskustori: no bus gets there sooner door to door.
        let day = try harness.json(["plan", "new", Tampere.keskustori, Tampere.ratina, Tampere.hervanta, "--mode", "transit",
                                    "--at", Tampere.morning])
        XCTAssertEqual(modes(day).first, "walk", "\(day)")
        XCTAssertEqual(nodes(day)[1]["inferred"], .bool(false), "no stop between Keskustori and Ratina: \(day)")
        let note = try XCTUnwrap(modeNote(day, 0), "the walk says why: \(day)")
        XCTAssertTrue(note.hasPrefix("walked: walking (") && note.contains(") is no slower than transit ("), note)
        XCTAssertTrue(modes(day).contains("transit"), "Ratina → Hervanta still rides: \(day)")
        let shown = try harness.umctl(["plan", "show", try id(day)])
        XCTAssertTrue(shown.stdout.contains("mode: walked: walking ("), "plan show says why: \(shown.stdout)")
    }

    /// Two places by transit are the user's explicit choice (issue 39): the plan rides even
    /// where walking is no slower, and its ride says so of the whole way, door to door, as `plan show` prints it.
    func testTwoPlacesByTransitKeepTheirRideAndSayWhenWalkingIsNoSlower() throws {
        let plan = try harness.json(["plan", "new", Tampere.keskustori, Tampere.ratina, "--mode", "transit", "--at", Tampere.morning])
        let ride = try XCTUnwrap(modes(plan).firstIndex(of: "transit"), "the user's ride stays: \(plan)")
        let note = try XCTUnwrap(modeNote(plan, ride), "the ride says walking is no slower: \(plan)")
        XCTAssertTrue(note.hasPrefix("walking the whole way (") && note.contains(") is no slower than the whole plan by transit ("), note)
        let shown = try harness.umctl(["plan", "show", try id(plan)])
        XCTAssertTrue(shown.stdout.contains("mode: \(note)"), "plan show says it: \(shown.stdout)")
    }

    func testATransitPresetKeepsAHopWalkedWhereWalkingIsNoSlower() throws {
        let walked = try harness.json(["plan", "new", Tampere.keskustori, Tampere.ratina, "--mode", "walk", "--at", Tampere.morning])
        let preset = try harness.json(["plan", "preset", try id(walked), "transit"])
        XCTAssertEqual(modes(preset), ["walk"], "\(preset)")
        XCTAssertTrue(modeNote(preset, 0)?.hasPrefix("walked: walking (") == true, "\(preset)")
        // The user's own ride stays, and says that walking is no slower.
        let chosen = try harness.json(["plan", "mode", try id(walked), "1", "transit"])
        XCTAssertEqual(modes(chosen), ["transit"], "their choice wins: \(chosen)")
        let note = try XCTUnwrap(modeNote(chosen, 0), "\(chosen)")
        XCTAssertTrue(note.hasPrefix("walking (") && note.contains(") is no slower than transit ("), note)
        // A walk preset chooses again: the planner's reason goes.
        let walkedAgain = try harness.json(["plan", "preset", try id(walked), "walk"])
        XCTAssertEqual(modes(walkedAgain), ["transit"], "the locked ride stays: \(walkedAgain)")
        XCTAssertNotNil(modeNote(walkedAgain, 0), "a note on the user's own ride stays: \(walkedAgain)")
    }

    /// Session 49's trial: in an arrive-by plan a transit preset walked Tammelan puistokatu →
    /// Koskikeskus 08:01–08:20, "walking (19 min) is no slower than transit (19 min)", judged
    /// against the stretch as computed through its stops and timed back from the arrival, while
    /// bus 90A leaving then arrives 08:17. A hop is walked only where no ride leaving when the
    /// walk leaves arrives sooner.
    func testATransitPresetWalksNoHopThatARideLeavingWithTheWalkBeats() throws {
        let plan = try harness.json(["plan", "new", "Kaleva A", "Koskikeskus", "--mode", "transit", "--arrive-by", "2022-01-12T08:20"])
        _ = try harness.json(["plan", "insert", try id(plan), "Tammela", "--after", "1"])
        let preset = try harness.json(["plan", "preset", try id(plan), "transit"])
        for (index, segment) in segments(preset).enumerated()
        where segment["mode"] == .string("walk") && segment["mode_note"]?.stringValue?.hasPrefix("walked: walking (") == true {
            let walk = try XCTUnwrap(segment["leg"], "\(preset)")
            let leaving = try XCTUnwrap(date(walk["departure"])), arriving = try XCTUnwrap(date(walk["arrival"]))
            // The next whole minute: a ride leaving then leaves no earlier than the walk.
            let minute = Date(timeIntervalSince1970: (leaving.timeIntervalSince1970 / 60).rounded(.up) * 60)
            let at = WireTime.string(from: minute, timeZone: TimeZone(identifier: "Europe/Helsinki")!).prefix(16)
            let compare = try harness.json(["compare", typed(nodes(preset)[index]), typed(nodes(preset)[index + 1]), "--at", String(at)])
            let ride = compare["options"]?.arrayValue?.first { $0["mode"] == .string("transit") }
            if let rideArrives = date(ride?["arrival"]) {
                XCTAssertGreaterThan(rideArrives.addingTimeInterval(60), arriving,
                                     "segment \(index + 1) walks to \(arriving) where a ride leaving at \(at) arrives \(rideArrives): \(preset)")
            }
        }
    }

    /// Issue 39: a move that put the destination 45 m from Ratina rode there (a 9-min walk to a
    /// bus stop, a bus back and a walk, 24 min); the hop is walked, as an inserted one is, and says why.
    func testAMoveThatMakesAShortHopWalksItAndTheSegmentSaysWhy() throws {
        let day = try harness.json(["plan", "new", Tampere.keskustori, Tampere.ratina, Tampere.hervanta, "--mode", "transit",
                                    "--at", Tampere.morning])
        XCTAssertTrue(modes(day).contains("transit"), "Ratina → Hervanta rides: \(day)")
        let moved = try harness.json(["plan", "move", try id(day), String(nodes(day).count), Self.nearRatina])
        XCTAssertEqual(modes(moved), ["walk", "walk"], "\(moved)")
        let note = try XCTUnwrap(modeNote(moved, 1), "the walk says why: \(moved)")
        XCTAssertTrue(note.hasPrefix("walked: walking (") && note.contains(") is no slower than transit ("), note)
        let notes = moved["mode_notes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        XCTAssertEqual(notes, ["segment 2 " + note], "the answer says why: \(moved)")
    }

    /// Tried as a user: a move whose ride to the moved place stays a ride through the stops chosen
    /// again said "segment 1 by transit: 11 min door to door where walking takes 15 min" while segment 1 was the
    /// walk to the stop and the ride (segment 2) said nothing. Each line of the answer names the
    /// segment, numbered as the moved plan is, that carries the same words.
    func testAMovesNotesNameTheSegmentsThatSayThem() throws {
        let day = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, Tampere.ratina, "--mode", "transit",
                                    "--at", Tampere.morning])
        let hervanta = try XCTUnwrap(nodes(day).firstIndex { $0["inferred"] != .bool(true) && $0 != nodes(day).first }, "\(day)")
        let moved = try harness.json(["plan", "move", try id(day), String(hervanta + 1), Tampere.tampereTalo])
        try assertEachNoteNamesTheSegmentSayingIt(moved, "the move chose the modes of its two stretches")
    }

    /// The same for an insert whose hops ride: their stops are put in when the rides are computed,
    /// after the hops were numbered.
    func testAnInsertsNotesNameTheSegmentsThatSayThem() throws {
        let day = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "transit", "--at", Tampere.morning])
        let inserted = try harness.json(["plan", "insert", try id(day), Tampere.tampereTalo, "--after", "1"])
        try assertEachNoteNamesTheSegmentSayingIt(inserted, "the insert chose the modes of its two hops")
    }

    /// Each line of the answer's `mode_notes` ("segment N reason") names a segment of the plan
    /// answered that carries those words; there is at least one.
    func assertEachNoteNamesTheSegmentSayingIt(_ answer: JSONValue, _ why: String) throws {
        let notes = answer["mode_notes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        XCTAssertFalse(notes.isEmpty, "\(why): \(answer)")
        for line in notes {
            let words = line.split(separator: " ", maxSplits: 2).map(String.init)
            let segment = try XCTUnwrap(words.count == 3 && words[0] == "segment" ? Int(words[1]) : nil, line)
            XCTAssertTrue(segments(answer).indices.contains(segment - 1), "\(line): \(answer)")
            guard segments(answer).indices.contains(segment - 1) else { continue }
            XCTAssertEqual(modeNote(answer, segment - 1), words[2], "\(line): segment \(segment) says it (\(modes(answer)))")
            XCTAssertNotEqual(segments(answer)[segment - 1]["mode"]?.stringValue == "walk" && words[2].hasPrefix("by transit"), true,
                              "\(line) names a walk: \(modes(answer))")
        }
    }

    /// A ride whose mode the user chose stays theirs after a move, though the move drops its lock.
    func testAMoveKeepsARideTheUserChose() throws {
        let walked = try harness.json(["plan", "new", Tampere.keskustori, Tampere.ratina, Tampere.hervanta, "--mode", "walk",
                                       "--at", Tampere.morning])
        let chosen = try harness.json(["plan", "mode", try id(walked), "2", "transit"])
        XCTAssertTrue(modes(chosen).contains("transit"), "\(chosen)")
        // To a place a ride is for (a 45 m hop by transit is walked, as every ride walking beats).
        let moved = try harness.json(["plan", "move", try id(walked), String(nodes(chosen).count), Self.nearHervanta])
        XCTAssertTrue(modes(moved).contains("transit"), "the user's ride stays: \(moved)")
        XCTAssertNil(moved["mode_notes"], "nothing was chosen for the user: \(moved)")
    }
}
