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
    /// `plan new Keskustori Ratina Pyynikintori Hervanta TAYS --mode transit --at 08:00`, then
    /// `plan insert ID Lielahti --after 3`: its hops say why they ride.
    private func dayWithInsertedHops(_ harness: DaemonHarness) throws -> (id: String, plan: JSONValue) {
        let created = try harness.json(["plan", "new", "Keskustori", "Ratina", "Pyynikintori", "Hervanta", "TAYS",
                                        "--mode", "transit", "--at", "2022-01-12T08:00"])
        let plan = try id(created)
        let inserted = try harness.json(["plan", "insert", plan, "Lielahti", "--after", "3"])
        XCTAssertTrue(segments(inserted).contains { $0["mode_note"]?.stringValue?.hasPrefix("by transit: ") == true },
                      "the inserted hops ride and say why: \(inserted)")
        return (plan, inserted)
    }

    /// Each `plan show` segment's header duration ("transit 22 min") and its `mode:` note.
    private func notedSegments(_ shown: String) -> [(header: String, duration: String, note: String)] {
        let lines = shown.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        return zip(lines, lines.dropFirst()).compactMap { line, next in
            guard line.hasPrefix("seg "), next.hasPrefix("mode: "), let colon = line.firstIndex(of: ":") else { return nil }
            let words = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard let comma = words.firstIndex(of: ","), let space = words.firstIndex(of: " ") else { return nil }
            return (line, words[space..<comma].trimmingCharacters(in: .whitespaces), String(next.dropFirst(6)))
        }
    }

    func testAModeNotesFiguresAreTheDurationItsSegmentShowsOrSayWhatTheyCount() throws {
        let harness = try harness
        let plan = try dayWithInsertedHops(harness).id
        let noted = notedSegments(try harness.umctl(["plan", "show", plan]).stdout)
        XCTAssertFalse(noted.isEmpty, "the day's hops say why")
        for (header, duration, note) in noted {
            if note.hasPrefix("walked: walking (") {
                XCTAssertTrue(note.hasPrefix("walked: walking (\(duration)) "), "\(header) / \(note)")
            } else if note.hasPrefix("by transit: "), !note.hasPrefix("by transit: \(duration) door to door where") {
                // Door to door is more than the ride's own minutes: the note says what it counts.
                XCTAssertTrue(note.contains("door to door (walks and waits included)"), "\(header) / \(note)")
            }
        }
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
            XCTAssertEqual(leg(segment), judged, "\"\(note)\" was said of another leg: \(changed)")
        }
        let shown = try harness.umctl(["plan", "show", plan]).stdout
        XCTAssertEqual(notedSegments(shown).filter { notedBefore[$0.note] != nil }.count, kept, shown)
    }
}
