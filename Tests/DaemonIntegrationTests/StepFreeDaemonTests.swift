import Foundation
import WireProtocol
import XCTest

/// Issue 24, step-free trips, on a small written region: a flight of steps (`highway=steps`) the
/// walk takes and the wheelchair goes round, and a feed whose one stop says `wheelchair_boarding`
/// 2 through its station while another inherits its station's 1.
final class StepFreeDaemonTests: SharedDaemonTestCase {
    static let region = SmallRegion(name: "kuopio", latitude: 62.8924, longitude: 27.6780, withStepsToTerrace: true)
    static let morning = "2022-01-12T07:55"

    /// Stations N (north-east corner, 2) and E (row 0, column 6, 1), each with one platform that
    /// says nothing itself, and stop W at the south-west corner (1). Trips, both accessible (1):
    /// TN W → N-platform at 08:00 (3 minutes), TE W → E-platform at 08:00 (1 minute).
    static func feed(in directory: URL) throws -> URL {
        let region = Self.region
        func stop(_ id: String, _ name: String, _ row: Double, _ column: Double) -> (String, String, Double, Double) {
            let (lat, lon) = region.stopPoint(row: row, column: column)
            return (id, name, lat, lon)
        }
        var feed = MiniFeed()
        feed.agencyName = "Kuopio transit"
        feed.agencyURL = "https://example.org"
        feed.stops = [stop("W", "West corner", 0, 0), stop("N", "North station", 8, 8), stop("NP", "North platform", 8, 8),
                      stop("E", "East station", 0, 6), stop("EP", "East platform", 0, 6)]
        feed.locationTypes = ["W": 0, "N": 1, "NP": 0, "E": 1, "EP": 0]
        feed.parentStations = ["NP": "N", "EP": "E"]
        feed.wheelchairBoarding = ["W": 1, "N": 2, "E": 1, "EP": 0]
        feed.routes = [("R", "9", 3)]
        feed.trip("TN", route: "R", [("W", "08:00:00"), ("NP", "08:03:00")])
        feed.trip("TE", route: "R", [("W", "08:00:00"), ("EP", "08:01:00")])
        feed.wheelchairAccessible = ["TN": 1, "TE": 1]
        return try region.writeZip(feed.files, in: directory, fileName: "kuopio.zip")
    }

    override class func makeSharedDaemon() throws -> DaemonHarness {
        let harness = try super.makeSharedDaemon()
        let result = try harness.umctl(["region", "import", region.name, "--osm", try region.writeOSM(in: harness.directory).path,
                                        "--gtfs", try feed(in: harness.directory).path])
        guard result.status == 0 else { throw HarnessError("import: \(result.stderr)") }
        return harness
    }

    private func option(_ document: JSONValue, _ mode: String) throws -> JSONValue {
        try XCTUnwrap(document["options"]?.arrayValue?.first { $0["mode"]?.stringValue == mode }, "\(document)")
    }

    private func onlyLeg(_ plan: JSONValue) throws -> JSONValue {
        try XCTUnwrap(plan["segments"]?.arrayValue?.first?["leg"], "\(plan)")
    }

    func testTheWheelchairWalkGoesRoundTheStepsTheWalkTakes() throws {
        let region = Self.region
        let walk = try onlyLeg(try harness.json(["plan", "new", region.stepsTop, region.terracePoint, "--mode", "walk"]))
        let wheelchair = try onlyLeg(try harness.json(["plan", "new", region.stepsTop, region.terracePoint, "--mode", "walk",
                                                       "--wheelchair"]))
        XCTAssertLessThan(try XCTUnwrap(walk["distance_m"]?.numberValue), 150, "down the 100 m of steps: \(walk)")
        XCTAssertGreaterThan(try XCTUnwrap(wheelchair["distance_m"]?.numberValue), 800, "round by the street: \(wheelchair)")
        XCTAssertEqual(walk["accessibility"]?.stringValue, "unknown")
        XCTAssertEqual(wheelchair["accessibility"]?.stringValue, "step_free")
    }

