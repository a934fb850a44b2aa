import Foundation
import WireProtocol
import XCTest

/// Issue 22, "Coverage and warnings": each feed's covered dates and days left in `region list`
/// and `status`; `feed_expiring` on `watch` from `--expiry-warning` days before a feed's last
/// day, once a service day (across restarts) and again on the last day; a plan on a day outside
/// its region's coverage says so.
final class CoverageAndWarningsTests: XCTestCase {
    /// The daemon's clock in these tests: 2022-03-10 09:00 in Helsinki.
    private static let clockStart = "2022-03-10T09:00:00+02:00"

    private func region(_ name: String, northOf offset: Double = 0) -> SmallRegion {
        SmallRegion(name: name, latitude: 61.5 + offset, longitude: 23.76)
    }

    private func line(_ region: String, until last: String, calendarDatesOnly: Bool = false,
                      from first: String = "20220301", stopIDPrefix: String = "S") -> SmallRegion.Line {
        SmallRegion.Line(zone: "Europe/Helsinki", fromStop: "\(region) Asema", toStop: "\(region) Tori", departure: "08:00:00",
                         minutes: 10, dates: (first, last), calendarDatesOnly: calendarDatesOnly, stopIDPrefix: stopIDPrefix)
    }

    private func started(clock: String = clockStart, _ harness: DaemonHarness? = nil) throws -> DaemonHarness {
        let harness = try harness ?? makeDaemon()
        try harness.start(extraArguments: ["--clock-start", clock])
        return harness
    }

    private func feeds(_ harness: DaemonHarness, region: String) throws -> [JSONValue] {
        let listed = try harness.json(["region", "list"])
        let found = listed["regions"]?.arrayValue?.first { $0["name"]?.stringValue == region }
        return try XCTUnwrap(found?["transit_feeds"]?.arrayValue, "\(listed)")
    }

    private func expiring(_ events: [JSONValue]) -> [JSONValue] {
        events.filter { $0["kind"]?.stringValue == "feed_expiring" }
    }

    func testAFeedEndingThreeDaysAfterTheClockGivesFeedExpiringOnWatchAndOneEndingInThirtyDaysDoesNot() throws {
        let harness = try started()
        let watch = try WatchRecorder(harness)
        defer { watch.stop() }
        // The later one first: every import checks every region, so its warning would come first.
        _ = try harness.importSmallRegions([(region("later"), line("later", until: "20220409")),
                                            (region("soon", northOf: 0.1), line("soon", until: "20220313"))])
        let events = try watch.events { !self.expiring($0).isEmpty }
        let warnings = expiring(events)
        XCTAssertEqual(warnings.count, 1, "\(events)")
        let warning = try XCTUnwrap(warnings.first)
        XCTAssertEqual(warning["region"], .string("soon"))
        XCTAssertEqual(warning["feed"], .string("soon.zip"))
        XCTAssertEqual(warning["last_day"], .string("2022-03-13"))
        XCTAssertEqual(warning["days_left"]?.numberValue, 3)
        XCTAssertEqual(warning["message"], .string("transit feed soon.zip of region soon runs out in 3 days (its last day is 2022-03-13)"))
        XCTAssertTrue(harness.log.contains("transit feed runs out soon days_left=3 feed=soon.zip last_day=2022-03-13 region=soon"),
                      harness.log)
        XCTAssertFalse(harness.log.contains("feed=later.zip"), "30 days left is past the 7-day warning")

        XCTAssertEqual(try feeds(harness, region: "soon").first?["days_left"]?.numberValue, 3)
        XCTAssertEqual(try feeds(harness, region: "later").first?["days_left"]?.numberValue, 30)
    }

