import Foundation
import WireProtocol
import XCTest

/// Issue 39 item 6: "until HH:MM" is the next such time after the traveller gets to the node,
/// shown with its day, whichever side of midnight the node is reached.
final class MidnightStayTests: SharedTampereDaemonTestCase {
    /// A walk plan Keskustori → Ratina → Tampere-talo leaving `at`: its ID and when it gets to Ratina.
    func walkViaRatina(at: String) throws -> (id: String, reached: String) {
        let created = try harness.json(["plan", "new", Tampere.keskustori, Tampere.ratina, Tampere.tampereTalo,
                                        "--mode", "walk", "--at", at])
        return (try id(created), try XCTUnwrap(nodes(created)[1]["time"]?.stringValue, "\(created)"))
    }

    /// Issue 39 F14: a stay "until 00:40" set on a node reached at 23:58, then `plan time` moved
    /// the plan so that the node is reached at 01:04: the stay holds nobody (the traveller leaves
    /// on arrival) and nothing said so. The node says so now; the stay is not re-read as the
    /// next night's 00:40, a stay of almost a day nobody asked for.
    func testAStayUntilLeftBehindByALaterPlanSaysItEndedBeforeTheTravellerGetsThere() throws {
        let harness = try harness
        let (id, reached) = try walkViaRatina(at: "2022-01-12T23:45")
        XCTAssertTrue(reached.hasPrefix("2022-01-12T23:"), "the walk gets to Ratina before midnight: \(reached)")
        let stayed = try harness.json(["plan", "stay", id, "2", "--until", "00:40"])
        XCTAssertNil(nodes(stayed)[1]["stay_note"], "a stay that holds says nothing more: \(nodes(stayed)[1])")

        let moved = try harness.json(["plan", "time", id, "--at", "2022-01-13T00:50"])
        let node = nodes(moved)[1]
        XCTAssertEqual(node["stay_until"]?.stringValue, "2022-01-13T00:40:00+02:00", "the stay is kept as set: \(node)")
        XCTAssertEqual(node["departure"], node["time"], "they leave on arrival: \(node)")
        XCTAssertEqual(node["stay_note"]?.stringValue, "ended before the traveller gets here", "\(node)")
        let shown = try harness.umctl(["plan", "show", id])
        XCTAssertTrue(shown.stdout.contains("stay until 00:40: ended before the traveller gets here"), shown.stdout)
    }

    func testStayingUntilAClockTimePastMidnightOnANodeReachedBeforeItMeansTheNextNight() throws {
        let harness = try harness
        let (id, reached) = try walkViaRatina(at: "2022-01-12T23:45")
        XCTAssertTrue(reached.hasPrefix("2022-01-12T23:"), "the walk gets to Ratina before midnight: \(reached)")

        let stayed = try harness.json(["plan", "stay", id, "2", "--until", "00:40"])
        XCTAssertEqual(nodes(stayed)[1]["departure"]?.stringValue, "2022-01-13T00:40:00+02:00",
                       "the next 00:40 after getting there, not 23 h before: \(nodes(stayed)[1])")
        let shown = try harness.umctl(["plan", "show", id])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("00:40 +1d"), "shown with its day: \(shown.stdout)")

