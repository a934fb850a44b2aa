import Foundation
import Planner
@testable import Streets
import TestSupport
import XCTest

/// Batch walking times on a region directory (as the transit import uses on its staging copy).
final class StreetWalkTimerTests: XCTestCase {
    func testBatchTimesEqualTheStreetRoutersWalksAndFollowTheStreets() async throws {
        let fixture = try TampereFixture.shared()
        // The version directory itself, as an import's staging directory would be.
        let directory = fixture.regionDirectory.resolvingSymlinksInPath()
        let timer = try StreetWalkTimer(regionDirectory: directory, workers: 2)
        defer { timer.shutdown() }
        let router = try fixture.router()
        defer { router.shutdown() }
        let pairs: [(from: Coordinate, to: Coordinate)] = [
            (TampereFixture.keskustori, TampereFixture.railwayStation),
            (Coordinate(latitude: 61.4990, longitude: 23.7600), Coordinate(latitude: 61.4960, longitude: 23.7800)),
            (TampereFixture.railwayStation, TampereFixture.keskustori),
        ]
        let seconds = try timer.walkingSeconds(pairs: pairs, pace: .normal)
        XCTAssertEqual(seconds.count, pairs.count)
        for (index, pair) in pairs.enumerated() {
            let leg = try await router.leg(from: pair.from, to: pair.to, mode: .walk, pace: .normal)
            let batch = try XCTUnwrap(seconds[index], "pair \(index)")
            // A reversed pair is routed once and reuses the forward answer, so allow the small
            // difference of snapping the ends in the other order.
            XCTAssertEqual(batch, leg.expectedTravelTime, accuracy: leg.expectedTravelTime * 0.05, "pair \(index)")
            XCTAssertGreaterThanOrEqual(batch, pair.from.distance(to: pair.to) / (5 / 3.6), "pair \(index)")
        }
        let slow = try timer.walkingSeconds(pairs: [pairs[0]], pace: .slow)
        XCTAssertGreaterThan(try XCTUnwrap(slow.first ?? nil), try XCTUnwrap(seconds[0]), "a slow pace takes longer")
    }

    /// The worker keeps the waypoints it found: walks sharing their ends in one batch must
    /// answer exactly as each walk routed alone by a fresh worker.
    func testWalksSharingTheirEndsAnswerAsEachRoutedByAFreshWorker() throws {
        let fixture = try TampereFixture.shared()
        let market = TampereFixture.keskustori, station = TampereFixture.railwayStation
        let north = Coordinate(latitude: 61.4990, longitude: 23.7600), east = Coordinate(latitude: 61.4960, longitude: 23.7800)
        let pairs: [(from: Coordinate, to: Coordinate)] = [(market, station), (market, north), (north, station),
                                                           (station, east), (east, market), (north, east)]
        let shared = try StreetWalkTimer(regionDirectory: fixture.regionDirectory, workers: 1)
        defer { shared.shutdown() }
        let batch = try shared.walkingSeconds(pairs: pairs, pace: .normal)
        for (index, pair) in pairs.enumerated() {
            let fresh = try StreetWalkTimer(regionDirectory: fixture.regionDirectory, workers: 1)
            defer { fresh.shutdown() }
            let alone = try fresh.walkingSeconds(pairs: [pair], pace: .normal)
            XCTAssertNotNil(batch[index], "pair \(index)")
            XCTAssertEqual(batch[index], alone.first ?? nil, "pair \(index)")
        }
    }

    func testPairWithNoRoadOrNoRouteIsNilWhileTheOthersAreAnswered() throws {
        let fixture = try TampereFixture.shared()
        let timer = try StreetWalkTimer(regionDirectory: fixture.regionDirectory, workers: 2)
        defer { timer.shutdown() }
        let lake = Coordinate(latitude: 61.5550, longitude: 23.7400) // Näsijärvi, over 1 km from roads
        let cutOff = Coordinate(latitude: 61.54188, longitude: 23.79492) // roads cut off by the clipping
        let seconds = try timer.walkingSeconds(pairs: [
            (lake, TampereFixture.keskustori),
            (TampereFixture.keskustori, TampereFixture.railwayStation),
            (cutOff, TampereFixture.keskustori),
        ], pace: .normal)
        XCTAssertEqual(seconds.count, 3)
        XCTAssertNil(seconds[0])
        XCTAssertNotNil(seconds[1])
        XCTAssertNil(seconds[2])
    }

    func testDirectoryWithoutRoutingDatabaseThrowsInsteadOfAnsweringNil() throws {
        let empty = try TampereFixture.temporaryDirectory("no-routing-db", removedAfter: self)
        let timer = try StreetWalkTimer(regionDirectory: empty, workers: 1)
        defer { timer.shutdown() }
        XCTAssertThrowsError(try timer.walkingSeconds(pairs: [(TampereFixture.keskustori, TampereFixture.railwayStation)],
                                                      pace: .normal)) { error in
            XCTAssertEqual((error as? RoutingError)?.code, "engine_failure", "\(error)")
        }
        XCTAssertEqual(try timer.walkingSeconds(pairs: [], pace: .normal).count, 0)
    }

