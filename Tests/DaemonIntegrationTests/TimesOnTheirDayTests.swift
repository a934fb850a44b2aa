import Foundation
import WireProtocol
import XCTest

/// Issue 28 item 3: every time carries its day. Asked for 20:00, Tampere's last bus to Hervanta
/// has gone: the answer is the next morning's, and umctl says so wherever it prints a time
/// ("06:02 +1d"), while the JSON keeps full dates and offsets.
final class TimesOnTheirDayTests: SharedTampereDaemonTestCase {
    private let evening = "2022-01-12T20:00"

    /// `HH:MM` of a wire instant.
    private func clock(_ iso: String) -> String { String(iso.dropFirst(11).prefix(5)) }

    func testCompareMarksTheNextMorningsDepartureAndSaysNothingRunsLaterThatDay() throws {
        let harness = try harness
        let answer = try harness.json(["compare", Tampere.keskustori, Tampere.hervanta, "--at", evening])
        XCTAssertEqual(answer["time"], .string("2022-01-12T20:00:00+02:00"), "the time asked, with its offset")
        let transit = try XCTUnwrap(answer["options"]?.arrayValue?.first { $0["mode"]?.stringValue == "transit" })
        let departure = try XCTUnwrap(transit["departure"]?.stringValue, "\(transit)")
        let arrival = try XCTUnwrap(transit["arrival"]?.stringValue)
        XCTAssertTrue(departure.hasPrefix("2022-01-13T") && departure.hasSuffix("+02:00"), "the JSON keeps the full date: \(departure)")

        let shown = try harness.umctl(["compare", Tampere.keskustori, Tampere.hervanta, "--at", evening])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        let lines = shown.stdout.split(separator: "\n").map(String.init)
        let note = "note: no more transit on 2022-01-12 after 20:00; next departure \(clock(departure)) +1d (2022-01-13)"
        let noteIndex = try XCTUnwrap(lines.firstIndex(of: note), shown.stdout)
        let row = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("transit") }, shown.stdout)
        XCTAssertLessThan(noteIndex, row, "said before the next morning is offered")
        XCTAssertTrue(lines[row].contains("\(clock(departure)) +1d") && lines[row].contains("\(clock(arrival)) +1d"), lines[row])
        let walk = try XCTUnwrap(lines.first { $0.hasPrefix("walk") }, shown.stdout)
        XCTAssertFalse(walk.contains("+1d"), "a walk leaving at 20:00 is on the day asked: \(walk)")
    }

    func testPlanShowAndAlternativesMarkTimesOnTheNextDay() throws {
        let harness = try harness
        let plan = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "transit", "--at", evening])
        let id = String(Int64(try XCTUnwrap(plan["id"]?.numberValue)))
        let segments = try XCTUnwrap(plan["segments"]?.arrayValue)
        let transit = try XCTUnwrap(segments.firstIndex { $0["leg"]?["rides"]?.arrayValue?.isEmpty == false }, "\(plan)")
        let ride = try XCTUnwrap(segments[transit]["leg"]?["rides"]?.arrayValue?.first)
        let boards = try XCTUnwrap(ride["departure"]?.stringValue)
        XCTAssertTrue(boards.hasPrefix("2022-01-13T"), boards)

        let shown = try harness.umctl(["plan", "show", id])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("depart at 2022-01-12 20:00"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("\(clock(boards)) +1d"), "the ride's time carries its day: \(shown.stdout)")
        let arrival = try XCTUnwrap(plan["nodes"]?.arrayValue?.last?["time"]?.stringValue)
        XCTAssertTrue(shown.stdout.contains("\(clock(arrival)) +1d  "), "so does the arrival: \(shown.stdout)")

        let listed = try harness.umctl(["plan", "alternatives", id, String(transit + 1)])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let first = try XCTUnwrap(listed.stdout.split(separator: "\n").first { $0.hasPrefix("1 ") }, listed.stdout)
        XCTAssertTrue(first.contains("+1d"), "an option the next morning says so: \(listed.stdout)")
    }

    func testRegionListAndStatusShowEachFeedsDatesAndItsServiceHoursOnTheDayAsked() async throws {
        let harness = try harness
        let listed = try harness.json(["region", "list", "--date", "2022-01-12"])
        let feed = try XCTUnwrap(listed["regions"]?.arrayValue?.first?["transit_feeds"]?.arrayValue?.first, "\(listed)")
        XCTAssertEqual(feed["service_day"], .string("2022-01-12"))
        let first = try XCTUnwrap(feed["first_departure"]?.stringValue, "\(feed)")
        let last = try XCTUnwrap(feed["last_arrival"]?.stringValue)
        XCTAssertTrue(first.hasPrefix("2022-01-12T") && first.hasSuffix("+02:00"), first)
        XCTAssertLessThan(try XCTUnwrap(WireTime.date(from: first)), try XCTUnwrap(WireTime.date(from: last)))
        // Nothing rides before the day's first departure.
        let early = try harness.json(["compare", Tampere.keskustori, Tampere.hervanta, "--at", "2022-01-12T00:30"])
        let ride = early["options"]?.arrayValue?.first { $0["mode"]?.stringValue == "transit" }?["departure"]?.stringValue
        XCTAssertLessThanOrEqual(try XCTUnwrap(WireTime.date(from: first)), try XCTUnwrap(ride.flatMap(WireTime.date(from:))))

        let lastDay = last.hasPrefix("2022-01-13") ? " +1d" : ""
        let text = try harness.umctl(["region", "list", "--date", "2022-01-12"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("service hours 2022-01-12"), text.stdout)
        XCTAssertTrue(text.stdout.contains("\(clock(first)) – \(clock(last))\(lastDay)"), text.stdout)

        let outside = try harness.json(["region", "list", "--date", "2023-06-01"])
        let none = outside["regions"]?.arrayValue?.first?["transit_feeds"]?.arrayValue?.first
        XCTAssertEqual(none?["service_day"], .string("2023-06-01"))
        XCTAssertEqual(none?["first_departure"], .null, "the feed ends in 2022")
        XCTAssertTrue(try harness.umctl(["region", "list", "--date", "2023-06-01"]).stdout.contains("no service"))
        let refused = try harness.umctl(["region", "list", "--date", "2022-13-45"])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("--date must be YYYY-MM-DD"), refused.stderr)
        for date in ["2022-02-30", "tomorrow"] {
            await XCTAssertThrowsErrorAsync(try await harness.client().call(Endpoints.regionList, Params.ServiceDay(date: date))) {
                XCTAssertEqual(($0 as? WireError)?.code, "invalid_params", "\($0)")
                XCTAssertTrue(($0 as? WireError)?.message.contains("date \"\(date)\" must be a calendar date") == true, "\($0)")
            }
        }

        // Today on the daemon's clock when no day is given, in status too.
        let today = try XCTUnwrap(try harness.json(["region", "list"])["regions"]?.arrayValue?.first?["transit_feeds"]?
            .arrayValue?.first?["service_day"]?.stringValue)
        let status = try harness.umctl(["status"])
        XCTAssertTrue(status.stdout.contains("transit:   tampere tampere.zip \(feed["first_date"]?.stringValue ?? "?") – "
                                             + "\(feed["last_date"]?.stringValue ?? "?"); on \(today): "), status.stdout)
    }
}