        // The same input on the next node, reached after midnight, is the same night's 00:40
        // or, reached later than that, the night after: never before the traveller is there.
        let next = try harness.json(["plan", "stay", id, "1", "--until", "23:50"])
        XCTAssertEqual(nodes(next)[0]["departure"]?.stringValue, "2022-01-12T23:50:00+02:00", "\(nodes(next)[0])")
        XCTAssertEqual(nodes(next)[1]["departure"]?.stringValue, "2022-01-13T00:40:00+02:00", "the stay kept its night: \(nodes(next)[1])")
    }

    /// "until 00:40" on a node reached at 00:56 was read as 00:40 the same night (16 min before
    /// the traveller gets there: a 12 h rule), so the stay ended on arrival. It is the next 00:40
    /// after the arrival, the next night's, shown with its day.
    func testStayingUntilAClockTimeJustPassedOnArrivalMeansTheNextSuchTime() throws {
        let harness = try harness
        let (id, reached) = try walkViaRatina(at: "2022-01-13T00:45")
        XCTAssertTrue(reached.hasPrefix("2022-01-13T00:5"), "the walk gets to Ratina after 00:40: \(reached)")

        let stayed = try harness.json(["plan", "stay", id, "2", "--until", "00:40"])
        XCTAssertEqual(nodes(stayed)[1]["stay_until"]?.stringValue, "2022-01-14T00:40:00+02:00",
                       "the next 00:40 after getting there: \(nodes(stayed)[1])")
        let shown = try harness.umctl(["plan", "show", id])
        XCTAssertTrue(shown.stdout.contains("stay until 00:40 +1d"), "shown with its day: \(shown.stdout)")
        // The minute the traveller is shown arriving is not "passed": until that minute is then.
        let minute = String(reached.dropFirst(11).prefix(5))
        let atArrival = try harness.json(["plan", "stay", id, "2", "--until", minute])
        XCTAssertEqual(nodes(atArrival)[1]["stay_until"]?.stringValue, "2022-01-13T\(minute):00+02:00", "\(nodes(atArrival)[1])")
    }

    /// Trial 56 finding 13: "--until 08:20" on Hervanta, reached at 08:27, silently became a stay
    /// until the next day's 08:20, a plan of 24 h 59 min. It still means the next 08:20 after the
    /// traveller gets there, and the answer says so plainly.
    func testStayingUntilATimeThatHasPassedWhenTheTravellerGetsThereSaysItMeansTheNextDay() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", Tampere.railwayStation, Tampere.hervanta, "TAYS", "--mode", "transit",
                                        "--at", Tampere.morning])
        let id = try id(created)
        let number = try XCTUnwrap(nodes(created).indices.first { $0 > 0 && nodes(created)[$0]["inferred"] == .bool(false) },
                                   "\(created)") + 1
        let node = nodes(created)[number - 1]
        let reached = try XCTUnwrap(date(node["time"]), "\(node)")
        let zone = try XCTUnwrap(TimeZone(secondsFromGMT: 2 * 3600))  // Tampere in January
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        func clock(_ date: Date) -> String {
            let parts = calendar.dateComponents([.hour, .minute], from: date)
            return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        }
        let passed = clock(reached.addingTimeInterval(-7 * 60))

        let stayed = try harness.json(["plan", "stay", id, String(number), "--until", passed])
        XCTAssertEqual(nodes(stayed)[number - 1]["stay_until"]?.stringValue, "2022-01-13T\(passed):00+02:00",
                       "the next \(passed) after getting there: \(nodes(stayed)[number - 1])")
        let name = try XCTUnwrap(node["name"]?.stringValue)
        XCTAssertEqual(stayed["mode_notes"], .array([.string("\(passed) has passed when you get to \(name) (\(clock(reached))): "
                                                             + "staying until \(passed) +1d, the next day; give --until with a date for another day")]),
                       "\(stayed)")
        // A time still ahead that day, or just past midnight, needs no word.
        let ahead = try harness.json(["plan", "stay", id, String(number), "--until", clock(reached.addingTimeInterval(15 * 60))])
        XCTAssertNil(ahead["mode_notes"], "\(ahead)")
    }

    /// A plan that departs at 23:30 with a stay "until 00:40" at the stop it walks to showed its
    /// start at 00:35: the walks before the stay were timed back from the stay's end, as if the
    /// traveller left home an hour later than asked. A fixed departure holds: the traveller
    /// leaves at 23:30, gets to the stop when that walk gets there, and stays until 00:40.
    func testAStayUntilDownstreamDoesNotMoveTheStartOfAPlanThatDepartsAtAGivenTime() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Keskustori", Tampere.hervanta, "--mode", "transit",
                                        "--at", "2022-01-12T23:30"])
        let id = try id(created)
        XCTAssertEqual(nodes(created)[1]["inferred"], .bool(true), "a walk to a stop first: \(created)")
        let stayed = try harness.json(["plan", "stay", id, "2", "--until", "00:40"])
        XCTAssertEqual(nodes(stayed)[0]["time"]?.stringValue, "2022-01-12T23:30:00+02:00", "the start holds: \(nodes(stayed))")
        let walk = try XCTUnwrap(segments(stayed)[0]["leg"]?["duration_s"]?.numberValue, "\(stayed)")
        let reached = try XCTUnwrap(date(nodes(stayed)[1]["time"]), "\(nodes(stayed)[1])")
        XCTAssertEqual(reached.timeIntervalSince(WireTime.date(from: "2022-01-12T23:30:00+02:00")!), walk, accuracy: 1,
                       "the stop is reached when the walk from the start gets there: \(nodes(stayed)[1])")
        XCTAssertEqual(nodes(stayed)[1]["stay_until"]?.stringValue, "2022-01-13T00:40:00+02:00", "\(nodes(stayed)[1])")
    }
}
