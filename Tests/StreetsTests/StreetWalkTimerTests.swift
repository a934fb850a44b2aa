import Foundation
import Planner
@testable import Streets
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
}