    func testTheWarningIsSentOnceADayAcrossRestartsAndAgainOnTheLastDay() throws {
        let harness = try started()
        _ = try harness.importSmallRegions([(region("soon"), line("soon", until: "20220313"))])
        func warnings() -> Int { harness.log.components(separatedBy: "transit feed runs out").count - 1 }
        XCTAssertEqual(warnings(), 1, harness.log)

        // The same day again: the start-up check finds it warned already (it runs before the
        // daemon serves). Each start begins a new log.
        XCTAssertEqual(harness.stop(), 0)
        _ = try started(harness)
        XCTAssertEqual(warnings(), 0, "not twice on one day: \(harness.log)")
        XCTAssertTrue(harness.log.contains("feeds checked for expiry"), "the start-up check ran: \(harness.log)")

        // The next day, and the last day, each have their own.
        XCTAssertEqual(harness.stop(), 0)
        _ = try started(clock: "2022-03-11T09:00:00+02:00", harness)
        XCTAssertEqual(warnings(), 1, harness.log)
        XCTAssertTrue(harness.log.contains("transit feed runs out soon days_left=2 feed=soon.zip"), harness.log)
        XCTAssertEqual(harness.stop(), 0)
        _ = try started(clock: "2022-03-13T23:30:00+02:00", harness)
        XCTAssertEqual(warnings(), 1, harness.log)
        XCTAssertTrue(harness.log.contains("transit feed runs out today days_left=0 feed=soon.zip last_day=2022-03-13"), harness.log)
        let watch = try WatchRecorder(harness)
        defer { watch.stop() }
        // `region set` looks again: the last day was warned about, so nothing new on watch.
        XCTAssertEqual(try harness.umctl(["region", "set", "soon", "--time-zone", "Europe/Helsinki"]).status, 0)
        let events = try watch.events { $0.contains { $0["kind"]?.stringValue == "region_changed" } }
        XCTAssertEqual(expiring(events).count, 0, "\(events)")
        XCTAssertEqual(try feeds(harness, region: "soon").first?["days_left"]?.numberValue, 0)
        XCTAssertTrue(try harness.umctl(["status"]).stdout.contains("soon.zip 2022-03-01 – 2022-03-13; on 2022-03-13: 08:00 – 08:10; last day today"))

        // Once the last day has passed: no more warnings, and the days left say how long ago it ended.
        watch.stop()
        XCTAssertEqual(harness.stop(), 0)
        _ = try started(clock: "2022-03-15T09:00:00+02:00", harness)
        XCTAssertEqual(warnings(), 0, harness.log)
        XCTAssertEqual(try feeds(harness, region: "soon").first?["days_left"]?.numberValue, -2)
        let status = try harness.umctl(["status"]).stdout
        XCTAssertTrue(status.contains("soon.zip 2022-03-01 – 2022-03-13; on 2022-03-15: no service; ended 2 days ago"), status)
    }

    func testTheLastDayIsWarnedAboutOnWatch() throws {
        let harness = try started(clock: "2022-03-13T12:00:00+02:00")
        let watch = try WatchRecorder(harness)
        defer { watch.stop() }
        _ = try harness.importSmallRegions([(region("soon"), line("soon", until: "20220313"))])
        let warning = try XCTUnwrap(expiring(try watch.events { !self.expiring($0).isEmpty }).first)
        XCTAssertEqual(warning["days_left"]?.numberValue, 0)
        XCTAssertEqual(warning["message"], .string("transit feed soon.zip of region soon runs out today (2022-03-13 is its last day)"))
    }

    func testExpiryWarningSetsHowManyDaysBeforeTheWarningsStart() throws {
        let harness = try startDaemon(extraArguments: ["--clock-start", Self.clockStart, "--expiry-warning", "2"], assertingCleanExit: false)
        _ = try harness.importSmallRegions([(region("soon"), line("soon", until: "20220313"))])
        XCTAssertFalse(harness.log.contains("transit feed runs out"), "3 days left is past a 2-day warning: \(harness.log)")
        XCTAssertTrue(harness.log.contains("feeds checked for expiry"), harness.log)
    }

