import Foundation
import WireProtocol
import XCTest

/// Plans that read right (issue 28 item 9): an ID is never given to another plan, a generated
/// title follows the places, and columns stay aligned at any width.
final class PlanPolishTests: SharedTampereDaemonTestCase {

    /// Issue 41 item 6: durations were rounded while times were truncated, so "transit 10 min
    /// 08:02 08:11" did not add up. Every duration shown beside its times is now their difference.
    func testShownDurationsAreTheDifferenceOfTheTimesShownBesideThem() throws {
        let harness = try harness
        func minutes(_ clock: Substring) throws -> Int {
            let parts = clock.split(separator: ":").compactMap { Int($0) }
            XCTAssertEqual(parts.count, 2, String(clock))
            return parts[0] * 60 + parts[1]
        }
        func minutes(ofDuration text: String) throws -> Int {
            let match = try XCTUnwrap(text.firstMatch(of: #/(?:(\d+) h )?(\d+) min/#), text)
            return (match.1.flatMap { Int($0) } ?? 0) * 60 + (Int(match.2) ?? 0)
        }
        let compare = try harness.umctl(["compare", Tampere.keskustori, Tampere.tampereTalo, "--at", "2022-01-12T08:00"]).stdout
        for line in compare.split(separator: "\n") where ["walk", "transit", "car", "bike"].contains(where: { line.hasPrefix($0) }) {
            let row = try XCTUnwrap(line.firstMatch(of: #/^\w+( \*)? +(.+? min) +(\d\d:\d\d) +(\d\d:\d\d) /#), String(line))
            XCTAssertEqual(try minutes(ofDuration: String(row.2)), try minutes(row.4) - minutes(row.3), String(line))
        }
        let plan = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "transit", "--at", "2022-01-12T08:00"])
        let shown = try harness.umctl(["plan", "show", try id(plan)]).stdout
        let times = shown.split(separator: "\n").compactMap { $0.firstMatch(of: #/^ +\d+\. (\d\d:\d\d)  /#)?.1 }
        let total = try XCTUnwrap(shown.split(separator: "\n").first { $0.hasPrefix("  total: ") }, shown)
        XCTAssertEqual(try minutes(ofDuration: String(total)), try minutes(try XCTUnwrap(times.last)) - minutes(try XCTUnwrap(times.first)),
                       shown)
    }

    func testADeletedPlansIDIsNeverGivenToTheNextPlan() throws {
        let harness = try harness
        let first = try harness.json(["plan", "new", Tampere.keskustori, Tampere.ratina, "--mode", "walk", "--at", Tampere.morning])
        let second = try harness.json(["plan", "new", Tampere.keskustori, Tampere.tampereTalo, "--mode", "walk", "--at", Tampere.morning])
        XCTAssertEqual(try harness.umctl(["plan", "delete", try id(second)]).status, 0)
        let third = try harness.json(["plan", "new", Tampere.ratina, Tampere.tampereTalo, "--mode", "walk", "--at", Tampere.morning])
        XCTAssertGreaterThan(try XCTUnwrap(third["id"]?.numberValue), try XCTUnwrap(second["id"]?.numberValue),
                             "the deleted plan's ID goes to no other plan")
        let shown = try harness.umctl(["plan", "show", try id(second)])
        XCTAssertEqual(shown.status, 1, "the deleted plan stays gone: \(shown.stdout)")
        XCTAssertEqual(try harness.umctl(["plan", "delete", try id(first)]).status, 0)
    }

    /// Issue 41: `plan list` did not show the travel day, so two plans of one title could not be told apart.
    func testPlanListShowsTheDayEachPlanTravels() throws {
        let harness = try harness
        let monday = try harness.json(["plan", "new", Tampere.ratina, Tampere.pyynikki, "--mode", "walk", "--at", "2022-01-10T09:00",
                                       "--title", "Same title"])
        let friday = try harness.json(["plan", "new", Tampere.ratina, Tampere.pyynikki, "--mode", "walk",
                                       "--arrive-by", "2022-01-14T23:50", "--title", "Same title"])
        let listed = try XCTUnwrap(try harness.json(["plan", "list"])["plans"]?.arrayValue)
        func day(_ plan: JSONValue) throws -> JSONValue? { listed.first { $0["id"] == plan["id"] }?["day"] }
        XCTAssertEqual(try day(monday), .string("2022-01-10"))
        XCTAssertEqual(try day(friday), .string("2022-01-14"), "the arrive-by day, in the region's zone")
        let table = try harness.umctl(["plan", "list"]).stdout
        let lines = table.split(separator: "\n").filter { $0.contains("Same title") }
        XCTAssertTrue(lines.contains { $0.contains("2022-01-10") } && lines.contains { $0.contains("2022-01-14") }, table)
        XCTAssertTrue(table.hasPrefix("id") && table.contains("day"), table)
    }

    func testAGeneratedTitleFollowsAMovedPlaceAndATitleTheUserSetStays() throws {
        let harness = try harness
        for (name, place) in [("Title A", Tampere.keskustori), ("Title B", Tampere.ratina), ("Title C", Tampere.tampereTalo)] {
            XCTAssertEqual(try harness.umctl(["place", "save", name, place]).status, 0)
        }
        let plan = try harness.json(["plan", "new", "Title A", "Title B", "--mode", "walk", "--at", Tampere.morning])
        XCTAssertEqual(plan["title"], .string("Title A → Title B"))
        let moved = try harness.json(["plan", "move", try id(plan), "2", "Title C"])
        XCTAssertEqual(moved["title"], .string("Title A → Title C"), "the title follows the moved place")
        XCTAssertEqual(try harness.json(["plan", "show", try id(plan)])["title"], .string("Title A → Title C"), "and is stored")

        XCTAssertEqual(try harness.umctl(["plan", "rename", try id(plan), "My walk"]).status, 0)
        let movedBack = try harness.json(["plan", "move", try id(plan), "2", "Title B"])
        XCTAssertEqual(movedBack["title"], .string("My walk"), "a title the user set stays")
    }

    func testPlanShowKeepsItsColumnsFromNodeTenOn() throws {
        let harness = try harness
        let stops = [Tampere.ratina, Tampere.tampereTalo, Tampere.railwayStation, Tampere.ratina, Tampere.keskustori,
                     Tampere.tampereTalo, Tampere.railwayStation, Tampere.ratina, Tampere.tampereTalo]
        let plan = try harness.json(["plan", "new", Tampere.keskustori] + stops + [Tampere.pyynikki, "--mode", "walk", "--at", Tampere.morning])
        XCTAssertEqual(plan["nodes"]?.arrayValue?.count, 11)
        let lines = try harness.umctl(["plan", "show", try id(plan)]).stdout.split(separator: "\n").map(String.init)
        let nodes = lines.filter { $0.range(of: #"^ +\d+\. "#, options: .regularExpression) != nil }
        let segments = lines.filter { $0.range(of: #"^ +seg +\d+: "#, options: .regularExpression) != nil }
        XCTAssertEqual(nodes.count, 11, lines.joined(separator: "\n"))
        XCTAssertEqual(segments.count, 10, lines.joined(separator: "\n"))
        // The time after each node number, and the mode after each segment number, start in one column.
        XCTAssertEqual(Set(nodes.map { $0.distance(of: ". ") }).count, 1, nodes.joined(separator: "\n"))
        XCTAssertEqual(Set(segments.map { $0.distance(of: ": ") }).count, 1, segments.joined(separator: "\n"))
    }

    func testTableColumnsStayAlignedForWideCharacters() throws {
        let harness = try harness
        XCTAssertEqual(try harness.umctl(["place", "save", "東京", "61.49001,23.76001"]).status, 0)
        XCTAssertEqual(try harness.umctl(["place", "save", "Toky", "61.49002,23.76002"]).status, 0)
        let rows = try harness.umctl(["place", "list"]).stdout.split(separator: "\n").map(String.init)
        let tokyo = try XCTUnwrap(rows.first { $0.hasPrefix("東京") }), latin = try XCTUnwrap(rows.first { $0.hasPrefix("Toky ") })
        // Each CJK character takes two terminal columns: the coordinates start in the same one.
        func columns(before marker: String, in row: String) -> Int {
            let prefix = row[..<(row.range(of: marker)?.lowerBound ?? row.endIndex)]
            return prefix.unicodeScalars.reduce(0) { $0 + ((0x4E00...0x9FFF).contains($1.value) ? 2 : 1) }
        }
        XCTAssertEqual(columns(before: "61.49001", in: tokyo), columns(before: "61.49002", in: latin), rows.joined(separator: "\n"))
    }

    /// The walk back pinned to leave later than the bus gets there: the plan shows when it
    /// leaves, and its leg leaves then (found from outside: it said the bus's arrival).
    func testAWalkPinnedLaterThanTheRideBeforeItShowsWhenItLeaves() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Keskustori", Tampere.hervanta, "Keskustori", "--mode", "transit",
                                        "--at", "2022-01-12T07:30"])
        let id = try id(created)
        let walkBack = segments(created).count
        XCTAssertEqual(segments(created).last?["mode"], .string("walk"), "the plan ends with a walk from the stop: \(created)")
        let pinned = try harness.json(["plan", "pin", id, String(walkBack), "09:45"])
        let stop = try XCTUnwrap(nodes(pinned)[walkBack - 1]["time"]?.stringValue)
        XCTAssertLessThan(stop, "2022-01-12T09:45:00+02:00", "the bus gets there before the pinned walk")
        let leg = try XCTUnwrap(segments(pinned).last?["leg"])
        XCTAssertEqual(leg["departure"], .string("2022-01-12T09:45:00+02:00"))
        let shown = try harness.umctl(["plan", "show", id]).stdout
        XCTAssertTrue(shown.contains("seg \(walkBack): walk") && shown.contains(", leaves 09:45"), shown)
    }
}

private extension String {
    /// Characters before the first `marker` (the whole length when absent).
    func distance(of marker: String) -> Int {
        distance(from: startIndex, to: range(of: marker)?.lowerBound ?? endIndex)
    }
}
