import Foundation
import WireProtocol
import XCTest

/// Day plans and choices (issue 12) on Tampere through the real daemon and umctl: a day of
/// four places with a stay, alternatives and choosing one, moving a node, undoing a lock.
final class DayPlanCommandTests: TampereDaemonTestCase {
    /// The 1-based number of the node placed at `coordinate` ("lat,lon" as typed).
    func node(_ plan: JSONValue, at coordinate: String) throws -> Int {
        try XCTUnwrap(nodes(plan).firstIndex { typed($0) == coordinate }, "\(plan)") + 1
    }

    /// The title generated from the plan's own (not inferred) nodes.
    func generatedTitle(_ plan: JSONValue) -> String {
        nodes(plan).filter { $0["inferred"] != .bool(true) }.compactMap { $0["name"]?.stringValue }.joined(separator: " → ")
    }

    /// Home (Pyynikki) → work (Keskustori) → shop (Tampere-talo) → home, by transit from 08:00.
    func day() throws -> JSONValue {
        try harness.json(["plan", "new", Tampere.pyynikki, Tampere.keskustori, Tampere.tampereTalo, Tampere.pyynikki,
                          "--mode", "transit", "--at", Tampere.morning])
    }

    // MARK: - A day with a stay

    func testAFourPlaceDayWithAStayAtTheShopTimesEveryNodeFromTheStays() throws {
        let created = try day()
        let id = try id(created)
        XCTAssertEqual(nodes(created).filter { $0["inferred"] != .bool(true) }.map(typed),
                       [Tampere.pyynikki, Tampere.keskustori, Tampere.tampereTalo, Tampere.pyynikki])
        XCTAssertEqual(created["title"]?.stringValue, generatedTitle(created))
        let shop = try node(created, at: Tampere.tampereTalo)
        let stayed = try harness.json(["plan", "stay", id, String(shop), "45m"])

        let shopNode = nodes(stayed)[shop - 1]
        XCTAssertEqual(shopNode["stay_s"]?.numberValue, 45 * 60)
        let arrived = try XCTUnwrap(date(shopNode["time"]), "\(stayed)")
        let leaves = try XCTUnwrap(date(shopNode["departure"]), "\(stayed)")
        XCTAssertEqual(leaves.timeIntervalSince(arrived), 45 * 60, accuracy: 1)
        // Every leg after a node leaves no earlier than the traveller leaves that node, and the
        // next node is reached when the leg arrives.
        for (index, segment) in segments(stayed).enumerated() {
            let leg = try XCTUnwrap(segment["leg"], "segment \(index + 1) has a leg: \(stayed)")
            let node = nodes(stayed)[index]
            let ready = try XCTUnwrap(date(node["departure"]) ?? date(node["time"]), "node \(index + 1) has a time")
            let legDeparture = try XCTUnwrap(date(leg["departure"]))
            XCTAssertGreaterThanOrEqual(legDeparture.timeIntervalSince(ready), -1, "segment \(index + 1) leaves after node \(index + 1)")
            XCTAssertEqual(try XCTUnwrap(date(nodes(stayed)[index + 1]["time"])).timeIntervalSince(try XCTUnwrap(date(leg["arrival"]))),
                           0, accuracy: 1, "node \(index + 2) is reached when segment \(index + 1) arrives")
        }
        let first = try XCTUnwrap(date(nodes(stayed).first?["time"])), last = try XCTUnwrap(date(nodes(stayed).last?["time"]))
        XCTAssertEqual(stayed["total_duration_s"]?.numberValue ?? 0, last.timeIntervalSince(first), accuracy: 1,
                       "the stay is part of the total")
        // The nodes up to the shop keep their times; after it, the stretches are planned again at
        // their new time as a new plan would (docs/planner.md, "An edit re-plans what it touches"),
        // which may be quicker than the rides they had 45 minutes earlier.
        XCTAssertEqual(nodes(stayed).prefix(shop).map { $0["time"] }, nodes(created).prefix(shop).map { $0["time"] })

        // Stored: shown again without routing, and by umctl.
        XCTAssertEqual(try harness.json(["plan", "show", id])["nodes"]?.arrayValue?[shop - 1]["stay_s"]?.numberValue, 45 * 60)
        XCTAssertTrue(try harness.umctl(["plan", "show", id]).stdout.contains("stay 45 min"))
    }