    /// The pool on the shared import's Routino database, as `StreetWalkTimer` builds it.
    private func pool(_ fixture: TampereFixture) throws -> RoutinoWorkerPool {
        RoutinoWorkerPool(.init(executable: try StreetRouter.locateWorker(), database: fixture.regionDirectory.path,
                                workers: 2, recycleAfterFailedRoutes: StreetRouter.defaultRecycleAfterFailedRoutes))
    }

    /// Seeded points around Keskustori and every pair of them closer than 400 m (as the
    /// footpaths between stops), each unordered pair once.
    private func footpathLikePairs(count: Int) -> [(from: Coordinate, to: Coordinate)] {
        var random = SeededRandom(seed: 26)
        func next() -> Double { Double.random(in: 0..<1, using: &random) }
        let points = (0..<count).map { _ in
            Coordinate(latitude: 61.4900 + 0.0160 * next(), longitude: 23.7450 + 0.0350 * next())
        }
        var pairs: [(from: Coordinate, to: Coordinate)] = []
        for i in points.indices {
            for j in points.indices where j > i && points[i].distance(to: points[j]) < 400 {
                pairs.append((points[i], points[j]))
            }
        }
        return pairs
    }

    func testTimeAnswersTheRoutesDistanceDurationAndEndsWithoutItsGeometry() throws {
        let pool = try pool(try TampereFixture.shared())
        defer { pool.shutdown() }
        let ends = String(format: "%.7f %.7f %.7f %.7f", TampereFixture.keskustori.latitude, TampereFixture.keskustori.longitude,
                          TampereFixture.railwayStation.latitude, TampereFixture.railwayStation.longitude)
        let answers = pool.askAll(["route walk " + ends, "time walk " + ends, "time car " + ends + " shortest", "time walk 1 2"])
        guard case .route(let distance, let duration, let points) = RoutinoReply(line: try answers[0].get()),
              case .route(let timedDistance, let timedDuration, let ends) = RoutinoReply(line: try answers[1].get()) else {
            return XCTFail("\(answers)")
        }
        XCTAssertGreaterThan(points.count, 2, "the route has a geometry")
        XCTAssertEqual(ends, [points[0], points[points.count - 1]], "only the route's first and last points")
        XCTAssertEqual(timedDistance, distance)
        XCTAssertEqual(timedDuration, duration)
        guard case .route(_, _, let carEnds) = RoutinoReply(line: try answers[2].get()) else { return XCTFail("\(answers[2])") }
        XCTAssertEqual(carEnds.count, 2, "every profile and `shortest` are accepted")
        XCTAssertEqual(RoutinoReply(line: try answers[3].get()),
                       .badRequest("expected: time walk|wheelchair|bike|car LAT LON LAT LON [shortest]"))
    }

    /// The timer asks for times without the geometry; the footpaths must not change: every
    /// answer equals the old way's (the whole route asked, then `StreetRouter.leg`), exactly.
    func testFootpathTimesWithoutGeometryEqualThoseOfTheWholeRoutes() throws {
        let fixture = try TampereFixture.shared()
        let pairs = footpathLikePairs(count: 80)
        XCTAssertGreaterThan(pairs.count, 300)
        let timer = try StreetWalkTimer(regionDirectory: fixture.regionDirectory, workers: 2)
        defer { timer.shutdown() }
        let pool = try pool(fixture)
        defer { pool.shutdown() }
        let timed = try timer.walkingSeconds(pairs: pairs, pace: .normal)
        let routes = pool.askAll(pairs.map { pair in
            String(format: "route walk %.7f %.7f %.7f %.7f", pair.from.latitude, pair.from.longitude, pair.to.latitude, pair.to.longitude)
        })
        var answered = 0
        for (index, pair) in pairs.enumerated() {
            var old: Double?
            if case .success(let line) = routes[index], case let .route(distance, duration, points) = RoutinoReply(line: line) {
                old = StreetRouter.leg(mode: .walk, pace: .normal, from: pair.from, to: pair.to, distance: distance,
                                       duration: duration, points: points).expectedTravelTime
                answered += 1
            }
            XCTAssertEqual(timed[index], old, "pair \(index): \(pair)")
        }
        XCTAssertGreaterThan(answered, pairs.count * 9 / 10, "most pairs are on the streets")
    }

    func testProgressTellsTheTimedPairsAsTheyComeInAndEndsAtAll() throws {
        let fixture = try TampereFixture.shared()
        // Each pair twice, the second time reversed: one route answers both.
        let pairs = footpathLikePairs(count: 80).flatMap { [$0, ($0.to, $0.from)] }
        XCTAssertGreaterThan(pairs.count, 512)
        let timer = try StreetWalkTimer(regionDirectory: fixture.regionDirectory, workers: 2)
        defer { timer.shutdown() }
        var told: [Int] = []
        _ = try timer.walkingSeconds(pairs: pairs, pace: .normal) { told.append($0) }
        XCTAssertGreaterThan(told.count, 1, "told before the end: \(told)")
        XCTAssertEqual(told.last, pairs.count)
        XCTAssertEqual(told, told.sorted(), "never goes back")
    }
}
