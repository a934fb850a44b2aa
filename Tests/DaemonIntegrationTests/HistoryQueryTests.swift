import Foundation
import WireProtocol
import XCTest

/// History you can query: IDs, typed text, region, requested time and answer; filters; rerun;
/// delete; places typed into `compare`, `plan new` and `plan insert` are searches too.
final class HistoryQueryTests: TampereDaemonTestCase {
    func entries(_ words: [String]) throws -> [JSONValue] {
        try XCTUnwrap(try harness.json(["history"] + words)["entries"]?.arrayValue)
    }

    func testPlacesTypedAsTextIntoTripsAreRecordedAsSearchesButSavedPlacesAndCoordinatesAreNot() throws {
        XCTAssertEqual(try harness.umctl(["place", "save", "Koti", Tampere.pyynikki]).status, 0)
        _ = try harness.json(["compare", "Hervanta", Tampere.keskustori, "--at", Tampere.morning])
        let plan = try harness.json(["plan", "new", "Koti", "Tampere-talo", "--mode", "walk", "--at", Tampere.morning])
        let id = String(Int64(try XCTUnwrap(plan["id"]?.numberValue)))
        _ = try harness.json(["plan", "insert", id, "Ratina", "--after", "1"])

        let searches = try entries(["searches"])
        XCTAssertEqual(searches.map { $0["text"]?.stringValue }, ["Ratina", "Tampere-talo", "Hervanta"])
        for entry in searches {
            XCTAssertEqual(entry["region"], .string("tampere"), "\(entry)")
            XCTAssertNotEqual(entry["place"], .null, "\(entry)")
            XCTAssertTrue(entry["id"]?.stringValue?.hasPrefix("s") == true, "\(entry)")
            for key in ["from", "to", "requested_time", "answers", "fastest"] { XCTAssertEqual(entry[key], .null, "every key present: \(key)") }
        }
    }