    func testPlanAccessChangesTheLegsAndIsStoredWithThePlan() async throws {
        let region = Self.region
        let plan = try harness.json(["plan", "new", region.stepsTop, region.terracePoint, "--mode", "walk"])
        XCTAssertEqual(plan["access"]?.stringValue, "any")
        let changed = try harness.json(["plan", "access", try id(plan), "wheelchair"])
        XCTAssertEqual(changed["access"]?.stringValue, "wheelchair")
        XCTAssertGreaterThan(try XCTUnwrap(try onlyLeg(changed)["distance_m"]?.numberValue), 800, "\(changed)")
        let shown = try harness.umctl(["plan", "show", try id(plan)]).stdout
        XCTAssertTrue(shown.contains("step-free (wheelchair)"), shown)
        XCTAssertTrue(shown.contains("; step-free"), shown)
        XCTAssertEqual(try harness.json(["plan", "show", try id(plan)])["access"]?.stringValue, "wheelchair", "stored")
        let back = try harness.json(["plan", "access", try id(plan), "any"])
        XCTAssertLessThan(try XCTUnwrap(try onlyLeg(back)["distance_m"]?.numberValue), 150)
        XCTAssertTrue(try harness.umctl(["plan", "show", try id(plan)]).stdout.contains("accessibility unknown"))
        // plan.edits takes it like every other edit.
        let edited = try await harness.client().call("plan.edits", params: JSONValue.object([
            "id": .number(Double(try XCTUnwrap(plan["id"]?.numberValue))),
            "edits": .array([.object(["method": .string("plan.access"), "params": .object(["access": .string("wheelchair_strict")])])]),
        ]))
        XCTAssertEqual(edited["access"]?.stringValue, "wheelchair_strict")
    }

