import Foundation
import WireProtocol
import XCTest

/// `history rerun` of an entry that `plan new` made replays the whole plan: a new plan from
/// the recorded places and options, never a two-place comparison, never a changed entry; and
/// `--since` / `--until` take today, yesterday, dates and date-times (issue 28 items 7 and 9).
final class HistoryRerunPlanTests: TampereDaemonTestCase {
    func routes(_ filters: [String] = []) throws -> [JSONValue] {
        try XCTUnwrap(try harness.json(["history", "routes"] + filters)["entries"]?.arrayValue)
    }


    func names(_ plan: JSONValue) -> [String] {
        (plan["nodes"]?.arrayValue ?? []).filter { $0["inferred"] != .bool(true) }.compactMap { $0["name"]?.stringValue }
    }

    func testRerunOfADayPlanFromHomeBackHomeMakesANewPlanThroughEveryPlaceAndKeepsItsEntry() throws {
        XCTAssertEqual(try harness.umctl(["place", "save", "Home", Tampere.pyynikki]).status, 0)
        XCTAssertEqual(try harness.umctl(["place", "save", "Square", Tampere.keskustori]).status, 0)
        XCTAssertEqual(try harness.umctl(["place", "save", "Hall", Tampere.tampereTalo]).status, 0)
        let day = try harness.json(["plan", "new", "Home", "Square", "Home", "--mode", "walk", "--at", Tampere.morning])
        let errands = try harness.json(["plan", "new", "Square", "Hall", "Home", "--mode", "walk", "--pace", "fast",
                                        "--title", "Errands", "--at", Tampere.morning])
        XCTAssertEqual(names(day), ["Home", "Square", "Home"])

        let recorded = try routes()
        XCTAssertEqual(recorded.count, 2, "\(recorded)")
        let dayEntry = try XCTUnwrap(recorded.last), errandsEntry = try XCTUnwrap(recorded.first)
        XCTAssertEqual(dayEntry["label"], .string("Home → Square → Home"))
        XCTAssertEqual(dayEntry["plan"]?["via"]?.arrayValue?.map { $0["name"] }, [.string("Square")])
        XCTAssertEqual(dayEntry["plan"]?["preset"], .string("walk"))
        XCTAssertEqual(errandsEntry["plan"]?["title"], .string("Errands"))
        XCTAssertEqual(errandsEntry["plan"]?["title_given"], .bool(true))
        XCTAssertEqual(errandsEntry["plan"]?["pace"], .string("fast"))
        // The answer column shows the plan, not the modes of every segment.
        let table = try harness.umctl(["history", "routes"]).stdout
        XCTAssertTrue(table.contains("plan \"Home → Square → Home\": walk"), table)
        XCTAssertTrue(table.contains("plan \"Errands\": walk"), table)
        XCTAssertFalse(table.contains("walk+walk"), table)

        // A plan whose first and last place are the same is made again, as a new plan.
        let dayID = try XCTUnwrap(dayEntry["id"]?.stringValue)
        let rerun = try harness.json(["history", "rerun", dayID])
        XCTAssertEqual(names(rerun), ["Home", "Square", "Home"])
        XCTAssertEqual(rerun["title"], .string("Home → Square → Home"))
        XCTAssertEqual(rerun["time_preference"]?["time"], day["time_preference"]?["time"], "the recorded time")
        let planIDs = [try id(day), try id(errands)]
        XCTAssertFalse(planIDs.contains(try id(rerun)), "a new plan")
        XCTAssertEqual(names(try harness.json(["plan", "show", try id(day)])), ["Home", "Square", "Home"], "the first plan is left as it was")

        // The entry moved to the front under its ID, still the plan's (not a comparison's).
        let after = try routes()
        XCTAssertEqual(after.count, 2)
        XCTAssertEqual(after.first?["id"], dayEntry["id"])
        XCTAssertEqual(after.first?["plan"]?["via"], dayEntry["plan"]?["via"])
        XCTAssertEqual(after.first?["answers"], .null)

        // Three places with options: the same places, pace and given title; at another time when asked.
        let errandsID = try XCTUnwrap(errandsEntry["id"]?.stringValue)
        let again = try harness.umctl(["history", "rerun", errandsID, "--at", "2022-01-12T10:00"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("Errands"), again.stdout)
        XCTAssertTrue(again.stdout.contains("depart at 2022-01-12 10:00"), again.stdout)
        let newest = try XCTUnwrap(try harness.json(["plan", "list"])["plans"]?.arrayValue?.first)
        let shown = try harness.json(["plan", "show", try id(newest)])
        XCTAssertEqual(names(shown), ["Square", "Hall", "Home"])
        XCTAssertEqual(shown["pace"], .string("fast"))
        XCTAssertEqual(shown["title"], .string("Errands"))
        XCTAssertEqual(try routes().count, 2, "no comparison entry appeared")
    }

    func testSinceAndUntilTakeTodayYesterdayDatesAndDateTimes() throws {
        _ = try harness.json(["compare", Tampere.keskustori, Tampere.tampereTalo, "--at", Tampere.morning])
        XCTAssertEqual(try routes(["--since", "today"]).count, 1)
        XCTAssertEqual(try routes(["--since", "yesterday"]).count, 1)
        XCTAssertEqual(try routes(["--until", "yesterday"]).count, 0)
        XCTAssertEqual(try routes(["--until", "today"]).count, 1, "until today's end")
        XCTAssertEqual(try routes(["--since", "2000-01-01 08:00"]).count, 1)
        XCTAssertEqual(try routes(["--since", "2999-01-01T08:00"]).count, 0)
        let bad = try harness.umctl(["history", "routes", "--since", "someday"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("since \"someday\" is not a date: use today, yesterday"), bad.stderr)
    }
}
