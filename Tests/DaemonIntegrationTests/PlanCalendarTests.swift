import Foundation
import WireProtocol
import XCTest

/// Plans as iCalendar (RFC 5545): `plan export --format ics` and the daemon's `plans.ics`,
/// read back with libical, on Tampere on the morning of 2022-01-12.
final class PlanCalendarTests: TampereDaemonTestCase {
    static let clockStart = "2022-01-12T07:00:00+02:00"

    override var daemonArguments: [String] { ["--clock-start", Self.clockStart] }

    func newPlan(_ places: [String], mode: String, at: String) throws -> String {
        let plan = try harness.json(["plan", "new"] + places + ["--mode", mode, "--at", at])
        return String(Int64(try XCTUnwrap(plan["id"]?.numberValue)))
    }

    func show(_ id: String) throws -> PlanDocument { try harness.json(["plan", "show", id]).decode(as: PlanDocument.self) }

    /// The legs with times of a plan as `plan show` gives them: (departure, arrival) instants.
    func legTimes(_ plan: PlanDocument) throws -> [(Date, Date)] {
        let parser = ISO8601DateFormatter()
        return try plan.segments.compactMap(\.leg).compactMap { leg in
            guard let departure = leg.departure, let arrival = leg.arrival else { return nil }
            return (try XCTUnwrap(parser.date(from: departure)), try XCTUnwrap(parser.date(from: arrival)))
        }
    }

    var calendarFile: URL { harness.dataDirectory.appendingPathComponent("plans.ics") }

    func readCalendarFile() throws -> ICalendarReading {
        try ICalendarReading(String(contentsOf: calendarFile, encoding: .utf8))
    }

    func events(of id: String, in reading: ICalendarReading) -> [ICalendarReading.Event] {
        reading.events.filter { $0.uid.hasPrefix("plan-\(id)-") }
    }

