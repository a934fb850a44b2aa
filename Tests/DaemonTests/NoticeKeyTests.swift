@testable import Daemon
import Foundation
import WireProtocol
import XCTest

/// The stored names of sent notices keep their exact text: a reminder is sent once because its
/// name is stored (`Reminders.recordSentNotice`), so a name written differently after an
/// upgrade would send a notice of today again.
final class NoticeKeyTests: XCTestCase {
    let helsinki = TimeZone(identifier: "Europe/Helsinki")!
    let utc = TimeZone(identifier: "UTC")!
    /// 2026-11-30T19:17:38.900Z: the fraction is dropped, not rounded.
    let evening = Date(timeIntervalSince1970: 1_796_066_258.9)
    /// 2026-07-01T12:00:05Z, in summer time.
    let noon = Date(timeIntervalSince1970: 1_782_907_205)

    func testStoredNoticeKeysKeepTheirExactText() {
        XCTAssertEqual(NoticeKey.missedConnection(step: 2, departure: evening, in: helsinki),
                       "missed_connection:2@2026-11-30T21:17:38+02:00")
        XCTAssertEqual(NoticeKey.pendingUpdate("1, 3", at: noon, in: helsinki), "pending_update:1, 3@2026-07-01T15:00:05+03:00")
        XCTAssertEqual(NoticeKey.delay(tripID: "T 7", departure: evening, in: utc), "delay:T 7@2026-11-30T19:17:38Z")
        XCTAssertEqual(NoticeKey.delay(tripID: "x", departure: noon, in: TimeZone(identifier: "America/St_Johns")!),
                       "delay:x@2026-07-01T09:30:05-02:30")
        XCTAssertEqual(NoticeKey.cancelled(tripID: "T 7"), "cancelled:T 7")
        XCTAssertEqual(NoticeKey.snoozed("leave@2026-11-30", due: evening, in: helsinki),
                       "leave@2026-11-30#snoozed@2026-11-30T21:17:38+02:00")
    }

    /// The leave reminder is one a day: the day of the leave time in the plan's zone.
    func testTheLeaveKeyIsTheLocalDay() {
        let lateEvening = Date(timeIntervalSince1970: 1_796_077_800) // 2026-11-30T22:30:00Z
        XCTAssertEqual(NoticeKey.leave(at: lateEvening, in: helsinki), "leave@2026-12-01")
        XCTAssertEqual(NoticeKey.leave(at: lateEvening, in: utc), "leave@2026-11-30")
    }

    /// The keys' instants are the wire's text of them (what they were first written with), for
    /// any instant and zone a plan meets.
    func testKeyInstantsAreTheWiresTextOfThem() {
        var generator = SystemRandomNumberGenerator()
        let zones = ["Europe/Helsinki", "UTC", "America/St_Johns", "Asia/Kolkata", "Pacific/Chatham", "America/Los_Angeles",
                     "Australia/Lord_Howe", "Pacific/Kiritimati", "Etc/GMT+12"].compactMap(TimeZone.init(identifier:))
        XCTAssertEqual(zones.count, 9)
        for _ in 0..<5_000 {
            // 1950 ... 2150, with fractions of a second.
            let date = Date(timeIntervalSince1970: Double.random(in: -631_152_000...5_680_281_600, using: &generator))
            let zone = zones.randomElement(using: &generator)!
            XCTAssertEqual(NoticeKey.instant(date, zone), WireTime.string(from: date, timeZone: zone), "\(date.timeIntervalSince1970) \(zone.identifier)")
        }
    }
}
