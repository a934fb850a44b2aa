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