    func waitUntil(_ what: String, seconds: Double = 60, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if (try? condition()) == true { return }
            usleep(100_000)
        }
        throw HarnessError("gave up after \(Int(seconds)) s waiting until \(what)")
    }

    func testTheICSExportParsesBackWithLibicalWithOneEventPerLegAtThePlansLegTimesInUTC() throws {
        let id = try newPlan([Tampere.keskustori, Tampere.tampereTalo, Tampere.hervanta], mode: "transit", at: Tampere.morning)
        let plan = try show(id)
        let file = harness.directory.appendingPathComponent("plan.ics")
        let written = try harness.umctl(["plan", "export", id, "-o", file.path])
        XCTAssertEqual(written.status, 0, written.stderr)
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("BEGIN:VCALENDAR\r\n"), "RFC 5545 lines end in CRLF: \(text.prefix(40))")

        let reading = try ICalendarReading(text)
        XCTAssertEqual(reading.timeZones, ["Europe/Helsinki"], "one VTIMEZONE, the region's")
        let expected = try legTimes(plan)
        XCTAssertEqual(reading.events.count, expected.count, "one VEVENT per leg with times")
        XCTAssertFalse(expected.isEmpty)
        for (event, (departure, arrival)) in zip(reading.events, expected) {
            XCTAssertEqual(event.start, departure, "\(event.summary) starts at the leg's departure")
            XCTAssertEqual(event.end, arrival, "\(event.summary) ends at the leg's arrival")
            XCTAssertEqual(event.tzid, "Europe/Helsinki")
            XCTAssertEqual(event.sequence, Int(plan.generation))
            XCTAssertTrue(event.url?.hasPrefix("https://www.google.com/maps") == true, "the leg's link: \(event.url ?? "none")")
            XCTAssertFalse(event.location.isEmpty)
        }
        let rides = plan.segments.compactMap(\.leg).flatMap(\.rides)
        let ride = try XCTUnwrap(rides.first, "a transit plan rides")
        XCTAssertTrue(reading.events.contains { $0.summary.contains("\(ride.line) \(ride.from) → \(ride.to)") },
                      "a ride's summary names its line and stops: \(reading.events.map(\.summary))")
        XCTAssertEqual(Set(reading.events.map(\.uid)).count, reading.events.count, "one UID per leg")

        let printed = try harness.umctl(["plan", "export", id, "--format", "ics"])
        XCTAssertEqual(try ICalendarReading(printed.stdout).events.map(\.uid), reading.events.map(\.uid),
                       "standard output holds the same calendar")
    }

    /// Issue 41: events had no DESCRIPTION.
    func testEachEventDescribesItsStopsLinesWalksAndGoogleMapsLink() throws {
        let id = try newPlan([Tampere.keskustori, Tampere.hervanta], mode: "transit", at: Tampere.morning)
        let plan = try show(id)
        let reading = try ICalendarReading(try harness.umctl(["plan", "export", id, "--format", "ics"]).stdout)
        XCTAssertFalse(reading.events.isEmpty)
        for event in reading.events {
            let description = try XCTUnwrap(event.description, "\(event.summary) has a DESCRIPTION")
            XCTAssertTrue(description.contains("Google Maps: https://www.google.com/maps"), description)
            XCTAssertFalse(event.cancelled)
        }
        let ride = try XCTUnwrap(plan.segments.compactMap(\.leg).flatMap(\.rides).first)
        let rideEvent = try XCTUnwrap(reading.events.first { $0.summary.contains("\(ride.line) \(ride.from)") })
        let clock = String(ride.departure.dropFirst(11).prefix(5))
        XCTAssertTrue(rideEvent.description?.contains("\(ride.line) \(ride.from) \(clock) → \(ride.to)") == true,
                      rideEvent.description ?? "")
        let walk = try XCTUnwrap(plan.segments.compactMap(\.leg).flatMap(\.walks).first { $0.durationS >= 30 && $0.distanceM >= 1 })
        XCTAssertTrue(reading.events.contains { $0.description?.contains("Walk ") == true && $0.description?.contains("to \(walk.to)") == true },
                      "the walks: \(reading.events.compactMap(\.description))")
    }

    /// Issue 41: a missed plan was exported as it stands, a late walk overlapping the tram it misses.
    func testAMissedConnectionIsMarkedAndItsLegsAreNotExportedAsTravelled() throws {
        let created = try harness.json(["plan", "new", "Keskustori", Tampere.hervanta, "Keskustori", "--mode", "transit",
                                        "--at", "2022-01-12T07:30"])
        let id = try id(created)
        let hervanta = try XCTUnwrap(nodes(created).firstIndex { typed($0) == Tampere.hervanta }) + 1
        let back = try XCTUnwrap(transitSegments(created).last) + 1
        _ = try harness.json(["plan", "stay", id, String(hervanta), "--until", "09:30"])
        _ = try harness.json(["plan", "pin", id, String(back), "09:45"])
        let stayed = try harness.json(["plan", "stay", id, String(hervanta), "--until", "09:55"])
        XCTAssertEqual(segments(stayed)[back - 1]["missed_connection"], .bool(true), "\(stayed)")

        let reading = try ICalendarReading(try harness.umctl(["plan", "export", id, "--format", "ics"]).stdout)
        let missed = try XCTUnwrap(reading.events.first { $0.summary.hasPrefix("Missed: ") }, "\(reading.events.map(\.summary))")
        XCTAssertTrue(missed.cancelled, "STATUS:CANCELLED: not travelled as it stands")
        XCTAssertTrue(missed.description?.contains("Missed connection") == true, missed.description ?? "")
        let travelled = reading.events.filter { !$0.cancelled }.sorted { $0.start < $1.start }
        XCTAssertFalse(travelled.isEmpty)
        for (one, next) in zip(travelled, travelled.dropFirst()) {
            XCTAssertLessThanOrEqual(one.end, next.start, "no two travelled legs overlap: \(one.summary) / \(next.summary)")
        }
    }

    func testPlansICSFollowsEditsKeepsUIDsGrowsSequenceAndLosesDeletedAndPastPlans() throws {
        let transit = try newPlan([Tampere.keskustori, Tampere.hervanta], mode: "transit", at: Tampere.morning)
        let walk = try newPlan([Tampere.keskustori, Tampere.tampereTalo], mode: "walk", at: Tampere.morning)
        let yesterday = try newPlan([Tampere.keskustori, Tampere.ratina], mode: "walk", at: "2022-01-11T08:00")
        try waitUntil("plans.ics holds both of today's plans") {
            let reading = try readCalendarFile()
            return !events(of: transit, in: reading).isEmpty && !events(of: walk, in: reading).isEmpty
        }
        let before = try readCalendarFile()
        XCTAssertTrue(events(of: yesterday, in: before).isEmpty, "a plan of yesterday is not in the calendar")
        XCTAssertFalse(try ICalendarReading(try harness.umctl(["plan", "export", yesterday, "--format", "ics"]).stdout).events.isEmpty,
                       "though it exports")
        let transitBefore = events(of: transit, in: before)

        XCTAssertEqual(try harness.umctl(["plan", "time", transit, "--at", "2022-01-12T09:30"]).status, 0)
        try waitUntil("plans.ics holds the edited plan") {
            try events(of: transit, in: readCalendarFile()).allSatisfy { $0.sequence > transitBefore[0].sequence }
        }
        let edited = try show(transit)
        let after = events(of: transit, in: try readCalendarFile())
        XCTAssertEqual(Set(after.map(\.uid)), Set(transitBefore.map(\.uid)), "UIDs stay the same across the edit")
        XCTAssertTrue(after.allSatisfy { $0.sequence == Int(edited.generation) }, "SEQUENCE is the plan's generation")
        XCTAssertEqual(after.map(\.start), try legTimes(edited).map(\.0), "the new times")
        XCTAssertNotEqual(after.map(\.start), transitBefore.map(\.start))

        XCTAssertEqual(try harness.umctl(["plan", "delete", walk]).status, 0)
        try waitUntil("plans.ics loses the deleted plan") { try events(of: walk, in: readCalendarFile()).isEmpty }
        XCTAssertEqual(Set(events(of: transit, in: try readCalendarFile()).map(\.uid)), Set(transitBefore.map(\.uid)),
                       "the other plan stays")
    }
}
