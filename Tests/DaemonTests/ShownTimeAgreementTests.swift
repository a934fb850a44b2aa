import Foundation
import WireProtocol
import XCTest

/// Issue 41 item 6: the daemon's words (agenda, notifications, calendar: `Planner.ShownTime`)
/// and umctl's (`WireProtocol.ShownTime`) follow one rule; the two modules share no code, so
/// this holds them to each other on random instants.
final class ShownTimeAgreementTests: XCTestCase {
    func testTheDaemonAndUmctlShowTheSameClockTimesAndDurations() throws {
        var random = SystemRandomNumberGenerator()
        let zones = ["Europe/Helsinki", "America/Sao_Paulo", "UTC", "Asia/Kolkata"].compactMap(TimeZone.init(identifier:))
        XCTAssertEqual(zones.count, 4)
        for _ in 0..<1_000 {
            let zone = zones.randomElement(using: &random)!
            let start = Date(timeIntervalSince1970: 1_641_974_400 + Double.random(in: 0..<(400 * 86_400), using: &random))
            let end = start.addingTimeInterval(Double.random(in: 0..<(6 * 3_600), using: &random))
            let (startText, endText) = (WireTime.string(from: start, timeZone: zone), WireTime.string(from: end, timeZone: zone))
            // umctl shows the five characters after the "T"; the daemon its own clock.
            XCTAssertEqual(PlannerShownTime.clock(start, timeZone: zone), String(startText.split(separator: "T")[1].prefix(5)), startText)
            XCTAssertEqual(PlannerShownTime.text(from: start, to: end), WireProtocol.ShownTime.text(from: startText, to: endText),
                           "\(startText) → \(endText)")
            let seconds = end.timeIntervalSince(start)
            XCTAssertEqual(PlannerShownTime.text(seconds: seconds), WireProtocol.ShownTime.text(seconds: seconds), "\(seconds) s")
        }
    }
}
