@testable import Daemon
import Foundation
import XCTest

/// Reading gpsd's JSON reports, the fix filter and the gpsd address setting, without a gpsd.
final class GpsdProtocolTests: XCTestCase {
    func line(_ text: String) -> Data { Data(text.utf8) }

    func testATPVReportIsAPositionWithGpsdsErrorEstimate() throws {
        let report = try GpsdReport.parse(line(#"{"class":"TPV","mode":3,"time":"2026-11-30T19:17:38.000Z","lat":61.4978,"lon":23.761,"eph":17.1}"#))
        guard case .position(let candidate) = report else { return XCTFail("\(report)") }
        XCTAssertEqual(candidate.latitude, 61.4978)
        XCTAssertEqual(candidate.accuracy, 17.1)
        XCTAssertTrue(candidate.hasFix)
        XCTAssertEqual(candidate.time, Date(timeIntervalSince1970: 1_796_066_258))
    }

    func testOlderGpsdWithoutEphGivesTheLargerOfEpxAndEpy() throws {
        let report = try GpsdReport.parse(line(#"{"class":"TPV","mode":2,"time":"2026-11-30T19:17:38Z","lat":1,"lon":2,"epx":4.5,"epy":12}"#))
        guard case .position(let candidate) = report else { return XCTFail("\(report)") }
        XCTAssertEqual(candidate.accuracy, 12)
    }

    func testOtherClassesAreNotPositionsAndGarbageIsAnError() throws {
        XCTAssertEqual(try GpsdReport.parse(line(#"{"class":"SKY","satellites":[]}"#)), .other(className: "SKY"))
        XCTAssertThrowsError(try GpsdReport.parse(line("HTTP/1.1 400 Bad Request")))
        XCTAssertThrowsError(try GpsdReport.parse(line(#"{"lat":1}"#)))
    }

    /// gpsd writes its times in UTC, with or without a fraction; anything else is no time (the
    /// fix is then refused as invalid), a day that does not exist included.
    func testGpsdTimesAreUTCWithOrWithoutAFraction() {
        let second = Date(timeIntervalSince1970: 1_796_066_258)
        XCTAssertEqual(GpsdTime.date(from: "2026-11-30T19:17:38Z"), second)
        XCTAssertEqual(GpsdTime.date(from: "2026-11-30T19:17:38.500Z"), second.addingTimeInterval(0.5))
        XCTAssertEqual(GpsdTime.date(from: "2024-02-29T00:00:00.1Z")?.timeIntervalSince1970 ?? 0, 1_709_164_800.1, accuracy: 1e-6)
        for bad in ["", "2026-11-30T19:17:38", "2026-11-31T19:17:38Z", "2026-11-30T24:00:00Z", "2026-11-30T19:17:38.Z",
                    "2026-11-30 19:17:38Z", "2026-11-30T19:17:38+02:00", "2026-13-01T00:00:00Z", "x026-11-30T19:17:38Z"] {
            XCTAssertNil(GpsdTime.date(from: bad), bad)
        }
        XCTAssertEqual(try GpsdReport.parse(line(#"{"class":"TPV","mode":"3","lat":"x","time":7}"#)),
                       .position(FixFilter.Candidate(latitude: nil, longitude: nil, accuracy: nil, time: nil, hasFix: false)),
                       "members of the wrong type are absent, not a broken line")
    }

    func testTheFilterNamesWhyAFixIsIgnored() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        func candidate(accuracy: Double? = 10, time: Date? = now, hasFix: Bool = true, lat: Double = 61.5) -> FixFilter.Candidate {
            FixFilter.Candidate(latitude: lat, longitude: 23.7, accuracy: accuracy, time: time, hasFix: hasFix)
        }
        func reason(_ candidate: FixFilter.Candidate, latest: Date? = nil) -> FixRejection? {
            if case .failure(let reason) = FixFilter.check(candidate, latest: latest, now: now) { return reason }
            return nil
        }
        XCTAssertNil(reason(candidate()))
        XCTAssertNil(reason(candidate(accuracy: 30)), "30 m is within the gate")
        XCTAssertEqual(reason(candidate(accuracy: 30.5)), .inaccurate)
        XCTAssertEqual(reason(candidate(accuracy: 50)), .inaccurate)
        XCTAssertEqual(reason(candidate(accuracy: nil)), .noAccuracy)
        XCTAssertEqual(reason(candidate(hasFix: false)), .noFix)
        XCTAssertEqual(reason(candidate(time: nil)), .invalid)
        XCTAssertEqual(reason(candidate(lat: 91)), .invalid)
        XCTAssertEqual(reason(candidate(), latest: now.addingTimeInterval(1)), .stale)
        XCTAssertNil(reason(candidate(), latest: now), "the same second again is not older")
        XCTAssertNil(reason(candidate(time: now.addingTimeInterval(60))), "a minute ahead is a clock a little off")
        XCTAssertEqual(reason(candidate(time: now.addingTimeInterval(61))), .future)
    }

    func testOfferedFixesAreCountedPerSourceAndPerReason() {
        let location = LocationState()
        let time = Date(timeIntervalSince1970: 1_000_000)
        let good = FixFilter.Candidate(latitude: 61.5, longitude: 23.7, accuracy: 9, time: time, hasFix: true)
        var bad = good
        bad.accuracy = 50
        _ = location.offer(good, source: .gpsd, now: time)
        _ = location.offer(bad, source: .gpsd, now: time)
        var older = good
        older.time = time.addingTimeInterval(-5)
        _ = location.offer(older, source: .gpsd, now: time)
        XCTAssertEqual(location.current?.source, .gpsd)
        XCTAssertEqual(location.counts.accepted, [.gpsd: 1])
        XCTAssertEqual(location.counts.ignored, [.inaccurate: 1, .stale: 1])
    }

    func testTheGpsdSettingTakesHostPortOrASocketPathAndIsOffByDefault() throws {
        XCTAssertEqual(GpsdAddress("localhost"), .tcp(host: "localhost", port: 2947))
        XCTAssertEqual(GpsdAddress("127.0.0.1:29470"), .tcp(host: "127.0.0.1", port: 29470))
        XCTAssertEqual(GpsdAddress("[::1]:2947"), .tcp(host: "::1", port: 2947))
        XCTAssertEqual(GpsdAddress("/run/gpsd.sock"), .unix(path: "/run/gpsd.sock"))
        for bad in ["", "host:0", "host:99999", "::1", "a b:2947", "[::1]x"] { XCTAssertNil(GpsdAddress(bad), bad) }

        let environment = ["HOME": "/nonexistent"]
        XCTAssertNil(try DaemonConfiguration.resolve(arguments: [], environment: environment).gpsd, "default off")
        XCTAssertNil(try DaemonConfiguration.resolve(arguments: ["--gpsd", "off"], environment: environment).gpsd)
        XCTAssertEqual(try DaemonConfiguration.resolve(arguments: ["--gpsd", "127.0.0.1:2947"], environment: environment).gpsd,
                       .tcp(host: "127.0.0.1", port: 2947))
        XCTAssertThrowsError(try DaemonConfiguration.resolve(arguments: ["--gpsd", "host:port"], environment: environment)) {
            XCTAssertTrue("\($0)".contains("gpsd address"), "\($0)")
        }
    }
}