    func testAnUnknownAccessLevelIsRefusedNamingItAndChangesNothing() async throws {
        let region = Self.region
        let plan = try harness.json(["plan", "new", region.stepsTop, region.terracePoint, "--mode", "walk"])
        let refused = try harness.umctl(["plan", "access", try id(plan), "stairs"])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("LEVEL") && refused.stderr.contains("stairs"), refused.stderr)
        await XCTAssertThrowsErrorAsync(try await harness.client().call("plan.access", params: JSONValue.object([
            "id": .number(Double(try XCTUnwrap(plan["id"]?.numberValue))), "access": .string("stairs")]))) { error in
            XCTAssertTrue("\(error)".contains("access") && "\(error)".contains("stairs"), "\(error)")
            XCTAssertTrue("\(error)".contains("invalid_params") || "\(error)".contains("-32602"), "\(error)")
        }
        let after = try harness.json(["plan", "show", try id(plan)])
        XCTAssertEqual(after["generation"], plan["generation"], "nothing changed")
        XCTAssertEqual(after["access"]?.stringValue, "any")
        let badFlag = try harness.umctl(["compare", region.southWest, region.northEast, "--wheelchair=always"])
        XCTAssertNotEqual(badFlag.status, 0)
        XCTAssertTrue(badFlag.stderr.contains("--wheelchair=always"), badFlag.stderr)
    }

    func testAStopWhoseStationSaysNoIsNeverAlightedAtWithTheWheelchair() throws {
        let region = Self.region
        let plain = try option(try harness.json(["compare", region.southWest, region.northEast, "--at", Self.morning]), "transit")
        XCTAssertEqual(plain["lines"]?.arrayValue, [.string("9")], "\(plain)")
        XCTAssertEqual(plain["accessibility"]?.stringValue, "no", "the north platform inherits its station's 2")
        let table = try harness.umctl(["compare", region.southWest, region.northEast, "--at", Self.morning]).stdout
        XCTAssertTrue(table.contains("note: transit not accessible"), table)
        let wheelchair = try option(try harness.json(["compare", region.southWest, region.northEast, "--at", Self.morning,
                                                      "--wheelchair"]), "transit")
        XCTAssertEqual(wheelchair["error"]?["data"]?["code"]?.stringValue, "no_route",
                       "no step-free stop near the north-east corner: \(wheelchair)")
    }

    func testAPlatformInheritingItsStationsYesIsStepFree() throws {
        let region = Self.region
        let east = SmallRegion.text(region.point(row: 0, column: 6))
        for flag in ["--wheelchair", "--wheelchair=strict"] {
            let transit = try option(try harness.json(["compare", region.southWest, east, "--at", Self.morning, flag]), "transit")
            XCTAssertEqual(transit["lines"]?.arrayValue, [.string("9")], "\(flag): \(transit)")
            XCTAssertEqual(transit["accessibility"]?.stringValue, "step_free", "\(flag): \(transit)")
            let walk = try option(try harness.json(["compare", region.southWest, east, "--at", Self.morning, flag]), "walk")
            XCTAssertEqual(walk["accessibility"]?.stringValue, "step_free")
        }
        let table = try harness.umctl(["compare", region.southWest, east, "--at", Self.morning, "--wheelchair"]).stdout
        XCTAssertTrue(table.contains("note: transit step-free"), table)
    }

    /// Issue 41 item 4: `history rerun` of a comparison asked step-free at a slow pace reran at a
    /// normal pace down the steps, and the entry did not say which options it was asked with.
    func testARerunOfAComparisonKeepsItsPaceAccessAndArriveBy() throws {
        let region = Self.region
        let asked = try harness.json(["compare", region.stepsTop, region.terracePoint, "--wheelchair", "--pace", "slow",
                                      "--arrive-by", "2022-01-12T09:00"])
        let walk = try XCTUnwrap(try option(asked, "walk")["duration_s"]?.numberValue)
        let plain = try XCTUnwrap(try option(try harness.json(["compare", region.stepsTop, region.terracePoint]), "walk")["duration_s"]?.numberValue)
        XCTAssertGreaterThan(walk, plain, "slow and round the steps")
        // The plain comparison replaced the entry (same two ends); ask the step-free one again.
        _ = try harness.json(["compare", region.stepsTop, region.terracePoint, "--wheelchair", "--pace", "slow",
                              "--arrive-by", "2022-01-12T09:00"])
        let entry = try XCTUnwrap(try harness.json(["history", "routes"])["entries"]?.arrayValue?.first)
        XCTAssertEqual(entry["compare"]?["pace"]?.stringValue, "slow", "\(entry)")
        XCTAssertEqual(entry["compare"]?["access"]?.stringValue, "wheelchair", "\(entry)")
        XCTAssertEqual(entry["requested_time"]?["kind"]?.stringValue, "arrive_by", "\(entry)")
        let table = try harness.umctl(["history", "routes"]).stdout
        XCTAssertTrue(table.contains("pace slow") && table.contains("step-free"), table)

        let rerun = try harness.json(["history", "rerun", try XCTUnwrap(entry["id"]?.stringValue)])
        XCTAssertEqual(try option(rerun, "walk")["duration_s"]?.numberValue, walk, "\(rerun)")
        XCTAssertEqual(try option(rerun, "walk")["accessibility"]?.stringValue, "step_free")
        XCTAssertEqual(rerun["time_kind"]?.stringValue, "arrive_by")
        let after = try XCTUnwrap(try harness.json(["history", "routes"])["entries"]?.arrayValue?.first)
        XCTAssertEqual(after["compare"], entry["compare"], "the rerun keeps its options")
    }

    func testARerunFromHistoryMakesTheStepFreePlanAgain() throws {
        let region = Self.region
        let plan = try harness.json(["plan", "new", region.stepsTop, region.terracePoint, "--mode", "walk", "--wheelchair=strict",
                                     "--title", "terrace by wheelchair"])
        let entry = try XCTUnwrap(try harness.json(["history", "routes"])["entries"]?.arrayValue?.first {
            $0["plan"]?["title"]?.stringValue == "terrace by wheelchair"
        })
        XCTAssertEqual(entry["plan"]?["access"]?.stringValue, "wheelchair_strict")
        let rerun = try harness.json(["history", "rerun", try XCTUnwrap(entry["id"]?.stringValue)])
        XCTAssertNotEqual(try id(rerun), try id(plan))
        XCTAssertEqual(rerun["access"]?.stringValue, "wheelchair_strict")
        XCTAssertGreaterThan(try XCTUnwrap(try onlyLeg(rerun)["distance_m"]?.numberValue), 800, "\(rerun)")
    }

    func testThePresetWithTheWheelchairSetsTheAccessBeforeBuilding() throws {
        let region = Self.region
        let plan = try harness.json(["plan", "new", region.stepsTop, region.terracePoint, "--mode", "car"])
        let walked = try harness.json(["plan", "preset", try id(plan), "walk", "--wheelchair"])
        XCTAssertEqual(walked["access"]?.stringValue, "wheelchair")
        XCTAssertGreaterThan(try XCTUnwrap(try onlyLeg(walked)["distance_m"]?.numberValue), 800, "\(walked)")
    }
}