/// The mirror on a small region whose one train leaves at 23:30: asked to arrive by 01:00, the
/// answer arrives the evening before, and umctl says so.
final class TimesOnTheirDayArriveByTests: XCTestCase {
    func testCompareArrivingByEarlyMorningSaysTheLatestArrivalIsTheEveningBefore() throws {
        let harness = try startDaemon()
        let region = SmallRegion(name: "tokyo", latitude: 35.6812, longitude: 139.7671)
        let line = SmallRegion.Line(zone: "Asia/Tokyo", fromStop: "Kanda Gate", toStop: "Marunouchi Square",
                                    departure: "23:30:00", minutes: 8, dates: ("20260801", "20260831"))
        let imported = try harness.umctl(["region", "import", region.name, "--osm", try region.writeOSM(in: harness.directory).path,
                                          "--gtfs", try region.writeFeed(line, in: harness.directory).path])
        XCTAssertEqual(imported.status, 0, imported.stderr)

        let answer = try harness.json(["compare", region.southWest, region.northEast, "--arrive-by", "2026-08-12T01:00"])
        XCTAssertEqual(answer["time"], .string("2026-08-12T01:00:00+09:00"))
        XCTAssertEqual(answer["time_kind"], .string("arrive_by"))
        let transit = try XCTUnwrap(answer["options"]?.arrayValue?.first { $0["mode"]?.stringValue == "transit" })
        let arrival = try XCTUnwrap(transit["arrival"]?.stringValue, "\(transit)")
        XCTAssertTrue(arrival.hasPrefix("2026-08-11T23:38"), arrival)

        let shown = try harness.umctl(["compare", region.southWest, region.northEast, "--arrive-by", "2026-08-12T01:00"])
        XCTAssertTrue(shown.stdout.contains("note: no transit on 2026-08-12 arrives by 01:00; latest arrival 23:38 -1d (2026-08-11)"),
                      shown.stdout)
        XCTAssertTrue(shown.stdout.contains(" -1d  23:38 -1d"), "both times in the table carry the day: \(shown.stdout)")
    }
}