    func testACalendarDatesOnlyFeedIsCoveredFromItsFirstToItsLastDate() throws {
        let harness = try started()
        _ = try harness.importSmallRegions([(region("dated"), line("dated", until: "20220320", calendarDatesOnly: true,
                                                                   from: "20220305"))])
        let feed = try XCTUnwrap(try feeds(harness, region: "dated").first)
        XCTAssertEqual(feed["first_date"], .string("2022-03-05"))
        XCTAssertEqual(feed["last_date"], .string("2022-03-20"))
        XCTAssertEqual(feed["days_left"]?.numberValue, 10)
        let imported = try XCTUnwrap(feed["last_change"]?.stringValue, "\(feed)")
        XCTAssertEqual(feed["last_check"]?.stringValue, imported, "checked when imported, until sources are checked for updates")
        let regions = try XCTUnwrap(try harness.json(["region", "list"])["regions"]?.arrayValue)
        XCTAssertEqual(regions.first?["imported_at"]?.stringValue, imported)

        let text = try harness.umctl(["region", "list"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("dated.zip 2022-03-05 – 2022-03-20 (10 days left)"), text.stdout)
        XCTAssertTrue(text.stdout.contains("feed last checked") && text.stdout.contains("feed last changed"), text.stdout)
    }

    func testTwoFeedsOfOneRegionEachHaveTheirOwnCoverageAndWarning() throws {
        let harness = try started()
        let watch = try WatchRecorder(harness)
        defer { watch.stop() }
        let town = region("town")
        let imported = try harness.umctl([
            "region", "import", town.name, "--osm", try town.writeOSM(in: harness.directory).path,
            "--gtfs", try town.writeFeed(line("town", until: "20220331"), in: harness.directory, fileName: "buses.zip").path,
            "--gtfs", try town.writeFeed(line("town", until: "20220314", from: "20220307", stopIDPrefix: "T"), in: harness.directory,
                                         fileName: "trams.zip").path,
        ])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let feeds = try feeds(harness, region: "town")
        XCTAssertEqual(feeds.map { $0["feed"]?.stringValue }, ["buses.zip", "trams.zip"])
        XCTAssertEqual(feeds.map { $0["first_date"]?.stringValue }, ["2022-03-01", "2022-03-07"])
        XCTAssertEqual(feeds.map { $0["last_date"]?.stringValue }, ["2022-03-31", "2022-03-14"])
        XCTAssertEqual(feeds.map { $0["days_left"]?.numberValue }, [21, 4])
        let warnings = expiring(try watch.events { !self.expiring($0).isEmpty })
        XCTAssertEqual(warnings.map { $0["feed"]?.stringValue }, ["trams.zip"], "only the feed that runs out soon")
        let status = try harness.umctl(["status"]).stdout
        XCTAssertTrue(status.contains("transit:   town buses.zip 2022-03-01 – 2022-03-31") && status.contains("21 days left"), status)
        XCTAssertTrue(status.contains("transit:   town trams.zip 2022-03-07 – 2022-03-14") && status.contains("4 days left"), status)
    }

    func testAPlanOnADayAfterTheTimetableEndsSaysSoWhenShown() throws {
        let harness = try started()
        _ = try harness.importSmallRegions([(region("tampere"), line("tampere", until: "20220331"))])
        // The transit segment has no route that day, so `plan new` says the plan is incomplete.
        let created = try harness.umctl(["plan", "new", "tampere Asema", "tampere Tori", "--mode", "transit", "--at", "2022-04-02T09:00"])
        XCTAssertTrue(created.stderr.contains("2022-04-02 is outside the transit timetable"), created.stderr)
        let id = "1"
        let after = try harness.json(["plan", "show", id])
        XCTAssertEqual(after["coverage_note"], .string("2022-04-02 is after the Tampere timetable ends (2022-03-31)"), "\(after)")
        let shown = try harness.umctl(["plan", "show", id])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("note: 2022-04-02 is after the Tampere timetable ends (2022-03-31); no transit that day"),
                      shown.stdout)

        let inside = try harness.json(["plan", "new", "tampere Asema", "tampere Tori", "--mode", "transit", "--at", "2022-03-31T07:30"])
        XCTAssertNil(inside["coverage_note"], "the last day is covered: \(inside)")
        let walk = try harness.json(["plan", "new", "tampere Asema", "tampere Tori", "--mode", "walk", "--at", "2022-04-02T09:00"])
        XCTAssertNil(walk["coverage_note"], "a walk needs no timetable: \(walk)")
    }
}
