import Foundation
import WireProtocol
import XCTest

/// The bicycle through the real daemon on Tampere: compare, plans, `plan mode`, presets,
/// alternatives, links and the counters.
final class BikeModeDaemonTests: SharedTampereDaemonTestCase {
    func testCompareShowsFourOptionsWithTheBikeBetweenCarAndWalk() throws {
        let compare = try harness.json(["compare", Tampere.keskustori, Tampere.hervanta, "--at", Tampere.morning])
        let options = compare["options"]?.arrayValue ?? []
        XCTAssertEqual(options.compactMap { $0["mode"]?.stringValue }, ["walk", "transit", "car", "bike"])
        let bike = try XCTUnwrap(options.last)
        XCTAssertEqual(bike["error"], .null, "\(bike)")
        let walk = try XCTUnwrap(options[0]["duration_s"]?.numberValue), car = try XCTUnwrap(options[2]["duration_s"]?.numberValue)
        let ride = try XCTUnwrap(bike["duration_s"]?.numberValue)
        XCTAssertLessThan(ride, walk)
        XCTAssertGreaterThan(ride, car)
        XCTAssertEqual(bike["transfers"]?.numberValue, 0)
        let text = try harness.umctl(["compare", Tampere.keskustori, Tampere.hervanta, "--at", Tampere.morning]).stdout
        XCTAssertEqual(text.split(separator: "\n").filter { $0.hasPrefix("bike") }.count, 1, "a row of its own: \(text)")
        let answers = try harness.json(["history", "routes", "--limit", "1"])["entries"]?.arrayValue?.first
        XCTAssertTrue("\(String(describing: answers))".contains("bike"), "the bike's answer is recorded: \(String(describing: answers))")
    }

    func testAPlanByBikeHasOneBikeLegAndABicyclingLink() throws {
        let plan = try harness.json(["plan", "new", Tampere.keskustori, Tampere.tampereTalo, "--mode", "bike", "--at", Tampere.morning])
        XCTAssertEqual(segments(plan).compactMap { $0["mode"]?.stringValue }, ["bike"])
        XCTAssertNotNil(segments(plan).first?["leg"]?["duration_s"]?.numberValue)
        let link = try harness.json(["plan", "link", try id(plan), "1"])
        XCTAssertEqual(link["form"], .string("timed"))
        XCTAssertTrue(link["url"]?.stringValue?.hasSuffix("!3e1") ?? false, "bicycle mode in the link: \(link)")
        let shown = try harness.umctl(["plan", "show", try id(plan)]).stdout
        XCTAssertTrue(shown.contains("bike"), shown)
    }

    func testPlanModeToBikeRecomputesTheSegmentFasterThanTheWalk() throws {
        let plan = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "walk", "--at", Tampere.morning])
        let walk = try XCTUnwrap(segments(plan).first?["leg"]?["duration_s"]?.numberValue)
        let changed = try harness.json(["plan", "mode", try id(plan), "1", "bike"])
        XCTAssertEqual(segments(changed).first?["mode"], .string("bike"))
        XCTAssertEqual(segments(changed).first?["locked"], .bool(true))
        let ride = try XCTUnwrap(segments(changed).first?["leg"]?["duration_s"]?.numberValue)
        XCTAssertLessThan(ride, walk)
    }

    func testTheBikePresetTurnsATransitPlanIntoOneRide() throws {
        let plan = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "transit", "--at", Tampere.morning])
        XCTAssertGreaterThan(segments(plan).count, 1)
        let ridden = try harness.json(["plan", "preset", try id(plan), "bike"])
        XCTAssertEqual(segments(ridden).compactMap { $0["mode"]?.stringValue }, ["bike"])
        XCTAssertNotNil(segments(ridden).first?["leg"]?["duration_s"]?.numberValue)
    }

    func testABikeSegmentListsBikeAlternatives() throws {
        let plan = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "bike", "--at", Tampere.morning])
        let alternatives = try harness.json(["plan", "alternatives", try id(plan), "1"])
        XCTAssertEqual(alternatives["mode"], .string("bike"))
        let options = alternatives["options"]?.arrayValue ?? []
        XCTAssertFalse(options.isEmpty)
        XCTAssertEqual(options.first?["duration_s"], segments(plan).first?["leg"]?["duration_s"], "the quickest first: \(options)")
    }

    func testBikeQueriesAreCountedInStatus() throws {
        _ = try harness.json(["plan", "new", Tampere.keskustori, Tampere.railwayStation, "--mode", "bike", "--at", Tampere.morning])
        let status = try harness.json(["status"])
        XCTAssertGreaterThan(status["counters"]?["routing_queries"]?["bike"]?.numberValue ?? 0, 0, "\(status)")
        XCTAssertTrue(try harness.umctl(["status"]).stdout.contains(", bike "))
    }
}

