import WireProtocol
import XCTest

/// Durations as `--lead`, `--remind-lead`, `--update-interval` and `--realtime-interval` take them.
final class DurationTextTests: XCTestCase {
    func testDurationsWithUnitsBareMinutesAndNonsense() {
        XCTAssertEqual(DurationText.seconds("15m"), 900)
        XCTAssertEqual(DurationText.seconds("90s"), 90)
        XCTAssertEqual(DurationText.seconds("1h30m"), 5400)
        XCTAssertEqual(DurationText.seconds("10"), 600, "a bare number is minutes")
        XCTAssertNil(DurationText.seconds("soon"))
        XCTAssertNil(DurationText.seconds("15x"))
        XCTAssertNil(DurationText.seconds("1h30"), "a number without its unit at the end")
        XCTAssertNil(DurationText.seconds("-5"))
        XCTAssertNil(DurationText.seconds(""))
    }

    func testSettingsCountingInSecondsReadABareNumberAsSecondsAndTakeDays() {
        XCTAssertEqual(DurationText.seconds("45", bareUnit: 1), 45)
        XCTAssertEqual(DurationText.seconds("1d", bareUnit: 1), 86_400)
        XCTAssertEqual(DurationText.seconds("30s", bareUnit: 1), 30)
    }
}
