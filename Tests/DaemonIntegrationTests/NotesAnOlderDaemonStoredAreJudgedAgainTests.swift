import Foundation
import SQLite
import TestSupport
import WireProtocol
import XCTest

/// Issue 39 (trial 54 finding T4.1): a plan an older daemon stored keeps its mode notes as words
/// (migration 0020 keeps them, with the kind they began with), and those words said "34 min
/// door to door" under "transit 27 min" even after `plan refresh`. Asked again, the segment is
/// judged again: its note is true of the leg it has now. On Tampere, through the real daemon.
final class NotesAnOlderDaemonStoredAreJudgedAgainTests: TampereDaemonTestCase {
    func testARefreshJudgesAgainARidesNoteAnOlderDaemonStoredAsWords() throws {
        let (plan, made) = try dayWithInsertedHops(harness)
        let ride = try XCTUnwrap(segments(made).firstIndex { $0["mode_note"]?.stringValue?.hasPrefix("by transit: ") == true },
                                 "\(made)")
        let old = "by transit: 34 min door to door (walks and waits included) where walking takes 1 h 20 min"
        // What migration 0020 made of that row of an older daemon: its words, and the kind they begin with.
        XCTAssertEqual(harness.stop(), 0, harness.log)
        let db = try Database(path: harness.dataDirectory.appendingPathComponent("usefulmap.sqlite").path)
        try db.execute("""
            UPDATE plan_segment SET mode_note_data = json_object('kind', 'ridden_faster', 'storedWords', ?)
            WHERE plan_id = ? AND position = ?
            """, [.text(old), .integer(try XCTUnwrap(Int64(plan))), .integer(Int64(ride))])
        db.close()
        try harness.start(extraArguments: daemonArguments)
        XCTAssertEqual(segments(try harness.json(["plan", "show", plan]))[ride]["mode_note"]?.stringValue, old,
                       "an older daemon's words are shown as they were until the segment is judged again")

        _ = try harness.json(["plan", "refresh", plan])
        let shown = try harness.umctl(["plan", "show", plan]).stdout
        XCTAssertFalse(shown.contains(old), "the refresh judged the ride again: \(shown)")
        let noted = notedSegments(shown)
        let judged = try XCTUnwrap(noted.first { $0.header.hasPrefix("seg \(ride + 1): transit") }, "still ridden, saying why: \(shown)")
        XCTAssertTrue(judged.note.hasPrefix("by transit: \(judged.duration) door to door from its departure "),
                      "\(judged.header) / \(judged.note)")
    }
}
