@testable import Daemon
import Foundation
import XCTest

/// How an edit's refusal names times: as `plan show` does, and apart when they are apart.
final class PlanClockWordsTests: XCTestCase {
    let words = PlanClockWords(zone: TimeZone(identifier: "Europe/Helsinki")!, planDay: Date(timeIntervalSince1970: 1_641_970_800))
    /// 2022-01-12T09:33:00+02:00 and `seconds` more.
    func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_641_972_780 + seconds) }

    /// Trial 60 F10: "the plan then ends at 09:33 at the earliest, after the 09:33 it must arrive
    /// by": two different instants in one minute read the same; said together they carry their seconds.
    func testTimesInOneMinuteThatDifferReadWithTheirSeconds() {
        XCTAssertEqual(words.texts([at(-130), at(40), at(31)]), ["09:30:50", "09:33:40", "09:33:31"])
    }

    /// Minutes apart, or one instant named twice, the times read in minutes.
    func testTimesMinutesApartReadInMinutes() {
        XCTAssertEqual(words.texts([at(-130), at(200), at(31)]), ["09:30", "09:36", "09:33"])
        XCTAssertEqual(words.texts([at(40), at(40)]), ["09:33", "09:33"])
    }

    /// A time on another day keeps its day mark after its seconds.
    func testADayMarkFollowsTheSeconds() {
        XCTAssertEqual(words.texts([at(86_400 + 10), at(86_400 + 50)]), ["09:33:10 +1d", "09:33:50 +1d"])
    }
}
