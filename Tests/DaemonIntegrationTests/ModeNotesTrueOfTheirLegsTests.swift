import Foundation
import TestSupport
import WireProtocol
import XCTest

/// Issue 39 (session 53's trial): a segment's `mode:` note is true of the leg it sits under. A
/// day plan by transit with a place inserted without a mode said "by transit: 23 min door to
/// door" under "transit 22 min" (the judged time counts the waits and walks around the ride),
/// and after `plan mode ID 3 car` the ride after it, retimed onto another line, still said
/// "22 min door to door" of the ride it no longer was. On Tampere, through the real daemon.
final class ModeNotesTrueOfTheirLegsTests: SharedTampereDaemonTestCase {
    /// Session 54's trial: a ride's note said "23 min door to door" under "transit 22 min" (judged
    /// before the legs were final, from when the traveller reached the stop before) and the same
    /// segment read 34 min in one plan and 30 in another. Its door to door is now its own leg's,
    /// from its departure to its arrival: the minutes its header shows, and it says from when.
    func testARideNotesDoorToDoorIsTheMinutesItsOwnLegShowsFromItsDeparture() throws {
        let harness = try harness
        let plan = try dayWithInsertedHops(harness).id
        let noted = notedSegments(try harness.umctl(["plan", "show", plan]).stdout)
        XCTAssertTrue(noted.contains { $0.note.hasPrefix("by transit: ") }, "the inserted hops ride and say why: \(noted)")
        for (header, duration, note) in noted {
            if note.hasPrefix("walked: walking (") {
                XCTAssertTrue(note.hasPrefix("walked: walking (\(duration)) "), "\(header) / \(note)")
            } else if note.hasPrefix("by transit: "), !note.hasPrefix("by transit: no walking route") {
                XCTAssertTrue(note.hasPrefix("by transit: \(duration) door to door from its departure "), "\(header) / \(note)")
            }
        }
    }

    /// A ride retimed onto another line by a neighbour's mode change (`plan mode ID 3 car`) said
    /// nothing, its note silenced with the leg it was judged for. The planner judged it a ride
    /// because it is faster than walking, and it still is: its note says so of the ride it has
    /// now, in that ride's minutes.
    func testARideANeighboursModeChangeRetimedSaysWhyOfTheRideItHasNow() throws {
        let harness = try harness
        let (plan, next) = try dayWithARideTurnedToACar(harness)
        let noted = notedSegments(try harness.umctl(["plan", "show", plan]).stdout)
        let retimed = try XCTUnwrap(noted.first { $0.header.hasPrefix("seg \(next + 1): transit") }, "\(noted)")
        XCTAssertTrue(retimed.note.hasPrefix("by transit: \(retimed.duration) door to door from its departure "),
                      "\(retimed.header) / \(retimed.note)")
    }

    func testAfterANeighboursModeChangeNoNoteSpeaksOfALegItReplaced() throws {
        let harness = try harness
        let (plan, before) = try dayWithInsertedHops(harness)
        // The leg each note was shown under: its times and lines.
        func leg(_ segment: JSONValue) -> String {
            let leg = segment["leg"]
            return [leg?["departure"]?.stringValue ?? "-", leg?["arrival"]?.stringValue ?? "-"].joined(separator: " → ")
                + " " + (leg?["rides"]?.arrayValue ?? []).compactMap { $0["line"]?.stringValue }.joined(separator: ",")
        }
        let notedBefore = Dictionary(segments(before).compactMap { segment in
            segment["mode_note"]?.stringValue.map { ($0, leg(segment)) }
        }, uniquingKeysWith: { first, _ in first })
        let ride = try XCTUnwrap(segments(before).firstIndex { $0["mode_note"]?.stringValue?.hasPrefix("by transit: ") == true },
                                 "\(before)")
        let changed = try harness.json(["plan", "mode", plan, String(ride + 1), "car"])
        var kept = 0
        for segment in segments(changed) {
            guard let note = segment["mode_note"]?.stringValue, let judged = notedBefore[note] else { continue }
            kept += 1
            guard leg(segment) != judged else { continue }
            // The same words under another leg are only those a ride's note renders from the leg
            // it sits under: a ride retimed by as many minutes (08:18 → 08:33, 10 min both) reads alike.
            let minutes = try XCTUnwrap(date(segment["leg"]?["departure"]).flatMap { departure in
                date(segment["leg"]?["arrival"]).map { Int($0.timeIntervalSince1970 / 60) - Int(departure.timeIntervalSince1970 / 60) }
            }, "\(segment)")
            XCTAssertTrue(minutes < 60 && note.hasPrefix("by transit: \(minutes) min door to door from its departure"),
                          "\"\(note)\" was said of another leg (\(judged)), not of \(leg(segment)): \(changed)")
        }
        let shown = try harness.umctl(["plan", "show", plan]).stdout
        XCTAssertEqual(notedSegments(shown).filter { notedBefore[$0.note] != nil }.count, kept, shown)
    }
}
