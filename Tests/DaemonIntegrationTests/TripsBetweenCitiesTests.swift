import Foundation
import TestSupport
import WireProtocol
import XCTest

/// Issue 43: trips between cities are fast. A walk over 30 km (a bike ride over 100 km) is not
/// asked of Routino: compare answers it `too_far` with the straight-line distance. A region of
/// two towns 40 km apart, joined by a road, written by the test.
final class TripsBetweenCitiesTests: XCTestCase {
    /// Each town a 3 × 3 grid 200 m apart; the road runs north from the first town's north-east
    /// corner to the second's south-east corner, a node every kilometre.
    private static let south = (latitude: 61.30, longitude: 23.70)
    private static let townsApart = 40_000.0

    /// - parameter joined: with the road between them; without it they are two street islands.
    private func writeTwoTowns(in directory: URL, joined: Bool = true) throws -> URL {
        var document = OSMDocument()
        let degreesNorth = Self.townsApart / 111_195
        let spacing = 200.0
        func point(_ town: Int, _ row: Int, _ column: Int) -> (Double, Double) {
            (Self.south.latitude + Double(town) * degreesNorth + Double(row) * spacing / 111_195,
             Self.south.longitude + Double(column) * spacing / (111_195 * cos(Self.south.latitude * .pi / 180)))
        }
        func id(_ town: Int, _ row: Int, _ column: Int) -> Int { 1 + town * 100 + row * 3 + column }
        var wayID = 1_000
        for town in 0..<2 {
            for row in 0..<3 {
                for column in 0..<3 {
                    let (latitude, longitude) = point(town, row, column)
                    document.node(id(town, row, column), latitude: latitude, longitude: longitude)
                }
            }
            for index in 0..<3 {
                document.way(wayID, (0..<3).map { id(town, index, $0) }, tags: [("highway", "residential"), ("name", "Town \(town) Street \(index)")])
                document.way(wayID + 1, (0..<3).map { id(town, $0, index) }, tags: [("highway", "residential"), ("name", "Town \(town) Avenue \(index)")])
                wayID += 2
            }
        }
        guard joined else { return try document.write(to: directory.appendingPathComponent("islands.osm")) }
        // The road between them: from town 0's north-east corner to town 1's south-east corner.
        let (startLatitude, longitude) = point(0, 2, 2)
        let (endLatitude, _) = point(1, 0, 2)
        let steps = Int(((endLatitude - startLatitude) * 111_195 / 1_000).rounded(.up))
        var refs = [id(0, 2, 2)]
        for step in 1..<steps {
            let nodeID = 10_000 + step
            document.node(nodeID, latitude: startLatitude + (endLatitude - startLatitude) * Double(step) / Double(steps), longitude: longitude)
            refs.append(nodeID)
        }
        refs.append(id(1, 0, 2))
        document.way(9_000, refs, tags: [("highway", "secondary"), ("name", "Intercity Road")])
        return try document.write(to: directory.appendingPathComponent("towns.osm"))
    }

    private func middle(of town: Int) -> String {
        SmallRegion.text((Self.south.latitude + Double(town) * Self.townsApart / 111_195 + 200 / 111_195,
                          Self.south.longitude + 200 / (111_195 * cos(Self.south.latitude * .pi / 180))))
    }