    /// Issue 16: an edit and the place typed into it are one write. A search history that
    /// refuses the entry (here a trigger in the real database) fails the edit, and the plan
    /// stays as it was, for `plan insert` and for `plan.edits` alike.
    func testAnEditWhoseTypedPlaceCannotBeRecordedIsNotStoredEither() throws {
        let plan = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "walk", "--at", Tampere.morning])
        let id = String(Int64(try XCTUnwrap(plan["id"]?.numberValue)))
        let database = harness.dataDirectory.appendingPathComponent("usefulmap.sqlite").path
        func sql(_ statement: String) throws {
            let result = try DaemonHarness.run("/usr/bin/sqlite3", [database, statement], in: harness.directory)
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        try sql("CREATE TRIGGER refuse_searches BEFORE INSERT ON search_history BEGIN SELECT RAISE(ABORT, 'refused'); END;")
        let batch = harness.directory.appendingPathComponent("edits.txt")
        try "plan pace \(id) fast\nplan insert \(id) Ratina --after 1\n".write(to: batch, atomically: true, encoding: .utf8)
        for request in [["plan", "insert", id, "Ratina", "--after", "1"], ["batch", batch.path, "--atomic"]] {
            let refused = try harness.umctl(request)
            XCTAssertEqual(refused.status, 1, "\(request): \(refused.stdout) \(refused.stderr)")
            let shown = try harness.json(["plan", "show", id])
            XCTAssertEqual(shown["nodes"]?.arrayValue?.count, 2, "\(request): the edit was not stored")
            XCTAssertEqual(shown["pace"], plan["pace"], "\(request)")
        }
        try sql("DROP TRIGGER refuse_searches;")
        XCTAssertEqual(try harness.umctl(["plan", "insert", id, "Ratina", "--after", "1"]).status, 0)
        XCTAssertEqual(try harness.json(["plan", "show", id])["nodes"]?.arrayValue?.count, 3)
        XCTAssertEqual(try entries(["searches"]).map { $0["text"]?.stringValue }, ["Ratina"])
    }

    func testRouteEntriesCarryTheRequestedTimeAndTheAnswerAndFilterRerunAndDeleteWork() throws {
        let compare = try harness.json(["compare", Tampere.keskustori, Tampere.tampereTalo, "--at", Tampere.morning])
        _ = try harness.json(["compare", "Hervanta", Tampere.ratina, "--arrive-by", "2022-01-12T09:00"])
        _ = try harness.json(["plan", "new", Tampere.pyynikki, Tampere.ratina, "--mode", "walk", "--at", Tampere.morning])

        let routes = try entries(["routes"])
        XCTAssertEqual(routes.count, 3)
        let first = try XCTUnwrap(routes.last)
        XCTAssertEqual(first["from_text"], .string(Tampere.keskustori))
        XCTAssertEqual(first["region"], .string("tampere"))
        XCTAssertEqual(first["requested_time"]?["kind"], .string("depart_at"))
        XCTAssertEqual(first["requested_time"]?["time"], .string("2022-01-12T08:00:00+02:00"))
        let answers = try XCTUnwrap(first["answers"]?.arrayValue)
        XCTAssertEqual(answers.map { $0["mode"]?.stringValue }, ["walk", "transit", "car", "bike"])
        let options = compare["options"]?.arrayValue ?? []
        XCTAssertEqual(answers.map { $0["duration_s"] }, options.map { $0["duration_s"] ?? .null }, "the same whole seconds as compare answered")
        XCTAssertEqual(first["fastest"], options.first { $0["fastest"] == .bool(true) }?["mode"])
        XCTAssertEqual(routes[1]["requested_time"]?["kind"], .string("arrive_by"))
        XCTAssertEqual(routes[0]["answers"], .null, "plan new records the plan's modes, not a comparison")
        XCTAssertEqual(routes[0]["modes"], .array([.string("walk")]))

        XCTAssertEqual(try entries(["routes", "--text", "hervanta"]).map { $0["id"] }, [routes[1]["id"]])
        XCTAssertEqual(try entries(["routes", "--place", "Hervanta"]).count, 1)
        XCTAssertEqual(try entries(["routes", "--mode", "walk"]).count, 3, "every comparison and the walking plan have walk")
        XCTAssertEqual(try entries(["routes", "--limit", "2"]).count, 2)
        XCTAssertEqual(try entries(["routes", "--since", "2000-01-01"]).count, 3)
        XCTAssertEqual(try entries(["routes", "--until", "2000-01-01"]).count, 0)
        let badMode = try harness.umctl(["history", "searches", "--mode", "walk"])
        XCTAssertEqual(badMode.status, 2, badMode.stderr)

        let firstID = try XCTUnwrap(first["id"]?.stringValue)
        let rerun = try harness.json(["history", "rerun", firstID, "--at", "2022-01-12T10:00"])
        XCTAssertEqual(rerun["options"]?.arrayValue?.count, 4)
        let newest = try XCTUnwrap(try entries(["routes"]).first)
        XCTAssertEqual(newest["from_text"], .string(Tampere.keskustori), "the rerun is the newest entry")
        XCTAssertEqual(newest["id"], first["id"], "under the ID it had")
        XCTAssertEqual(newest["requested_time"]?["time"], .string("2022-01-12T10:00:00+02:00"))
        XCTAssertEqual(try entries(["routes"]).count, 3, "the same trip again replaces its old entry")

        let newestID = try XCTUnwrap(newest["id"]?.stringValue)
        XCTAssertEqual(try harness.umctl(["history", "delete", newestID]).status, 0)
        XCTAssertFalse(try entries(["routes"]).contains { $0["id"]?.stringValue == newestID })
        let again = try harness.umctl(["history", "delete", newestID, "--json"])
        XCTAssertEqual(again.status, 1)
        XCTAssertEqual(try WireCodec.decoder.decode(JSONValue.self, from: Data(again.stderr.utf8))["data"]?["code"], .string("not_found"))
    }

    func testACarPlanThatCannotBeComputedIsStoredButExitsWithItsOwnCodeNamingTheSegment() throws {
        // A region of footpaths only: no car can get anywhere in it.
        var osm = OSMDocument()
        for k in 0..<6 { osm.node(k + 1, latitude: 60.17 + Double(k) * 0.001, longitude: 24.94) }
        osm.way(10, Array(1...6), tags: [("highway", "footway"), ("name", "Path")])
        let file = try osm.write(to: harness.directory.appendingPathComponent("paths.osm"))
        let imported = try harness.umctl(["region", "import", "paths", "--osm", file.path])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let (from, to) = ("60.1701,24.9400", "60.1749,24.9400")

        let result = try harness.umctl(["plan", "new", from, to, "--mode", "car", "--at", "2026-05-04T09:00", "--json"])
        XCTAssertEqual(result.status, 4, result.stderr)
        let error = try WireCodec.decoder.decode(JSONValue.self, from: Data(result.stderr.utf8))
        XCTAssertEqual(error["data"]?["code"], .string("incomplete_plan"))
        XCTAssertEqual(error["data"]?["segment"], .number(1))
        XCTAssertEqual(error["data"]?["mode"], .string("car"))
        XCTAssertTrue(error["message"]?.stringValue?.contains("segment 1 (car) has no route") == true, result.stderr)
        let plan = try WireCodec.decoder.decode(JSONValue.self, from: Data(result.stdout.utf8))
        XCTAssertNotEqual(plan["id"], .null, "the plan was stored and printed")
        let text = try harness.umctl(["plan", "new", from, to, "--mode", "car", "--at", "2026-05-04T09:00"])
        XCTAssertEqual(text.status, 4)
        XCTAssertTrue(text.stderr.contains("segment 1 (car) has no route"), text.stderr)
    }
}