    func testStayingUntilATimeLeavesThenAndBadStaysChangeNothing() throws {
        let created = try harness.json(["plan", "new", Tampere.keskustori, Tampere.tampereTalo, "--mode", "walk", "--at", Tampere.morning])
        let id = try id(created)
        let atDestination = try harness.umctl(["plan", "stay", id, "2", "10m"])
        XCTAssertEqual(atDestination.status, 1)
        XCTAssertTrue(atDestination.stderr.contains("invalid stay: "), atDestination.stderr)
        XCTAssertEqual(try harness.umctl(["plan", "stay", id, "1", "ten minutes"]).status, 2, "refused before sending")
        XCTAssertEqual(try harness.json(["plan", "show", id])["generation"]?.numberValue, 1, "nothing changed")

        let stayed = try harness.json(["plan", "stay", id, "1", "--until", "09:00"])
        let leaves = try XCTUnwrap(date(nodes(stayed).first?["departure"]), "\(stayed)")
        XCTAssertEqual(leaves, WireTime.date(from: "2022-01-12T09:00:00+02:00"))
        let walk = try XCTUnwrap(segments(stayed).first?["leg"]?["duration_s"]?.numberValue)
        XCTAssertEqual(try XCTUnwrap(date(nodes(stayed).last?["time"])).timeIntervalSince(leaves), walk, accuracy: 1)
        let cleared = try harness.json(["plan", "stay", id, "1", "--clear"])
        XCTAssertNil(nodes(cleared).first?["departure"], "no stay, no separate departure: \(cleared)")
    }

    func testAStayReadsItsDurationAsEveryOtherDurationIsRead() throws {
        let created = try harness.json(["plan", "new", Tampere.keskustori, Tampere.tampereTalo, "--mode", "walk", "--at", Tampere.morning])
        let id = try id(created)
        let seconds = try harness.json(["plan", "stay", id, "1", "90s"])
        XCTAssertEqual(nodes(seconds).first?["stay_s"]?.numberValue, 90, "seconds, as --remind-lead reads them")
        let minutes = try harness.json(["plan", "stay", id, "1", "20"])
        XCTAssertEqual(nodes(minutes).first?["stay_s"]?.numberValue, 20 * 60, "a bare number is minutes")
        let generation = try harness.json(["plan", "show", id])["generation"]
        let unitless = try harness.umctl(["plan", "stay", id, "1", "1h30"])
        XCTAssertEqual(unitless.status, 2, unitless.stderr)
        XCTAssertTrue(unitless.stderr.contains("DURATION \"1h30\" is not a duration"), unitless.stderr)
        XCTAssertEqual(try harness.json(["plan", "show", id])["generation"], generation, "nothing changed")
    }

    func testAPlaceInsertedAfterTheLastNodeBecomesTheDestination() throws {
        let created = try harness.json(["plan", "new", Tampere.keskustori, Tampere.tampereTalo, "--mode", "walk", "--at", Tampere.morning])
        let id = try id(created)
        let appended = try harness.json(["plan", "insert", id, Tampere.keskustori, "--after", "2"])
        XCTAssertEqual(nodes(appended).map(typed), [Tampere.keskustori, Tampere.tampereTalo, Tampere.keskustori])
        XCTAssertTrue(segments(appended).allSatisfy { $0["leg"] != .null }, "\(appended)")
        let twice = try harness.umctl(["plan", "insert", id, Tampere.keskustori, "--after", "3"])
        XCTAssertEqual(twice.status, 1)
        XCTAssertTrue(twice.stderr.contains("would be at both ends of one segment"), twice.stderr)
    }

