import Foundation
import Planner
@testable import Streets
import Synchronization
import XCTest

/// Walk and car legs on the real Tampere streets through the Routino worker pool.
final class StreetRouterTests: XCTestCase {
    func testWalkBetweenCentralPointsFollowsStreetsWithPlausibleDistanceAndEndpoints() async throws {
        let router = try TampereFixture.shared().router()
        defer { router.shutdown() }
        let from = TampereFixture.keskustori, to = TampereFixture.railwayStation
        let leg = try await router.leg(from: from, to: to, mode: .walk, pace: .normal)
        let straight = from.distance(to: to)
        let distance = try XCTUnwrap(leg.distance)
        XCTAssertEqual(leg.mode, .walk)
        XCTAssertGreaterThanOrEqual(distance, straight)
        XCTAssertLessThan(distance, straight * 2, "a walk across the centre should not double the straight line")
        XCTAssertLessThan(try XCTUnwrap(leg.geometry.first).distance(to: from), 50)
        XCTAssertLessThan(try XCTUnwrap(leg.geometry.last).distance(to: to), 50)
        XCTAssertGreaterThan(leg.geometry.count, 2, "the geometry follows the streets, not a straight line")
        // 5 km/h on the streets: the duration is the distance at walking speed (steps are slower).
        XCTAssertEqual(leg.expectedTravelTime, distance / (5 / 3.6), accuracy: distance / (5 / 3.6) * 0.15)
        XCTAssertNil(leg.departure)
        XCTAssertNil(leg.arrival)
    }

    func testCarLegAcrossTownHasPlausibleDistanceAndCitySpeed() async throws {
        let router = try TampereFixture.shared().router()
        defer { router.shutdown() }
        let from = TampereFixture.keskustori, to = TampereFixture.hervanta
        let leg = try await router.leg(from: from, to: to, mode: .car, pace: .normal)
        let straight = from.distance(to: to)
        let distance = try XCTUnwrap(leg.distance)
        XCTAssertGreaterThanOrEqual(distance, straight)
        XCTAssertLessThan(distance, straight * 2.5)
        let averageKmh = distance / leg.expectedTravelTime * 3.6
        XCTAssertTrue((15...80).contains(averageKmh), "average city driving speed \(averageKmh) km/h")
        XCTAssertLessThan(try XCTUnwrap(leg.geometry.first).distance(to: from), 1_000)
        XCTAssertEqual(try XCTUnwrap(leg.geometry.last).distance(to: to), 0, accuracy: 1)
    }

    func testOneWayStreetsGiveDifferentCarRoutesInTheTwoDirections() async throws {
        let router = try TampereFixture.shared().router()
        defer { router.shutdown() }
        let a = Coordinate(latitude: 61.4990, longitude: 23.7600), b = Coordinate(latitude: 61.4960, longitude: 23.7800)
        let there = try await router.leg(from: a, to: b, mode: .car)
        let back = try await router.leg(from: b, to: a, mode: .car)
        let thereDistance = try XCTUnwrap(there.distance), backDistance = try XCTUnwrap(back.distance)
        XCTAssertGreaterThan(abs(thereDistance - backDistance), 50,
                             "one-way streets should make the two directions differ (\(thereDistance) vs \(backDistance) m)")
        let walkThere = try await router.leg(from: a, to: b, mode: .walk)
        let walkBack = try await router.leg(from: b, to: a, mode: .walk)
        XCTAssertEqual(try XCTUnwrap(walkThere.distance), try XCTUnwrap(walkBack.distance), accuracy: 25,
                       "walking ignores one-way restrictions")
    }

