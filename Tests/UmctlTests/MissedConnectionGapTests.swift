@testable import umctl
import XCTest

/// How late a missed connection is, beside the two times it names (`plan show`).
final class MissedConnectionGapTests: XCTestCase {
    /// Trial 49: "it leaves 10:43 but you get there at 10:46, 4 min too late" (3 min 50 s rounded);
    /// beside its two shown times a gap is their difference, as every duration is (`ShownTime`).
    func testHowLateReadsAsTheDifferenceOfTheTwoTimesShown() {
        XCTAssertEqual(MissedConnection.gap(from: "2022-01-12T10:43:00+02:00", to: "2022-01-12T10:46:50+02:00"), ", 3 min too late")
        XCTAssertEqual(MissedConnection.gap(from: "2022-01-12T10:43:50+02:00", to: "2022-01-12T10:45:10+02:00"), ", 2 min too late")
        XCTAssertEqual(MissedConnection.gap(from: "2022-01-12T10:43:50+02:00", to: "2022-01-12T10:44:20+02:00"), ", 30 s too late",
                       "under a minute, the seconds")
        XCTAssertEqual(MissedConnection.gap(from: "2022-01-12T23:58:00+02:00", to: "2022-01-13T00:01:30+02:00"), ", 3 min too late")
        XCTAssertEqual(MissedConnection.gap(from: nil, to: "2022-01-12T10:44:20+02:00"), "")
    }
}