    /// Routing queries an umctl command makes, by mode.
    func queries(_ arguments: [String]) throws -> (plan: JSONValue, walk: Int, transit: Int, car: Int) {
        let before = try harness.counters().routingQueries
        let plan = try harness.json(arguments)
        let after = try harness.counters().routingQueries
        return (plan, after.walk - before.walk, after.transit - before.transit, after.car - before.car)
    }

    func testEachDayEditAsksOnlyTheLegsItTouches() throws {
        let walking = try harness.json(["plan", "new", Tampere.pyynikki, Tampere.keskustori, Tampere.tampereTalo, Tampere.pyynikki,
                                        "--mode", "walk", "--at", Tampere.morning])
        let id = try id(walking)
        let stayed = try queries(["plan", "stay", id, "2", "1h"])
        XCTAssertEqual([stayed.walk, stayed.transit, stayed.car], [0, 0, 0], "walks have no time of their own")
        XCTAssertEqual(stayed.plan["total_duration_s"]?.numberValue ?? 0, (walking["total_duration_s"]?.numberValue ?? 0) + 3600, accuracy: 1)
        // A mode given: without one, the new hop's mode is asked first (walk and ride, `InsertedHopModeTests`).
        let appended = try queries(["plan", "insert", id, Tampere.ratina, "--after", "4", "--mode", "walk"])
        XCTAssertEqual([appended.walk, appended.transit, appended.car], [1, 0, 0], "only the new last segment")
        XCTAssertEqual(Array(segments(appended.plan).prefix(3)), Array(segments(stayed.plan).prefix(3)))
        XCTAssertEqual(try queries(["plan", "mode", id, "1", "car"]).car, 1)
        for command in [["plan", "unlock", id, "1"], ["plan", "rename", id, "errands"], ["plan", "copy", id]] {
            let asked = try queries(command)
            XCTAssertEqual([asked.walk, asked.transit, asked.car], [0, 0, 0], "\(command) asks nothing")
        }

        // By transit, a stay at the shop moves only the transit legs after it.
        let day = try day()
        let shop = try node(day, at: Tampere.tampereTalo)
        let transitAfter = segments(day).indices.filter { $0 >= shop - 1 && segments(day)[$0]["mode"] == .string("transit") }.count
        let moved = try queries(["plan", "stay", try self.id(day), String(shop), "45m"])
        // Walks keep their legs; a ride timed again is a new trip whose stops are chosen again
        // (docs/planner.md, "No walk to a farther stop of the same trip"): a walk to a stop of it
        // may be asked, one per end at most, and kept only when shorter.
        XCTAssertEqual(moved.car, 0, "drives keep their legs")
        XCTAssertLessThanOrEqual(moved.walk, 2 * transitAfter, "at most the walks to a retimed ride's stops")
        // A walk between the same two places keeps its leg (a stretch planned again at its new time
        // as a new plan would walks to the stops of its new journey: docs/planner.md, "An edit
        // re-plans what it touches").
        for index in segments(day).indices where segments(day)[index]["mode"] == .string("walk")
            && segments(moved.plan).indices.contains(index) && nodes(moved.plan).count == nodes(day).count
            && [index, index + 1].allSatisfy({ nodes(moved.plan)[$0]["name"] == nodes(day)[$0]["name"] }) {
            XCTAssertEqual(segments(moved.plan)[index]["leg"]?["distance_m"], segments(day)[index]["leg"]?["distance_m"],
                           "walk \(index + 1) keeps its leg")
        }
        XCTAssertGreaterThanOrEqual(moved.transit, transitAfter)
        XCTAssertEqual(Array(segments(moved.plan).prefix(shop - 1)), Array(segments(day).prefix(shop - 1)),
                       "the legs before the shop are kept")
    }

    // MARK: - Alternatives