    func testWalkingPaceScalesWalksAndOnlyTheWalkToTheRoadOfCarLegs() async throws {
        let router = try TampereFixture.shared().router()
        defer { router.shutdown() }
        let from = TampereFixture.keskustori, to = TampereFixture.railwayStation
        let normal = try await router.leg(from: from, to: to, mode: .walk, pace: .normal)
        let slow = try await router.leg(from: from, to: to, mode: .walk, pace: .slow)
        let fast = try await router.leg(from: from, to: to, mode: .walk, pace: .fast)
        XCTAssertEqual(slow.expectedTravelTime, normal.expectedTravelTime * WalkingPace.slow.durationMultiplier, accuracy: 0.5)
        XCTAssertEqual(fast.expectedTravelTime, normal.expectedTravelTime * WalkingPace.fast.durationMultiplier, accuracy: 0.5)
        XCTAssertEqual(slow.distance, normal.distance)
        let carNormal = try await router.leg(from: from, to: to, mode: .car, pace: .normal)
        let carSlow = try await router.leg(from: from, to: to, mode: .car, pace: .slow)
        XCTAssertEqual(carNormal.distance, carSlow.distance)
        XCTAssertEqual(carNormal.geometry, carSlow.geometry)
        // Keskustori is a pedestrian square: the car starts at the nearest road, walked to at the user's pace.
        let geometry = carNormal.geometry
        let connector = geometry[0].distance(to: geometry[1]) + geometry[geometry.count - 2].distance(to: geometry[geometry.count - 1])
        XCTAssertGreaterThan(connector, 10)
        let walkToRoad = connector / (5 / 3.6)
        XCTAssertEqual(carSlow.expectedTravelTime - carNormal.expectedTravelTime,
                       walkToRoad * (WalkingPace.slow.durationMultiplier - 1), accuracy: 0.5)
    }

    func testPointInTheLakeFarFromRoadsGivesNoRoadNearby() async throws {
        let router = try TampereFixture.shared().router()
        defer { router.shutdown() }
        let lake = Coordinate(latitude: 61.5550, longitude: 23.7400) // Näsijärvi, inside the extract
        do {
            _ = try await router.leg(from: lake, to: TampereFixture.keskustori, mode: .walk)
            XCTFail("a point in the lake has no road within 1 km")
        } catch let error as RoutingError {
            guard case .noRoadNearby(let message) = error else { return XCTFail("expected noRoadNearby, got \(error)") }
            XCTAssertTrue(message.contains("origin"), message)
        }
        do {
            _ = try await router.leg(from: TampereFixture.keskustori, to: lake, mode: .car)
            XCTFail("a point in the lake has no road within 1 km")
        } catch let error as RoutingError {
            guard case .noRoadNearby(let message) = error else { return XCTFail("expected noRoadNearby, got \(error)") }
            XCTAssertTrue(message.contains("destination"), message)
        }
    }

    func testRoadsThatDoNotConnectGiveNoRouteNotNoRoadNearby() async throws {
        let router = try TampereFixture.shared().router()
        defer { router.shutdown() }
        // North-east of Näsijärvi the extract holds roads that its clipping cut off from the city.
        let cutOff = Coordinate(latitude: 61.54188, longitude: 23.79492)
        for mode in [TravelMode.walk, .car] {
            do {
                _ = try await router.leg(from: cutOff, to: TampereFixture.keskustori, mode: mode)
                XCTFail("the cut-off roads do not reach the centre")
            } catch let error as RoutingError {
                XCTAssertEqual(error.code, "no_route", "\(mode): \(error)")
            }
        }
    }

    func testPointInAnotherCountryIsUnsupportedInRegion() async throws {
        let router = try TampereFixture.shared().router()
        defer { router.shutdown() }
        let stockholm = Coordinate(latitude: 59.3293, longitude: 18.0686)
        do {
            _ = try await router.leg(from: TampereFixture.keskustori, to: stockholm, mode: .car)
            XCTFail("Stockholm is outside the Tampere region")
        } catch let error as RoutingError {
            XCTAssertEqual(error.code, "unsupported_in_region")
            XCTAssertTrue(error.message.contains("destination"), error.message)
        }
    }

    func testTransitIsNotAStreetMode() async throws {
        let router = try TampereFixture.shared().router()
        defer { router.shutdown() }
        do {
            _ = try await router.leg(from: TampereFixture.keskustori, to: TampereFixture.hervanta, mode: .transit)
            XCTFail("transit legs are not computed by the street router")
        } catch let error as RoutingError {
            XCTAssertEqual(error.code, "unsupported_in_region")
        }
    }

