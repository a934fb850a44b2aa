import Foundation
import TestSupport
import WireProtocol
import XCTest

/// Issue 39 (session 54's trial): a mode note is stored as the planner judged it (migration
/// 0020) and put in words from the leg it sits under, so a daemon restart changes nothing it
/// says, including the note of a ride an edit retimed (stored before only while it was shown,
/// and lost with the restart). On Tampere, through the real daemon.
final class ModeNotesSurviveARestartTests: TampereDaemonTestCase {
    func testEveryModeNoteReadsTheSameAfterARestartIncludingARetimedRides() throws {
        let (plan, next) = try dayWithARideTurnedToACar(harness)
        let shown = try harness.umctl(["plan", "show", plan]).stdout
        XCTAssertTrue(notedSegments(shown).contains { $0.header.hasPrefix("seg \(next + 1): transit") }, shown)

        XCTAssertEqual(harness.stop(), 0, harness.log)
        try harness.start(extraArguments: daemonArguments)
        let restarted = try harness.umctl(["plan", "show", plan]).stdout
        XCTAssertEqual(notedSegments(restarted).map(\.note), notedSegments(shown).map(\.note), restarted)
        XCTAssertEqual(restarted, shown, "the plan after a restart is the plan before it")
    }
}