    func testAWalkBetweenTownsFortyKilometresApartIsTooFarWithItsDistanceAndNotAskedOfRoutino() throws {
        let harness = try startDaemon()
        let imported = try harness.umctl(["region", "import", "towns", "--osm", try writeTwoTowns(in: harness.directory).path])
        XCTAssertEqual(imported.status, 0, imported.stderr)

        let compare = try harness.json(["compare", middle(of: 0), middle(of: 1)])
        let options = compare["options"]?.arrayValue ?? []
        XCTAssertEqual(options.compactMap { $0["mode"]?.stringValue }, ["walk", "transit", "car", "bike"])
        let walk = try XCTUnwrap(options.first?["error"])
        XCTAssertEqual(walk["data"]?["code"], .string("too_far"), "\(walk)")
        let straightLine = try XCTUnwrap(walk["data"]?["straight_line_m"]?.numberValue, "\(walk)")
        XCTAssertEqual(straightLine, Self.townsApart, accuracy: 100)
        XCTAssertEqual(walk["data"]?["limit_m"], .number(30_000))
        XCTAssertTrue(walk["message"]?.stringValue?.contains("40 km apart in a straight line") == true, "\(walk)")
        // The car and the bike (40 km is within the bike's 100) are computed along the road.
        for option in [options[2], options[3]] {
            XCTAssertEqual(option["error"], .null, "\(option)")
            XCTAssertGreaterThan(option["distance_m"]?.numberValue ?? 0, 39_000, "\(option)")
        }
        XCTAssertEqual(try harness.counters().routingQueries.walk, 0, "the walk was not asked of any engine")

        let text = try harness.umctl(["compare", middle(of: 0), middle(of: 1)]).stdout
        // The words only: the wire's code (too_far) is for --json and the exit status.
        XCTAssertTrue(text.contains("the ends are 40 km apart in a straight line, over the 30 km up to which a walk is worth computing"), text)
        XCTAssertFalse(text.contains("too_far"), text)
    }

    func testTheLimitIsASettingAndABikeBeyondItsLimitIsTooFarToo() async throws {
        let harness = try startDaemon(extraArguments: ["--compare-bike-limit-km", "20"])
        let imported = try harness.umctl(["region", "import", "towns", "--osm", try writeTwoTowns(in: harness.directory).path])
        XCTAssertEqual(imported.status, 0, imported.stderr)

        let bike = try await harness.client().call(Endpoints.compare, Params.Compare(from: middle(of: 0), to: middle(of: 1), modes: [.bike]))
        let error = try XCTUnwrap(bike.options.first?.error, "\(bike.options)")
        XCTAssertEqual(error.code, "too_far", "\(error)")
        XCTAssertEqual(error.data?["limit_m"], .number(20_000), "\(error)")
        XCTAssertEqual(error.data?["straight_line_m"]?.numberValue ?? 0, Self.townsApart, accuracy: 100)
        XCTAssertEqual(try harness.counters().routingQueries.bike, 0)
    }

    /// Two street islands: the car's `no_route` is known from the components computed at import,
    /// without asking Routino (before, it was a route and 32 retries from nearby roads).
    func testACarBetweenTwoStreetIslandsIsNoRouteAtOnceWithoutAskingRoutino() async throws {
        let harness = try startDaemon()
        let imported = try harness.umctl(["region", "import", "islands", "--osm",
                                          try writeTwoTowns(in: harness.directory, joined: false).path])
        XCTAssertEqual(imported.status, 0, imported.stderr)

        let car = try await harness.client().call(Endpoints.compare, Params.Compare(from: middle(of: 0), to: middle(of: 1), modes: [.car]))
        let error = try XCTUnwrap(car.options.first?.error, "\(car.options)")
        XCTAssertEqual(error.code, "no_route", "\(error)")
        XCTAssertTrue(error.message.contains("no street joins the network near the origin to the one near the destination"), error.message)
        let counters = try harness.counters()
        XCTAssertEqual(counters.noRouteKnownAtImport, 1, "decided from the street components")
        XCTAssertEqual(counters.noRouteRetries, 0, "no route asked again from nearby roads")

        // Within one island Routino is still asked and answers.
        let local = try await harness.client().call(Endpoints.compare, Params.Compare(
            from: middle(of: 0), to: SmallRegion.text((Self.south.latitude, Self.south.longitude)), modes: [.car]))
        XCTAssertNil(local.options.first?.error, "\(local.options)")
        XCTAssertEqual(try harness.counters().noRouteKnownAtImport, 1)
    }
}
