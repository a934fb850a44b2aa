@testable import umctl
import XCTest

/// How umctl shows a ride's live delay beside its clock times (`plan show`, `compare`).
final class LiveDelayTextTests: XCTestCase {
    /// Issue 41: a bus 75 min late read "(+75)"; from an hour on a delay reads as every duration does.
    func testADelayOfAnHourOrMoreReadsInHoursAndMinutes() {
        XCTAssertEqual(LiveTimes.delayText(75 * 60), "+1 h 15 min")
        XCTAssertEqual(LiveTimes.delayText(-(61 * 60)), "-1 h 01 min")
        XCTAssertEqual(LiveTimes.delayText(6 * 60), "+6", "under an hour, the bare minutes beside the clock times")
        XCTAssertEqual(LiveTimes.delayText(-60), "-1")
        XCTAssertEqual(LiveTimes.delayText(20), "on time")
    }
}