/// A region whose routing database holds no bicycle data still routes walk and car; its bike
/// option says what to do instead of failing the worker.
final class RegionWithoutBicycleDataTests: XCTestCase {
    func testTheBikeOptionNamesTheRegionAndTheReimportWhileWalkAndCarAnswer() throws {
        let harness = try startDaemon()
        var region = SmallRegion(name: "oulu", latitude: 65.0121, longitude: 25.4651)
        region.bicyclesBanned = true
        let imported = try harness.umctl(["region", "import", region.name, "--osm", try region.writeOSM(in: harness.directory).path])
        XCTAssertEqual(imported.status, 0, imported.stderr)

        let compare = try harness.json(["compare", region.southWest, region.northEast])
        let options = compare["options"]?.arrayValue ?? []
        XCTAssertEqual(options.compactMap { $0["mode"]?.stringValue }, ["walk", "transit", "car", "bike"])
        XCTAssertEqual(options[0]["error"], .null, "\(options[0])")
        XCTAssertEqual(options[2]["error"], .null, "\(options[2])")
        let bike = try XCTUnwrap(options.last?["error"])
        XCTAssertEqual(bike["data"]?["code"], .string("unsupported_in_region"), "\(bike)")
        let message = bike["message"]?.stringValue ?? ""
        XCTAssertTrue(message.contains("oulu"), message)
        XCTAssertTrue(message.contains("umctl region import"), message)

        let plan = try harness.umctl(["plan", "new", region.southWest, region.northEast, "--mode", "bike"])
        XCTAssertNotEqual(plan.status, 0)
        XCTAssertTrue(plan.stderr.contains("bicycle"), plan.stderr)
    }
}

/// `compare`'s `modes`: only the modes asked, in the standard order; bad lists change nothing.
final class CompareModesParamTests: SharedTampereDaemonTestCase {
    func testCompareAnswersOnlyTheModesAskedInTheStandardOrder() async throws {
        let client = try harness.client()
        let three = try await client.call(Endpoints.compare, Params.Compare(from: Tampere.keskustori, to: Tampere.hervanta,
                                                                      at: Tampere.morning, modes: [.car, .walk, .transit]))
        XCTAssertEqual(three.options.map(\.mode), [.walk, .transit, .car])
        let bike = try await client.call(Endpoints.compare, Params.Compare(from: Tampere.keskustori, to: Tampere.hervanta,
                                                                     at: Tampere.morning, modes: [.bike]))
        XCTAssertEqual(bike.options.map(\.mode), [.bike])
        XCTAssertTrue(bike.options[0].fastest, "the only option is the quickest")
    }

    func testABadModesListIsInvalidParamsNamingIt() async throws {
        let client = try harness.client()
        let before = try harness.json(["history", "routes"])
        for modes: [WireMode] in [[], [.walk, .walk]] {
            await XCTAssertThrowsErrorAsync(try await client.call(Endpoints.compare, Params.Compare(from: Tampere.keskustori, to: Tampere.hervanta,
                                                                                   at: Tampere.morning, modes: modes)), "\(modes)") { error in
                XCTAssertTrue("\(error)".contains("modes"), "\(error)")
                XCTAssertTrue("\(error)".contains("invalid_params") || "\(error)".contains("-32602"), "\(error)")
            }
        }
        // A mode the client's types cannot hold, as another client could send it.
        await XCTAssertThrowsErrorAsync(try await client.call("compare", params: JSONValue.object([
            "from": .string(Tampere.keskustori), "to": .string(Tampere.hervanta), "at": .string(Tampere.morning),
            "modes": .array([.string("boat")])]))) { error in
            XCTAssertTrue("\(error)".contains("modes") && "\(error)".contains("boat"), "\(error)")
            XCTAssertTrue("\(error)".contains("invalid_params") || "\(error)".contains("-32602"), "\(error)")
        }
        XCTAssertEqual(try harness.json(["history", "routes"]), before, "nothing was recorded")
    }
}
