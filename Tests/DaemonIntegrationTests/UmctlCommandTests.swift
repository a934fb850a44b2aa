import Foundation
import Glibc
import WireProtocol
import XCTest

/// Every `umctl` command against the real daemon on the Tampere region, for a person and with --json.
final class UmctlCommandTests: SharedTampereDaemonTestCase {
    /// A transit plan from the centre to Hervanta on the test day; returns its ID.
    func newTransitPlan() throws -> Int64 {
        let plan = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "transit",
                                     "--at", Tampere.morning, "--title", "to Hervanta"])
        return Int64(try XCTUnwrap(plan["id"]?.numberValue))
    }

    func testStatusShowsRegionDatabaseAndCounters() throws {
        let result = try harness.umctl(["status"])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.stdout.contains("tampere (Europe/Helsinki, transit)"), result.stdout)
        XCTAssertTrue(result.stdout.contains("routing queries:"), result.stdout)
        let status = try harness.json(["status"])
        XCTAssertEqual(status["database_path"]?.stringValue, try harness.dataDirectory.appendingPathComponent("usefulmap.sqlite").path)
        XCTAssertNotNil(status["counters"]?["routing_queries"]?["total"]?.numberValue)
    }

    func testRegionListShowsTampereWithTransitAndItsTimeZone() throws {
        let regions = try harness.json(["region", "list"])["regions"]?.arrayValue ?? []
        XCTAssertEqual(regions.first?["name"], .string("tampere"))
        XCTAssertEqual(regions.first?["has_transit"], .bool(true))
        XCTAssertEqual(regions.first?["time_zone"], .string("Europe/Helsinki"))
        XCTAssertTrue(try harness.umctl(["region", "list"]).stdout.contains("Europe/Helsinki"))
    }

    /// From Keskustori to the place search finds for "Hervanta" at 10:20 the earliest arrival
    /// changes from tram 3 to a bus, but saves less than the default transfer penalty (3 min):
    /// the default daemon rides directly, one with `--transfer-penalty 0` changes, and one with
    /// `--max-transfers 0` answers with direct rides only.
    func testMaxTransfersZeroGivesOnlyDirectRidesAndTheTransferPenaltyWeighsChanges() throws {
        let eager = try startDaemon(regionsFrom: try TampereRegion.dataDirectory(), extraArguments: ["--transfer-penalty", "0"])
        let direct = try startDaemon(regionsFrom: try TampereRegion.dataDirectory(),
                                     extraArguments: ["--max-transfers", "0", "--transfer-penalty", "0"])
        let query = ["compare", "Keskustori", "Hervanta", "--at", "2022-01-12T10:20"]
        func transit(_ document: JSONValue) -> JSONValue? {
            document["options"]?.arrayValue?.first { $0["mode"]?.stringValue == "transit" }
        }
        let earliest = transit(try eager.json(query)), limited = transit(try direct.json(query))
        let chosen = transit(try harness.json(query))
        XCTAssertEqual(earliest?["transfers"]?.numberValue, 1, "without a penalty the earliest arrival changes once")
        XCTAssertEqual(limited?["transfers"]?.numberValue, 0, "\(String(describing: limited))")
        XCTAssertEqual(chosen?["transfers"]?.numberValue, 0, "the change saves less than 3 min: \(String(describing: chosen))")
        let iso = ISO8601DateFormatter()
        let arrival = { (option: JSONValue?) in option?["arrival"]?.stringValue.flatMap(iso.date(from:)) ?? .distantPast }
        XCTAssertLessThan(arrival(chosen).timeIntervalSince(arrival(earliest)), 180)
    }

    /// Feeds go stale: the region says which dates its timetable covers, so the user can see
    /// why transit answers vanished (the first and last service dates of calendar.txt and calendar_dates.txt in tampere.zip).
    func testRegionListShowsEachFeedsServicePeriod() throws {
        let regions = try harness.json(["region", "list"])["regions"]?.arrayValue ?? []
        let feeds = regions.first?["transit_feeds"]?.arrayValue ?? []
        XCTAssertEqual(feeds.count, 1)
        XCTAssertEqual(feeds.first?["feed"], .string("tampere.zip"))
        XCTAssertEqual(feeds.first?["first_date"], .string("2021-09-20"))
        XCTAssertEqual(feeds.first?["last_date"], .string("2022-03-31"))
        XCTAssertTrue(try harness.umctl(["region", "list"]).stdout.contains("tampere.zip 2021-09-20 – 2022-03-31"))
    }

    func testSearchFindsStopsNearAPlaceAndIsRecordedInSearchHistory() throws {
        let results = try harness.json(["search", "Keskustori", "--kind", "stop", "--limit", "3", "--near", Tampere.keskustori])
        let names = (results["results"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
        XCTAssertFalse(names.isEmpty)
        XCTAssertTrue(names.allSatisfy { $0.hasPrefix("Keskustori") }, "\(names)")
        XCTAssertLessThanOrEqual(names.count, 3)
        let history = try harness.json(["history", "searches"])["entries"]?.arrayValue ?? []
        XCTAssertEqual(history.first?["label"], .string("Keskustori"))
        XCTAssertTrue(try harness.umctl(["search", "Tampere-talo"]).stdout.contains("Tampere-talo"))
    }

    func testPlacesAreSavedListedRenamedAndRemoved() throws {
        XCTAssertEqual(try harness.umctl(["place", "save", "Kotona", Tampere.pyynikki, "--note", "home"]).status, 0)
        XCTAssertTrue(try harness.umctl(["place", "list"]).stdout.contains("Kotona"))
        XCTAssertEqual(try harness.umctl(["place", "rename", "Kotona", "Koti"]).status, 0)
        let places = try harness.json(["place", "list"])["places"]?.arrayValue ?? []
        let koti = places.first { $0["name"] == .string("Koti") }
        XCTAssertEqual(koti?["note"], .string("home"))
        XCTAssertEqual(koti?["lat"]?.numberValue ?? 0, 61.4956, accuracy: 1e-6)
        // A saved place can be used wherever a place is expected.
        let compare = try harness.json(["compare", "Koti", Tampere.keskustori, "--at", Tampere.morning])
        XCTAssertEqual(compare["from"]?["name"], .string("Koti"))
        XCTAssertEqual(try harness.umctl(["place", "remove", "Koti"]).status, 0)
        let again = try harness.umctl(["place", "remove", "Koti"])
        XCTAssertEqual(again.status, 1)
        XCTAssertEqual(again.stderr, "umctl: no saved place named \"Koti\"\n")
    }

    func testLocationIsSetShownAndUsedForHere() throws {
        XCTAssertEqual(try harness.umctl(["location", "set", Tampere.railwayStation, "--accuracy", "10"]).status, 0)
        let location = try harness.json(["location", "show"])
        XCTAssertEqual(location["lat"]?.numberValue ?? 0, 61.4986, accuracy: 1e-6)
        XCTAssertEqual(location["accuracy_m"], .number(10))
        XCTAssertTrue(location["at"]?.stringValue?.hasSuffix("+02:00") ?? false, "instants carry the region's offset")
        let plan = try harness.json(["plan", "new", "@here", Tampere.tampereTalo, "--mode", "walk"])
        XCTAssertEqual(plan["nodes"]?.arrayValue?.first?["current_location"], .bool(true))
        XCTAssertEqual(plan["nodes"]?.arrayValue?.first?["lat"]?.numberValue ?? 0, 61.4986, accuracy: 1e-6)
    }

    func testCompareShowsWalkTransitCarAndBikeWithTheFastestMarked() throws {
        let compare = try harness.json(["compare", Tampere.keskustori, Tampere.hervanta, "--at", Tampere.morning])
        let options = compare["options"]?.arrayValue ?? []
        XCTAssertEqual(options.compactMap { $0["mode"]?.stringValue }, ["walk", "transit", "car", "bike"])
        XCTAssertEqual(options.filter { $0["fastest"] == .bool(true) }.count, 1)
        for option in options {
            XCTAssertEqual(option["error"], .null, "\(option)")
            XCTAssertGreaterThan(option["duration_s"]?.numberValue ?? 0, 0)
            XCTAssertGreaterThan(option["distance_m"]?.numberValue ?? 0, 1000)
            XCTAssertTrue(option["departure"]?.stringValue?.hasPrefix("2022-01-12T0") ?? false, "\(option)")
        }
        let transit = options[1]
        XCTAssertFalse(transit["lines"]?.arrayValue?.isEmpty ?? true, "transit names its lines")
        let walk = try XCTUnwrap(options[0]["duration_s"]?.numberValue), car = try XCTUnwrap(options[2]["duration_s"]?.numberValue)
        XCTAssertLessThan(car, walk, "8 km: the car beats walking")
        let text = try harness.umctl(["compare", Tampere.keskustori, Tampere.hervanta, "--at", Tampere.morning]).stdout
        XCTAssertTrue(text.contains(" *"), text)
        XCTAssertTrue(text.contains("transit"), text)
        let routes = try harness.json(["history", "routes", "--limit", "5"])["entries"]?.arrayValue ?? []
        XCTAssertFalse(routes.isEmpty, "compare is recorded in route history")
    }

    func testPlanIsCreatedListedShownLinkedAndDeleted() throws {
        let id = try newTransitPlan()
        let plan = try harness.json(["plan", "show", String(id)])
        XCTAssertEqual(plan["title"], .string("to Hervanta"))
        let nodes = plan["nodes"]?.arrayValue ?? []
        let segments = plan["segments"]?.arrayValue ?? []
        XCTAssertEqual(segments.count, nodes.count - 1)
        XCTAssertTrue(segments.contains { $0["mode"] == .string("transit") })
        XCTAssertTrue(nodes.dropFirst().dropLast().allSatisfy { $0["inferred"] == .bool(true) }, "stops are inserted by the builder")
        XCTAssertNotNil(plan["total_duration_s"]?.numberValue, "every leg exists, so the total is shown")
        XCTAssertTrue(nodes.allSatisfy { $0["time"]?.stringValue?.hasSuffix("+02:00") ?? false }, "every node has a time")
        let text = try harness.umctl(["plan", "show", String(id)]).stdout
        XCTAssertTrue(text.contains("seg 1:"), text)
        XCTAssertTrue(text.contains("total:"), text)
        XCTAssertTrue(try harness.umctl(["plan", "list"]).stdout.contains("to Hervanta"))

        let transitSegment = (segments.firstIndex { $0["mode"] == .string("transit") } ?? 0) + 1
        let link = try harness.json(["plan", "link", String(id), String(transitSegment)])
        XCTAssertEqual(link["form"], .string("timed"))
        XCTAssertTrue(link["url"]?.stringValue?.hasPrefix("https://www.google.com/maps/dir/") ?? false)
        XCTAssertTrue(link["url"]?.stringValue?.hasSuffix("!3e3") ?? false, "transit mode in the link")

        XCTAssertEqual(try harness.umctl(["plan", "delete", String(id)]).status, 0)
        let gone = try harness.umctl(["plan", "show", String(id)])
        XCTAssertEqual(gone.status, 1)
        XCTAssertEqual(gone.stderr, "umctl: plan \(id) does not exist\n")
    }

    /// Issue 6: the walks of a transit leg (to the first stop, between rides, from the last stop)
    /// and the walking-is-no-slower note used to be dropped before storage, the wire and `plan show`.
    func testTransitLegCarriesItsWalksToTheWireAndPlanShowPrintsThem() throws {
        let id = try newTransitPlan()
        let plan = try harness.json(["plan", "show", String(id)])
        let nodes = plan["nodes"]?.arrayValue ?? []
        let segments = plan["segments"]?.arrayValue ?? []
        let index = try XCTUnwrap(segments.firstIndex { $0["mode"] == .string("transit") }, "\(plan)")
        let leg = try XCTUnwrap(segments[index]["leg"], "\(plan)")
        let walks = leg["walks"]?.arrayValue ?? []
        let rides = leg["rides"]?.arrayValue ?? []
        XCTAssertFalse(rides.isEmpty, "\(leg)")
        XCTAssertTrue(rides.allSatisfy { !($0["trip_id"]?.stringValue ?? "").isEmpty }, "every ride names its trip: \(rides)")
        XCTAssertEqual(walks.first?["kind"], .string("access"), "\(leg)")
        XCTAssertEqual(walks.filter { $0["kind"] == .string("transfer") }.count, rides.count - 1, "one walk per change")
        XCTAssertEqual(walks.first?["from"], nodes[index]["name"], "the access walk starts at the segment's start")
        XCTAssertEqual(walks.first?["to"], rides.first?["from"], "and ends where the first ride boards")
        XCTAssertEqual(walks.first?["start"], leg["departure"])
        // The stop inserted after the ride is where it alights: the walk on is the plan's next segment.
        XCTAssertEqual(nodes[index + 1]["inferred"], .bool(true), "\(plan)")
        XCTAssertEqual(nodes[index + 1]["name"], rides.last?["to"])
        XCTAssertFalse(walks.contains { $0["kind"] == .string("egress") }, "\(leg)")
        XCTAssertEqual(leg["arrival"], rides.last?["arrival"])
        XCTAssertEqual(leg["walking_is_no_slower"], .bool(false), "8 km: the bus beats walking")
        for walk in walks {
            let seconds = try XCTUnwrap(walk["duration_s"]?.numberValue), metres = try XCTUnwrap(walk["distance_m"]?.numberValue)
            // Within the access radius (800 m, streets a little longer) at a walking speed between 0.5 and 2.5 m/s.
            XCTAssertTrue((0...1000).contains(metres), "\(walk)")
            XCTAssertTrue((0...1200).contains(seconds), "\(walk)")
            if metres > 20 { XCTAssertTrue((metres / 2.5...metres / 0.5).contains(seconds), "\(walk)") }
        }

        let text = try harness.umctl(["plan", "show", String(id)]).stdout
        for walk in walks where (walk["distance_m"]?.numberValue ?? 0) > 0 {
            let minutes = Int(((walk["duration_s"]?.numberValue ?? 0) / 60).rounded())
            let line = "walk \(minutes) min \(walk["from"]?.stringValue ?? "") → \(walk["to"]?.stringValue ?? "")"
            XCTAssertTrue(text.contains(line), "expected '\(line)' in:\n\(text)")
        }
        XCTAssertFalse(text.contains("no slower"), text)
    }

    /// Keskustori to the railway station (700 m) at 08:00: bus 10 arrives after the walk would,
    /// and the engine's note used to be dropped before it reached `compare`.
    func testCompareSaysWhenWalkingIsNoSlowerThanTheBus() throws {
        let compare = try harness.json(["compare", Tampere.keskustori, Tampere.railwayStation, "--at", Tampere.morning])
        let options = compare["options"]?.arrayValue ?? []
        let transit = try XCTUnwrap(options.first { $0["mode"] == .string("transit") }, "\(compare)")
        let walk = try XCTUnwrap(options.first { $0["mode"] == .string("walk") }, "\(compare)")
        XCTAssertEqual(transit["error"], .null, "\(transit)")
        XCTAssertEqual(transit["walking_is_no_slower"], .bool(true), "\(transit)")
        XCTAssertEqual(walk["walking_is_no_slower"], .bool(false))
        let text = try harness.umctl(["compare", Tampere.keskustori, Tampere.railwayStation, "--at", Tampere.morning]).stdout
        XCTAssertTrue(text.contains("note: walking the whole way is no slower than transit"), text)

        let far = try harness.umctl(["compare", Tampere.keskustori, Tampere.hervanta, "--at", Tampere.morning]).stdout
        XCTAssertFalse(far.contains("no slower"), far)

        // A transit plan for the same trip keeps the note on its leg, and `plan show` prints it.
        let plan = try harness.json(["plan", "new", Tampere.keskustori, Tampere.railwayStation, "--mode", "transit",
                                     "--at", Tampere.morning])
        let leg = plan["segments"]?.arrayValue?.first { $0["mode"] == .string("transit") }?["leg"]
        XCTAssertEqual(leg?["walking_is_no_slower"], .bool(true), "\(plan)")
        let id = try XCTUnwrap(plan["id"]?.numberValue)
        let shown = try harness.umctl(["plan", "show", String(Int64(id))]).stdout
        XCTAssertTrue(shown.contains("note: walking the whole way is no slower than this journey"), shown)
    }

    func testEveryPlanEditAnswersWithTheUpdatedPlan() throws {
        let id = String(try newTransitPlan())
        func edit(_ words: [String]) throws -> JSONValue {
            let plan = try harness.json(["plan"] + words)
            XCTAssertEqual(plan["id"]?.numberValue.map { String(Int64($0)) }, id, "\(words)")
            return plan
        }
        let before = try edit(["show", id])
        let nodeCount = before["nodes"]?.arrayValue?.count ?? 0

        var plan = try edit(["insert", id, "--after", "1", Tampere.ratina, "--mode", "walk"])
        // The ride the walk split leaves its inferred stop no ride's: it goes ("A stop no ride uses goes").
        let inserted = plan["nodes"]?.arrayValue?.count ?? 0
        XCTAssertTrue((nodeCount...(nodeCount + 1)).contains(inserted), "\(plan)")
        XCTAssertEqual(plan["nodes"]?.arrayValue?[1]["lat"]?.numberValue ?? 0, 61.4918, accuracy: 1e-6)
        plan = try edit(["remove", id, "2"])
        XCTAssertEqual(plan["nodes"]?.arrayValue?.count, inserted - 1)

        plan = try edit(["mode", id, "1", "car"])
        XCTAssertEqual(plan["segments"]?.arrayValue?.first?["mode"], .string("car"))
        XCTAssertEqual(plan["segments"]?.arrayValue?.first?["locked"], .bool(true), "a mode chosen by hand is locked")

        plan = try edit(["swap", id])
        let firstAfterSwap = plan["nodes"]?.arrayValue?.first?["lat"]?.numberValue ?? 0
        XCTAssertEqual(firstAfterSwap, 61.4502, accuracy: 1e-6, "Hervanta is now the origin")
        plan = try edit(["swap", id])

        plan = try edit(["preset", id, "walk"])
        let modes = plan["segments"]?.arrayValue?.compactMap { $0["mode"]?.stringValue } ?? []
        XCTAssertEqual(modes.first, "car", "a preset never changes a locked segment")
        XCTAssertTrue(modes.dropFirst().allSatisfy { $0 == "walk" }, "\(modes)")

        plan = try edit(["rebuild", id, "--preset", "transit"])
        XCTAssertTrue(plan["segments"]?.arrayValue?.contains { $0["mode"] == .string("transit") } ?? false)
        XCTAssertFalse(plan["segments"]?.arrayValue?.contains { $0["locked"] == .bool(true) } ?? true, "rebuild starts over")

        plan = try edit(["pace", id, "fast"])
        XCTAssertEqual(plan["pace"], .string("fast"))
        plan = try edit(["pace", id])
        XCTAssertEqual(plan["pace"], .string("slow"), "pace without a value cycles fast → slow")

        plan = try edit(["time", id, "--arrive-by", "2022-01-12T09:00"])
        XCTAssertEqual(plan["time_preference"]?["kind"], .string("arrive_by"))
        XCTAssertLessThanOrEqual(plan["nodes"]?.arrayValue?.last?["time"]?.stringValue ?? "9", "2022-01-12T09:00:00+02:00")
        plan = try edit(["time", id, "--at", Tampere.morning])
        XCTAssertEqual(plan["time_preference"]?["time"], .string("2022-01-12T08:00:00+02:00"))

        let transit = (plan["segments"]?.arrayValue?.firstIndex { $0["mode"] == .string("transit") } ?? 0) + 1
        plan = try edit(["pin", id, String(transit), "2022-01-12T08:15"])
        XCTAssertEqual(plan["pinned_segment"], .number(Double(transit)))
        let pinnedDeparture = plan["segments"]?.arrayValue?[transit - 1]["leg"]?["departure"]?.stringValue ?? ""
        XCTAssertGreaterThanOrEqual(pinnedDeparture, "2022-01-12T08:15:00+02:00")
        plan = try edit(["unpin", id])
        XCTAssertEqual(plan["pinned_segment"], .null)

        plan = try edit(["refine", id, "--depth", "1"])
        XCTAssertNotNil(plan["segments"])

        let accept = try harness.umctl(["plan", "accept", id, "1"])
        XCTAssertEqual(accept.status, 1, "no update is pending")
        XCTAssertTrue(accept.stderr.contains("segment 1 has no pending update"), "errors count from 1 like the person: \(accept.stderr)")
        let dismiss = try harness.umctl(["plan", "dismiss", id, "1"])
        XCTAssertTrue(dismiss.stderr.contains("segment 1 has no pending update"), dismiss.stderr)

        // Today is outside the feed's service period: the plan is stored with its transit leg
        // missing, printed, and the command exits 4 naming the segment.
        let now = try harness.umctl(["plan", "time", id, "now", "--json"])
        XCTAssertEqual(now.status, 4, now.stderr)
        plan = try WireCodec.decoder.decode(JSONValue.self, from: Data(now.stdout.utf8))
        XCTAssertEqual(plan["time_preference"]?["kind"], .string("leave_now"))
        let error = try WireCodec.decoder.decode(JSONValue.self, from: Data(now.stderr.utf8))
        XCTAssertEqual(error["data"]?["code"], .string("incomplete_plan"))
        XCTAssertEqual(error["data"]?["mode"], .string("transit"))
        XCTAssertEqual(error["data"]?["reason"]?["data"]?["code"], .string("outside_service_period"))
        let segment = try XCTUnwrap(error["data"]?["segment"]?.numberValue)
        XCTAssertEqual(plan["segments"]?.arrayValue?[Int(segment) - 1]["leg"], .null, "the segment named is the one without a leg")
        let text = try harness.umctl(["plan", "show", id])
        XCTAssertEqual(text.status, 0, "plan show computes nothing, so it does not fail")
    }

    func testBadEditChangesNothingAndNamesTheProblem() throws {
        let id = String(try newTransitPlan())
        let before = try harness.json(["plan", "show", id])
        let outOfRange = try harness.umctl(["plan", "mode", id, "9", "car"])
        XCTAssertEqual(outOfRange.status, 1)
        XCTAssertTrue(outOfRange.stderr.contains("segment 9"), outOfRange.stderr)
        let endpoint = try harness.umctl(["plan", "remove", id, "1"])
        XCTAssertEqual(endpoint.status, 1)
        XCTAssertTrue(endpoint.stderr.contains("is the origin or the destination and cannot be removed"), endpoint.stderr)
        XCTAssertEqual(try harness.json(["plan", "show", id]), before)
    }

    func testPlaceThatCannotBeFoundIsAnErrorNamingIt() throws {
        let result = try harness.umctl(["plan", "new", "Xyzzyqwv", Tampere.keskustori])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("no place found for \"Xyzzyqwv"), result.stderr)
    }

    func testValidationRejectsBadInputBeforeAnythingIsSent() throws {
        let before = try harness.counters().requests
        for words in [["plan", "mode", "1", "0", "car"], ["plan", "mode", "1", "1", "boat"], ["plan", "show", "x"],
                      ["compare", "a", "b", "--at", "25:00"], ["compare", "a", "b", "--at", "08:00", "--arrive-by", "09:00"],
                      ["location", "set", "91,0"], ["plan", "insert", "1", "somewhere"], ["search", "x", "--kind", "shop"]] {
            let result = try harness.umctl(words)
            XCTAssertEqual(result.status, 2, "\(words): \(result.stderr)")
            XCTAssertFalse(result.stderr.isEmpty)
        }
        XCTAssertEqual(try harness.counters().requests, before + 1, "only the status call itself reached the daemon")
    }

    func testHelpIsGeneratedFromEachCommandsDeclarations() throws {
        let pin = try harness.umctl(["help", "plan", "pin"])
        XCTAssertEqual(pin.status, 0)
        XCTAssertTrue(pin.stdout.contains("usage: umctl plan pin ID SEG [TIME] [--line L] [--at TIME]"), pin.stdout)
        XCTAssertTrue(pin.stdout.contains("--json"), "shared options appear in every command's help")
        XCTAssertTrue(try harness.umctl(["plan", "new", "--help"]).stdout.contains("--arrive-by TIME"))
        XCTAssertTrue(try harness.umctl(["help"]).stdout.contains("exit codes"))
        XCTAssertEqual(try harness.umctl(["teleport"]).status, 2)
    }

    func testBatchRunsCommandsWithLASTAndStopsAtTheFirstErrorNamingItsLine() throws {
        let script = """
        # a scripted plan
        plan new \(Tampere.keskustori) \(Tampere.tampereTalo) --mode walk --title "batch plan"

        plan mode $LAST 1 car
        plan show $LAST
        plan mode $LAST 7 car
        plan show $LAST
        """
        let result = try harness.umctl(["batch", "-", "--json"], stdin: script)
        XCTAssertEqual(result.status, 1)
        let lines = result.stdout.split(separator: "\n").map { try? WireCodec.decoder.decode(JSONValue.self, from: Data($0.utf8)) }
        XCTAssertEqual(lines.count, 4, "three results and the error; line 7 never ran: \(result.stdout)")
        XCTAssertEqual(lines[0]?["line"], .number(2))
        XCTAssertEqual(lines[1]?["result"]?["segments"]?.arrayValue?.first?["mode"], .string("car"), "$LAST is the new plan")
        XCTAssertEqual(lines[3]?["line"], .number(6))
        XCTAssertTrue(result.stderr.contains("line 6"), result.stderr)

        let keepGoing = try harness.umctl(["batch", "--keep-going"], stdin: "plan show 999999\nstatus\n")
        XCTAssertEqual(keepGoing.status, 1)
        XCTAssertTrue(keepGoing.stderr.contains("line 1"), keepGoing.stderr)
        XCTAssertTrue(keepGoing.stdout.contains("routing queries"), "line 2 still ran: \(keepGoing.stdout)")
    }

    func testHistoryIsListedAndCleared() throws {
        _ = try harness.umctl(["search", "Hervanta"])
        XCTAssertTrue(try harness.umctl(["history", "searches", "--limit", "3"]).stdout.contains("Hervanta"))
        XCTAssertEqual(try harness.umctl(["history", "clear", "searches"]).status, 0)
        XCTAssertEqual(try harness.json(["history", "searches"])["entries"], .array([]))
        _ = try harness.umctl(["compare", Tampere.keskustori, Tampere.ratina])
        XCTAssertEqual(try harness.umctl(["history", "clear", "routes"]).status, 0)
        XCTAssertEqual(try harness.json(["history", "routes"])["entries"], .array([]))
    }

    func testWatchPrintsEachRecomputedPlanAsItHappens() throws {
        let id = String(try newTransitPlan())
        let output = try harness.directory.appendingPathComponent("watch.out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let watch = Process()
        watch.executableURL = URL(fileURLWithPath: DaemonHarness.umctl)
        watch.arguments = ["watch", "--socket", try harness.socketPath]
        watch.standardOutput = try FileHandle(forWritingTo: output)
        try watch.run()
        defer { if watch.isRunning { kill(watch.processIdentifier, SIGINT); watch.waitUntilExit() } }
        var seen = ""
        func announced() -> Bool {
            seen.split(separator: "\n").contains { $0.contains("plan_recomputed") && $0.contains("plan_id=\(id) ") }
        }
        for _ in 0..<100 where !announced() {
            _ = try harness.umctl(["plan", "pace", id])
            usleep(50_000)
            seen = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        }
        XCTAssertTrue(announced(), seen)
    }
}
