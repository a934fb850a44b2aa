import Foundation
import TestSupport
import WireProtocol
import XCTest

final class WireTimeTests: XCTestCase {
    let helsinki = TimeZone(identifier: "Europe/Helsinki")!
    /// 2022-01-12 10:00 UTC = 12:00 in Tampere (winter, +02:00).
    let noonInTampere = Date(timeIntervalSince1970: 1_641_981_600)

    func testInstantsAreWrittenWithTheRegionsOffset() {
        XCTAssertEqual(WireTime.string(from: noonInTampere, timeZone: helsinki), "2022-01-12T12:00:00+02:00")
    }

    func testSummerInstantsUseTheSummerOffset() {
        let july = Date(timeIntervalSince1970: 1_657_620_000) // 2022-07-12 10:00 UTC
        XCTAssertEqual(WireTime.string(from: july, timeZone: helsinki), "2022-07-12T13:00:00+03:00")
    }

    func testFormattingAgreesWithFoundationAcrossZonesAndDaylightSavingChanges() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        var random = SeededRandom(seed: 42)
        for zone in ["Europe/Helsinki", "America/St_Johns", "Asia/Kathmandu", "UTC", "Pacific/Chatham"] {
            let timeZone = TimeZone(identifier: zone)!
            formatter.timeZone = timeZone
            for _ in 0..<300 {
                let seed = random.next()
                // 1970…2100 (older history has offsets with seconds, which RFC 3339 cannot write).
                let seconds = Double(Int64(bitPattern: seed >> 1) % 4_100_000_000)
                let date = Date(timeIntervalSince1970: seconds)
                XCTAssertEqual(WireTime.string(from: date, timeZone: timeZone), formatter.string(from: date), "\(zone) \(seconds)")
            }
        }
    }

    func testWrittenInstantsReadBackExactly() {
        let text = WireTime.string(from: noonInTampere, timeZone: helsinki)
        XCTAssertEqual(WireTime.date(from: text), noonInTampere)
    }

    /// `date(from:)` reads by hand (no ICU in umctl): every instant written in any zone reads
    /// back to what Foundation's formatter reads.
    func testReadingAgreesWithFoundationAcrossZones() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        var random = SeededRandom(seed: 26)
        for zone in ["Europe/Helsinki", "America/St_Johns", "Asia/Kathmandu", "UTC", "Pacific/Chatham"] {
            let timeZone = TimeZone(identifier: zone)!
            for _ in 0..<300 {
                let seed = random.next()
                let date = Date(timeIntervalSince1970: Double(Int64(bitPattern: seed >> 1) % 4_100_000_000))
                let text = WireTime.string(from: date, timeZone: timeZone)
                XCTAssertEqual(WireTime.date(from: text), formatter.date(from: text), text)
                XCTAssertEqual(WireTime.date(from: text), date, text)
            }
        }
    }

    func testInstantsReadEveryOffsetFormAndFractions() {
        for text in ["2022-01-12T08:15:00+02:00", "2022-01-12T08:15:00+0200", "2022-01-12T08:15:00+02", "2022-01-12T06:15:00Z",
                     "2022-01-12T06:15:00z", "2022-01-12t06:15:00Z", "2022-01-12T03:15:00-03:00", "2022-01-12T00:30:00-05:45"] {
            XCTAssertEqual(WireTime.date(from: text)?.timeIntervalSince1970, 1_641_968_100, text)
        }
        XCTAssertEqual(WireTime.date(from: "2022-01-12T08:15:00.5+02:00")?.timeIntervalSince1970, 1_641_968_100.5)
        XCTAssertEqual(WireTime.date(from: "2024-02-29T00:00:00Z")?.timeIntervalSince1970, 1_709_164_800)
    }

    /// Foundation's formatter carried 31 February into March and read trailing junk; ours refuses.
    func testInstantsWithFieldsOutOfRangeOrTrailingTextAreRefused() {
        for text in ["2022-02-31T08:15:00Z", "2023-02-29T08:15:00Z", "2022-13-01T08:15:00Z", "2022-01-12T24:00:00Z",
                     "2022-01-12T08:60:00Z", "2022-01-12T08:15:60Z", "2022-01-12T08:15:00+19:00", "2022-01-12T08:15:00+02:60",
                     "2022-01-12T08:15:00+02:00junk", "2022-01-12T08:15:00", "2022-01-12T08:15Z", "2022-01-12 08:15:00Z",
                     "2022-1-12T08:15:00Z", "2022-01-12T08:15:00.Z", " 2022-01-12T08:15:00Z", ""] {
            XCTAssertNil(WireTime.date(from: text), text)
        }
    }

    func testClockTimeIsTodayInTheRegion() {
        let date = WireTime.parse("08:15", timeZone: helsinki, now: noonInTampere)
        XCTAssertEqual(date.map { WireTime.string(from: $0, timeZone: helsinki) }, "2022-01-12T08:15:00+02:00")
    }

    func testClockTimeUsesTheRegionsDayNotUTCs() {
        let lateUTC = Date(timeIntervalSince1970: 1_642_024_800) // 2022-01-12 22:00 UTC = 13 Jan 00:00 local
        let date = WireTime.parse("07:00", timeZone: helsinki, now: lateUTC)
        XCTAssertEqual(date.map { WireTime.string(from: $0, timeZone: helsinki) }, "2022-01-13T07:00:00+02:00")
    }

    func testLocalISOTimeWithoutOffsetIsInTheRegion() {
        let date = WireTime.parse("2022-01-12T08:15", timeZone: helsinki, now: noonInTampere)
        XCTAssertEqual(date?.timeIntervalSince1970, 1_641_968_100)
    }

    func testISOTimeWithOffsetIsTakenAsIs() {
        let date = WireTime.parse("2022-01-12T06:15:00Z", timeZone: helsinki, now: noonInTampere)
        XCTAssertEqual(date?.timeIntervalSince1970, 1_641_968_100)
    }

    func testISOTimeWithAnOffsetIsAcceptedWithOrWithoutSeconds() {
        // All 2022-01-12 06:15 UTC, typed in a zone that is neither of the offsets.
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        for text in ["2022-01-12T08:15+02:00", "2022-01-12T08:15:00+02:00", "2022-01-12T06:15Z", "2022-01-12T08:15+0200",
                     "2022-01-12T08:15+02", "2022-01-12T03:15-03:00", "2022-01-12T03:15:00-03:00"] {
            XCTAssertEqual(WireTime.parse(text, timeZone: tokyo, now: noonInTampere)?.timeIntervalSince1970, 1_641_968_100, text)
        }
    }

    func testUTCIsNamedUTCNotGMT() {
        XCTAssertEqual(WireTime.zoneName(TimeZone(identifier: "UTC")!), "UTC")
        XCTAssertEqual(WireTime.zoneName(TimeZone(identifier: "America/Sao_Paulo")!), "America/Sao_Paulo")
    }

    /// A machine set to UTC reports `Etc/UTC` (Debian's /etc/localtime); every table names it UTC.
    func testEveryAliasOfUTCIsNamedUTC() {
        for alias in ["Etc/UTC", "Etc/GMT", "GMT", "UCT", "Etc/Universal", "Zulu"] {
            guard let zone = TimeZone(identifier: alias) else { continue }
            XCTAssertEqual(WireTime.zoneName(zone), "UTC", alias)
        }
        XCTAssertEqual(WireTime.zoneName(TimeZone(identifier: "Etc/GMT+3")!), "Etc/GMT+3")
    }

    func testImpossibleTimesAreRejected() {
        for text in ["24:00", "8:5", "noon", "2022-02-31T08:00", "2022-01-12T25:00", "12:60", "", "08:00+02:00",
                     "2022-01-12T08:15+25:00", "2022-01-12T08:15+02:0", "2022-01-12T08:15+02:00:00"] {
            XCTAssertNil(WireTime.parse(text, timeZone: helsinki, now: noonInTampere), text)
        }
    }

    /// Issue 44: an alert ending at 2^64-1 seconds reached `string(from:)` and trapped converting
    /// to Int64; any instant is now written, clamped a day inside what four year digits hold.
    func testInstantsBeyondYear9999OrNotANumberAreWrittenAtTheEndOfTheRangeNotTrapped() {
        let cases: [(Double, String)] = [
            (1.8446744073709552e19, "9999-12-30T23:59:59Z"), (9.223372036854775807e18, "9999-12-30T23:59:59Z"),
            (.infinity, "9999-12-30T23:59:59Z"), (-.infinity, "0001-01-02T00:00:00Z"),
            (-9.223372036854775808e18, "0001-01-02T00:00:00Z"), (.nan, "1970-01-01T00:00:00Z"),
        ]
        for (seconds, written) in cases {
            XCTAssertEqual(WireTime.string(from: Date(timeIntervalSince1970: seconds), offset: 0), written, "\(seconds)")
        }
        XCTAssertEqual(WireTime.string(from: Date(timeIntervalSince1970: 0), offset: Int.max), "1970-01-01T18:00:00+18:00",
                       "an offset beyond 18 hours is written as 18")
    }
}
