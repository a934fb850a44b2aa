import Foundation
import Planner
@testable import Transit
import TestSupport
import XCTest

/// `TransitRouter.journeys`: the next departures and the Pareto set, on the real Nysse feed.
final class TransitAlternativesTests: XCTestCase {
    static let router: Result<TransitRouter, Error> = Result {
        let zip = tampereDirectory().appendingPathComponent("tampere.zip")
        let temporary = try TemporaryDirectory("tampere-alternatives")
        defer { temporary.remove() }
        let region = temporary.url.appendingPathComponent("region")
        _ = try GTFSImporter().importFeeds([zip], intoRegionDirectory: region)
        return try TransitRouter(regionDirectory: region)
    }

    private func router() throws -> TransitRouter {
        let zip = tampereDirectory().appendingPathComponent("tampere.zip")
        try XCTSkipUnless(FileManager.default.fileExists(atPath: zip.path), "shared Tampere data not found at \(zip.path)")
        return try Self.router.get()
    }

    static let keskustori = Coordinate(latitude: 61.4978, longitude: 23.7610)
    static let hervanta = Coordinate(latitude: 61.4502, longitude: 23.8510)

    /// Five options Keskustori → Hervanta for `timing`, with the best journey `leg` finds for it:
    /// in departure order, several departures, the best among them, none twice.
    private func options(_ timing: LegTiming) throws -> (options: [RouteLeg], best: RouteLeg) {
        let router = try router()
        let best = try router.leg(from: Self.keskustori, to: Self.hervanta, timing: timing, pace: .normal).best
        let options = try router.journeys(from: Self.keskustori, to: Self.hervanta, timing: timing, pace: .normal, count: 5)
        XCTAssertEqual(options.count, 5)
        let departures = options.compactMap(\.departure)
        XCTAssertEqual(departures, departures.sorted(), "in departure order")
        XCTAssertGreaterThanOrEqual(Set(departures).count, 3, "several departures, not one journey five times")
        XCTAssertTrue(options.contains(best), "the best journey is one of them")
        XCTAssertEqual(Set(options.map { $0.tripIDs + [$0.departure?.description ?? ""] }).count, 5, "no option twice")
        return (options, best)
    }

    func testAlternativesStartWithTheBestJourneyAndGoOnWithLaterDeparturesInOrder() throws {
        let morning = localDate(2022, 1, 12, 8, 0)
        let options = try options(.departAt(morning)).options
        XCTAssertTrue(options.allSatisfy { ($0.departure ?? .distantPast) >= morning })
    }

    func testArriveByAlternativesArriveInTimeAndEndWithTheBestJourney() throws {
        let deadline = localDate(2022, 1, 12, 9, 20)
        let (options, best) = try options(.arriveBy(deadline))
        XCTAssertTrue(options.allSatisfy { ($0.arrival ?? .distantFuture) <= deadline }, "all arrive by the deadline")
        XCTAssertTrue(options.allSatisfy { ($0.departure ?? .distantFuture) <= (best.departure ?? .distantPast).addingTimeInterval(60) },
                      "none leaves over a minute after the best: the latest departures are kept")
    }

    /// Asked from the traveller's place beyond an inferred stop (session 60): Keskustori, its walk
    /// of 310 s to the inferred Koskipuisto D known, from 08:33:34 at the stop. The best journey
    /// boards Keskustori F, nearer the place, and shows its departure at the stop less the walk
    /// saved; the next search asked from that shown time began before the first and found a bus
    /// the traveller cannot catch, which then dropped the best one as dominated.
    func testAlternativesAskedFromTheTravellersPlaceKeepTheBestJourney() throws {
        let router = try router()
        let stop = Coordinate(latitude: 61.49741, longitude: 23.76584), place = Coordinate(latitude: 61.4983297, longitude: 23.7608257)
        let ends = TravellerEnds(origin: place, originWalk: 310)
        let timing = LegTiming.departAt(localDate(2022, 1, 12, 8, 33).addingTimeInterval(34))
        let best = try router.leg(from: stop, to: Self.hervanta, timing: timing, pace: .normal, travellerEnds: ends).best
        let options = try router.journeys(from: stop, to: Self.hervanta, timing: timing, pace: .normal, count: 5, travellerEnds: ends)
        XCTAssertTrue(options.contains { $0.tripIDs == best.tripIDs && $0.arrival == best.arrival },
                      "the best journey \(best.tripIDs) arriving \(String(describing: best.arrival)) is listed: \(options.map(\.tripIDs))")
    }

    func testNoServiceOnTheDayIsStillAnError() throws {
        let router = try router()
        XCTAssertThrowsError(try router.journeys(from: Self.keskustori, to: Self.hervanta,
                                                 timing: .departAt(localDate(2023, 1, 12, 8, 0)), pace: .normal, count: 3)) {
            XCTAssertEqual(($0 as? RoutingError)?.code, "outside_service_period")
        }
    }
}