    func testAlternativesListDeparturesInTimeOrderAndChoosingTheSecondPinsIt() throws {
        let created = try day()
        let id = try id(created)
        let transit = try XCTUnwrap(segments(created).firstIndex { $0["mode"] == .string("transit") }, "\(created)") + 1
        let listed = try harness.json(["plan", "alternatives", id, String(transit)])
        let options = listed["options"]?.arrayValue ?? []
        let departures = options.compactMap { date($0["departure"]) }
        XCTAssertEqual(departures.count, options.count, "\(listed)")
        XCTAssertEqual(departures, departures.sorted(), "in time order")
        XCTAssertGreaterThanOrEqual(Set(departures).count, 3, "at least three different departures: \(listed)")
        XCTAssertTrue(options.allSatisfy { !($0["rides"]?.arrayValue ?? []).isEmpty }, "each option rides something")

        let second = options[1]
        let chosen = try harness.json(["plan", "choose", id, String(transit), "2"])
        XCTAssertEqual(chosen["pinned_segment"]?.numberValue, Double(transit))
        let shown = try harness.json(["plan", "show", id])
        let departure = Self.departure(of: second, chosenAfter: nodes(shown)[transit - 1])
        XCTAssertEqual(segments(shown)[transit - 1]["leg"]?["departure"], departure)
        XCTAssertEqual(segments(shown)[transit - 1]["leg"]?["rides"]?.arrayValue?.map { $0["trip_id"] },
                       second["rides"]?.arrayValue?.map { $0["trip_id"] }, "pinned to that trip")
        XCTAssertEqual(segments(shown)[transit - 1]["locked"], .bool(true))
        // Google's time is the local clock to the minute read as UTC (Helsinki is UTC+2 in January).
        let local = (Int(try XCTUnwrap(date(departure)).timeIntervalSince1970) + 2 * 3600) / 60 * 60
        let link = try harness.json(["plan", "link", id, String(transit)])
        XCTAssertTrue(link["url"]?.stringValue?.contains("!8j\(local)") == true, "the link leaves with the choice: \(link)")
    }

