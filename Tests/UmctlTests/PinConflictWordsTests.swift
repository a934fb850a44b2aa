@testable import umctl
import WireProtocol
import XCTest

/// Why `plan alternatives` says an option cannot be chosen: the times it compares read apart.
final class PinConflictWordsTests: XCTestCase {
    /// Trial 60 F10: "option 2 arrives 09:31: the plan then ends at 09:33 at the earliest, after the
    /// 09:33 you must arrive by": two different instants in one minute read the same. Said
    /// together, the times then carry their seconds.
    func testTimesInOneMinuteThatDifferReadWithTheirSeconds() {
        let conflict = PinConflictDocument(option: 2, pinnedSegment: nil, kind: "arrives_after_arrive_by", time: "2022-01-12T09:31:10+02:00",
                                           ready: "2022-01-12T09:33:40+02:00", pinned: nil, arriveBy: "2022-01-12T09:33:31+02:00")
        XCTAssertEqual(PlanAlternativesCommand.pinConflictLine(conflict, day: "2022-01-12T09:33:31+02:00"),
                       "option 2 arrives 09:31:10: the plan then ends at 09:33:40 at the earliest, after the 09:33:31 you must arrive by; "
                       + "it cannot be chosen")
    }

    /// Minutes apart, the times read as every clock time does.
    func testTimesMinutesApartReadInMinutes() {
        let conflict = PinConflictDocument(option: 3, pinnedSegment: nil, kind: "arrives_after_arrive_by", time: "2022-01-12T09:31:10+02:00",
                                           ready: "2022-01-12T09:36:40+02:00", pinned: nil, arriveBy: "2022-01-12T09:33:31+02:00")
        XCTAssertEqual(PlanAlternativesCommand.pinConflictLine(conflict, day: "2022-01-12"),
                       "option 3 arrives 09:31: the plan then ends at 09:36 at the earliest, after the 09:33 you must arrive by; it cannot be chosen")
        let late = PinConflictDocument(option: 1, pinnedSegment: 3, kind: "arrives_too_late", time: "2022-01-12T08:17:00+02:00",
                                       ready: "2022-01-12T08:17:00+02:00", pinned: "2022-01-12T08:10:00+02:00")
        XCTAssertEqual(PlanAlternativesCommand.pinConflictLine(late, day: "2022-01-12"),
                       "option 1 arrives 08:17: too late for segment 3, pinned to leave 08:10; it cannot be chosen")
    }

    /// An option arriving the second its pin leaves is not "too late" by anything a minute shows.
    func testAPinLeavingInTheMinuteTheOptionArrivesReadsWithSeconds() {
        let late = PinConflictDocument(option: 1, pinnedSegment: 3, kind: "arrives_too_late", time: "2022-01-12T08:10:20+02:00",
                                       ready: "2022-01-12T08:10:20+02:00", pinned: "2022-01-12T08:10:00+02:00")
        XCTAssertEqual(PlanAlternativesCommand.pinConflictLine(late, day: "2022-01-12"),
                       "option 1 arrives 08:10:20: too late for segment 3, pinned to leave 08:10:00; it cannot be chosen")
    }
}