    func testWorkerKilledMidQueryIsReplacedAndTheQueryStillAnswers() async throws {
        let fixture = try TampereFixture.shared()
        let seen = Mutex<[pid_t]>([])
        let router = try StreetRouter(regions: [fixture.manifest], dataDirectory: fixture.dataDirectory, workers: 1,
                                      recycleAfterFailedRoutes: 100, afterRequestSent: { pid in
            let first = seen.withLock { pids -> Bool in
                pids.append(pid)
                return pids.count == 1
            }
            if first { kill(pid, SIGKILL) }
        })
        defer { router.shutdown() }
        let leg = try await router.leg(from: TampereFixture.keskustori, to: TampereFixture.railwayStation, mode: .walk)
        XCTAssertGreaterThan(try XCTUnwrap(leg.distance), 0)
        let pids = seen.withLock { $0 }
        XCTAssertEqual(pids.count, 2, "the query was sent again after the kill")
        XCTAssertNotEqual(pids[0], pids[1], "a new worker process answered")
        // The replacement keeps serving later queries.
        let again = try await router.leg(from: TampereFixture.railwayStation, to: TampereFixture.keskustori, mode: .car)
        XCTAssertGreaterThan(try XCTUnwrap(again.distance), 0)
    }

    func testWorkerThatDiesOnEveryAttemptGivesEngineFailureNotAHang() async throws {
        let fixture = try TampereFixture.shared()
        let router = try StreetRouter(regions: [fixture.manifest], dataDirectory: fixture.dataDirectory, workers: 1,
                                      recycleAfterFailedRoutes: 100, afterRequestSent: { pid in kill(pid, SIGKILL) })
        defer { router.shutdown() }
        do {
            _ = try await router.leg(from: TampereFixture.keskustori, to: TampereFixture.railwayStation, mode: .walk)
            XCTFail("a query whose worker dies twice must fail")
        } catch let error as RoutingError {
            XCTAssertEqual(error.code, "engine_failure")
        }
    }

    func testEightConcurrentQueriesAllAnswerLikeTheSameQueriesOneByOne() async throws {
        let router = try TampereFixture.shared().router(workers: 3)
        defer { router.shutdown() }
        let origins = (0..<8).map { i in
            Coordinate(latitude: 61.490 + Double(i) * 0.003, longitude: 23.740 + Double(i % 4) * 0.012)
        }
        let destination = TampereFixture.hervanta
        var sequential: [RouteLeg] = []
        for (i, origin) in origins.enumerated() {
            sequential.append(try await router.leg(from: origin, to: destination, mode: i.isMultiple(of: 2) ? .walk : .car))
        }
        let concurrent = try await withThrowingTaskGroup(of: (Int, RouteLeg).self) { group in
            for (i, origin) in origins.enumerated() {
                group.addTask { (i, try await router.leg(from: origin, to: destination, mode: i.isMultiple(of: 2) ? .walk : .car)) }
            }
            var legs: [Int: RouteLeg] = [:]
            for try await (i, leg) in group { legs[i] = leg }
            return legs
        }
        XCTAssertEqual(concurrent.count, 8)
        for i in 0..<8 { XCTAssertEqual(concurrent[i], sequential[i], "query \(i) answered differently in parallel") }
    }

    func testShutdownRouterFailsQueriesWithEngineFailure() async throws {
        let router = try TampereFixture.shared().router()
        router.shutdown()
        do {
            _ = try await router.leg(from: TampereFixture.keskustori, to: TampereFixture.railwayStation, mode: .walk)
            XCTFail("a shut-down router answers nothing")
        } catch let error as RoutingError {
            XCTAssertEqual(error.code, "engine_failure")
        }
    }

    func testWorkerIsFoundBesideTheTestExecutable() throws {
        let path = try StreetRouter.locateWorker()
        XCTAssertTrue(path.hasSuffix("/usefulmap-routino-worker"), path)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: path))
    }
}