    func testACarSegmentOffersTheShortestRouteWhenItDiffersAndChoosingItKeepsIt() throws {
        let created = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "car", "--at", Tampere.morning])
        let id = try id(created)
        let options = try harness.json(["plan", "alternatives", id, "1"])["options"]?.arrayValue ?? []
        XCTAssertEqual(options.count, 2, "the quickest and the shortest route: \(options)")
        let quickest = try XCTUnwrap(options.first?["distance_m"]?.numberValue)
        let shortest = try XCTUnwrap(options.last?["distance_m"]?.numberValue)
        XCTAssertLessThan(shortest, quickest)
        XCTAssertEqual(segments(created).first?["leg"]?["distance_m"]?.numberValue, quickest, "the plan had the quickest")
        let chosen = try harness.json(["plan", "choose", id, "1", "2"])
        XCTAssertEqual(segments(chosen).first?["leg"]?["distance_m"]?.numberValue, shortest)
        XCTAssertEqual(segments(chosen).first?["locked"], .bool(true))
    }

    /// When `option`, chosen, leaves: an option that walks on from the stop the planner inferred
    /// to a stop of its own makes `node` that stop (issue 39 item 4, "A chosen option boards where it
    /// boards"), and the segment leaves with its first ride; else as listed.
    static func departure(of option: JSONValue, chosenAfter node: JSONValue) -> JSONValue? {
        let ride = option["rides"]?.arrayValue?.first
        let walksOn = option["walks"]?.arrayValue?.contains { $0["kind"] == .string("access") && ($0["distance_m"]?.numberValue ?? 0) > 0 } == true
        return walksOn && node["inferred"] == .bool(true) && node["name"] == ride?["from"] ? ride?["departure"] : option["departure"]
    }

    func testPinningALineTakesTheFirstDepartureOfThatLine() throws {
        let created = try day()
        let id = try id(created)
        let transit = try XCTUnwrap(segments(created).firstIndex { $0["mode"] == .string("transit") }, "\(created)") + 1
        let options = try harness.json(["plan", "alternatives", id, String(transit), "--count", "12"])["options"]?.arrayValue ?? []
        let line = try XCTUnwrap(options.last?["rides"]?.arrayValue?.first?["line"]?.stringValue, "\(options)")
        let firstOfLine = try XCTUnwrap(options.first { ($0["rides"]?.arrayValue ?? []).contains { $0["line"]?.stringValue == line } })
        let pinned = try harness.json(["plan", "pin", id, String(transit), "--line", line])
        let leg = segments(pinned)[transit - 1]["leg"]
        XCTAssertEqual(leg?["departure"], Self.departure(of: firstOfLine, chosenAfter: nodes(pinned)[transit - 1]), "\(pinned)")
        XCTAssertEqual(segments(pinned)[transit - 1]["chosen_lines"]?.arrayValue?.contains(.string(line)), true)
    }

    // MARK: - Move, unlock, rename, copy

    func testMovingTheOriginAsksOnlyTheStreetLegsBesideItAndTimesTheRidesAsAFullRecompute() throws {
        let created = try day()
        let id = try id(created)
        let asked = try queries(["plan", "move", id, "1", "61.49600,23.73200"])
        let moved = asked.plan
        // The walk rule asks one walk from end to end of the hop the move makes (issue 39), and the
        // stretch the move touches, planned again as a new plan would, walks to and from the stops
        // of its new journey (docs/planner.md, "An edit re-plans what it touches"); a stretch it
        // retimed that walking could beat is asked its walk from end to end, as a new day plan
        // asks it (Keskustori → Tampere-talo, ridden 08:14–08:28).
        XCTAssertLessThanOrEqual(asked.walk + asked.car, 6,
                                 "only the street legs beside node 1, the hop's walk, the walks of the stretch planned again "
                                    + "and the walk of a retimed stretch")
        XCTAssertEqual(typed(nodes(moved).first), "61.49600,23.73200")
        XCTAssertTrue(nodes(moved).first?["name"]?.stringValue?.hasPrefix("near ") == true, "named by what is near: \(moved)")
        XCTAssertEqual(segments(try harness.json(["plan", "refresh", id])), segments(moved),
                       "every leg as a full recompute of the moved plan gives it")
    }

    func testUnlockingASegmentLetsAPresetChangeItAgain() throws {
        let created = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "car", "--at", Tampere.morning])
        let id = try id(created)
        _ = try harness.json(["plan", "mode", id, "1", "walk"])
        let kept = try harness.json(["plan", "preset", id, "fastest"])
        XCTAssertEqual(segments(kept).first?["mode"], .string("walk"), "a locked segment keeps its mode")
        let unlocked = try harness.json(["plan", "unlock", id, "1"])
        XCTAssertEqual(segments(unlocked).first?["locked"], .bool(false))
        let changed = try harness.json(["plan", "preset", id, "fastest"])
        XCTAssertNotEqual(segments(changed).first?["mode"], .string("walk"), "a walk to Hervanta is not the fastest: \(changed)")
    }

    func testSwapUpdatesAGeneratedTitleButNotOneTheUserSet() throws {
        let created = try harness.json(["plan", "new", Tampere.keskustori, Tampere.tampereTalo, "--mode", "walk", "--at", Tampere.morning])
        let id = try id(created)
        let swapped = try harness.json(["plan", "swap", id])
        XCTAssertEqual(nodes(swapped).map(typed), [Tampere.tampereTalo, Tampere.keskustori])
        XCTAssertEqual(swapped["title"]?.stringValue, generatedTitle(swapped))
        XCTAssertEqual(try harness.json(["plan", "rename", id, "concert"])["title"]?.stringValue, "concert")
        XCTAssertEqual(try harness.json(["plan", "swap", id])["title"]?.stringValue, "concert")
        let copy = try harness.json(["plan", "copy", id])
        XCTAssertNotEqual(try self.id(copy), id)
        XCTAssertEqual(copy["title"]?.stringValue, "concert (copy)")
        XCTAssertEqual(segments(copy), segments(try harness.json(["plan", "show", id])))
    }
}
