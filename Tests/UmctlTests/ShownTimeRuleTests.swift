@testable import umctl
import FoundationEssentials
import TestSupport
import WireProtocol
import XCTest

/// Issue 41 item 6: one rounding rule (`ShownTime`, docs/umctl.md): clock times are floored to
/// the minute, a duration between two shown times is their difference, so what umctl shows
/// always adds up and a chain never looks impossible.
final class ShownTimeRuleTests: XCTestCase {
    /// A small generator with a fixed seed: the same legs every run.
    /// Minutes of a duration as umctl writes it: "9 min", "1 h 47 min".
    func minutes(of text: String) throws -> Int {
        let parts = text.split(separator: " ")
        if parts.count == 2, parts[1] == "min" { return try XCTUnwrap(Int(parts[0]), text) }
        XCTAssertEqual(parts.count, 4, text)
        XCTAssertEqual(parts[1], "h", text)
        let hours = try XCTUnwrap(Int(parts[0]), text), rest = try XCTUnwrap(Int(parts[2]), text)
        XCTAssertTrue(hours >= 1 && rest < 60, text)
        return hours * 60 + rest
    }

    func testForRandomLegsTheShownDurationIsTheDifferenceOfTheShownTimesAndEachTimeIsTheFloorOfTheRealOne() throws {
        var random = SeededRandom(seed: 41)
        let offset = 7_200  // +02:00, as Tampere in winter
        for _ in 0..<2_000 {
            let departure = 1_641_974_400 + Double(Int.random(in: 0..<86_400, using: &random))
                + Double(Int.random(in: 0..<1000, using: &random)) / 1000
            let arrival = departure + Double.random(in: 0..<(5 * 3_600), using: &random)
            let (leaves, arrives) = (WireTime.string(from: Date(timeIntervalSince1970: departure), offset: offset),
                                     WireTime.string(from: Date(timeIntervalSince1970: arrival), offset: offset))
            let leg = LegDocument(durationS: arrival - departure, distanceM: nil, departure: leaves, arrival: arrives,
                                  transfers: 0, rides: [])
            let text = Render.pendingLeg(leg, askedDay: nil)  // "leaves 08:02, arrives 08:11 (9 min)"
            let shown = try XCTUnwrap(text.wholeMatch(of: /leaves (\d\d):(\d\d), arrives (\d\d):(\d\d) \((.+)\)/), text)
            let shownLeave = Int(shown.1)! * 60 + Int(shown.2)!, shownArrive = Int(shown.3)! * 60 + Int(shown.4)!
            func realMinuteOfDay(_ seconds: Double) -> Int { (Int(seconds.rounded(.down)) + offset) % 86_400 / 60 }
            XCTAssertEqual(shownLeave, realMinuteOfDay(departure), "the departure's minute, floored: \(text)")
            XCTAssertEqual(shownArrive, realMinuteOfDay(arrival), "the arrival's minute, floored: \(text)")
            let span = (shownArrive - shownLeave + 1_440) % 1_440
            if span == 0, departure.rounded(.down) < arrival.rounded(.down) {
                XCTAssertEqual(String(shown.5), "< 1 min", "seconds within one shown minute: \(text)")
                continue
            }
            XCTAssertEqual(try minutes(of: String(shown.5)), span, "the duration is what the times shown give: \(text)")
            if span >= 60 { XCTAssertTrue(shown.5.contains(" h "), text) }
        }
    }

    func testTheIssuesLegAddsUp() {
        // 08:02:09 → 08:11:45 read "10 min 08:02 08:11" before: it now reads 9 min.
        let leg = LegDocument(durationS: 576, distanceM: nil, departure: "2022-01-12T08:02:09+02:00",
                              arrival: "2022-01-12T08:11:45+02:00", transfers: 0, rides: [])
        XCTAssertEqual(Render.pendingLeg(leg, askedDay: nil), "leaves 08:02, arrives 08:11 (9 min)")
    }

    /// Trial 49 finding 10: a 51 m walk from 10:02:05 to 10:02:50 read "walk 0 min".
    func testAWayWithinOneShownMinuteReadsLessThanAMinuteNeverZero() {
        let leg = LegDocument(durationS: 45, distanceM: 51, departure: "2022-01-12T10:02:05+02:00",
                              arrival: "2022-01-12T10:02:50+02:00", transfers: 0, rides: [])
        XCTAssertEqual(Render.pendingLeg(leg, askedDay: nil), "leaves 10:02, arrives 10:02 (< 1 min)")
        XCTAssertEqual(Render.duration(0, from: "2022-01-12T10:02:05+02:00", to: "2022-01-12T10:02:05+02:00"), "0 min",
                       "no time between them: nothing to walk")
    }

    func testAnArrivalSecondsBeforeTheNextDepartureNeverReadsAsTheSameMinuteOrLater() {
        // Arrives 10:02:40, the next ride leaves 10:03:00: shown 10:02 → 10:03, a change that can be made.
        XCTAssertEqual(Render.clock("2022-01-12T10:02:40+02:00"), "10:02")
        XCTAssertEqual(Render.clock("2022-01-12T10:03:00+02:00"), "10:03")
    }

    func testADurationAloneIsRoundedAndFromAnHourOnReadsInHoursAndMinutes() {
        XCTAssertEqual(Render.duration(107 * 60), "1 h 47 min")
        XCTAssertEqual(Render.duration(67 * 60 + 20), "1 h 07 min")
        XCTAssertEqual(Render.duration(59 * 60 + 29), "59 min")
        XCTAssertEqual(Render.duration(89.5), "1 min", "rounded to the nearest minute")
        XCTAssertEqual(Render.duration(20), "1 min", "a moment is at least a minute, never 0 min")
        XCTAssertEqual(Render.duration(0), "0 min")
        XCTAssertEqual(Render.duration(90 * 60 + 31), "1 h 31 min")
    }

    func testAShortImportReadsInMillisecondsNotZeroSeconds() {
        XCTAssertEqual(Render.elapsed(0.44), "440 ms")
        XCTAssertEqual(Render.elapsed(0.0002), "under 1 ms")
        XCTAssertEqual(Render.elapsed(11.26), "11.3 s")
    }
}
