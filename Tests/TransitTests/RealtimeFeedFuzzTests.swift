import Foundation
import Planner
import TestSupport
@testable import Transit
import XCTest

/// Hostile GTFS-Realtime feeds, made by mutating valid ones at the wire level
/// (`RealtimeFeedMutations`: boundary varints, huge counts, fields dropped, bytes flipped, bodies
/// cut). Each is decoded and laid over a small timetable, and a journey is planned through it;
/// none may trap, and every time that comes out is one the wire can write. The daemon's part,
/// mutated feeds polled over HTTP: `RealtimeFuzzDaemonTests`.
final class RealtimeFeedFuzzTests: XCTestCase {
    /// Over 20,000 mutated feeds (the floor), laid over the timetable eight at a time.
    static let feedCount = 20_480
    static let feedsPerApply = 8
    /// Repeated fields make bodies of hundreds of kB; cut there, the decoder sees huge counts
    /// and a truncation at once, and the run stays quick.
    static let maximumBodyBytes = 16 << 10

    private func utc(_ hour: Int, _ minute: Int) -> Date { localDate(2022, 3, 2, hour, minute, zone: "UTC") }

    /// A (0 km) → B (5 km) → C (10 km) on route R1: T1 at 08:00, T2 at 08:30, every day of 2022.
    private func lineRouter() throws -> TransitRouter {
        var feed = MiniFeed()
        feed.stop("A", km: 0)
        feed.stop("B", km: 5)
        feed.stop("C", km: 10)
        feed.routes = [("R1", "1", 3)]
        feed.trip("T1", route: "R1", [("A", "08:00:00"), ("B", "08:10:00"), ("C", "08:20:00")])
        feed.trip("T2", route: "R1", [("A", "08:30:00"), ("B", "08:40:00"), ("C", "08:50:00")])
        return try FeedFixture().router(feed.files).0
    }

    /// Valid feeds touching the line in every way the overlay reads: delays and absolute times,
    /// a cancellation, a frequency-style start time, skipped stops and alerts with periods.
    private func seeds() -> [Data] {
        let morning = Int64(utc(8, 0).timeIntervalSince1970)
        let byStop = RealtimeTripUpdate(
            entityID: "u1", trip: RealtimeTripDescriptor(tripID: "T1", startDate: "20220302"),
            stopTimeUpdates: [RealtimeStopTimeUpdate(stopSequence: 2, stopID: "B", arrival: RealtimeStopTimeEvent(delay: 120, uncertainty: 30),
                                                     departure: RealtimeStopTimeEvent(time: morning + 780)),
                              RealtimeStopTimeUpdate(stopSequence: 3, relationship: .skipped)],
            delay: 60, timestamp: utc(7, 58))
        let byRoute = RealtimeTripUpdate(
            entityID: "u2", trip: RealtimeTripDescriptor(routeID: "R1", directionID: 0, startTime: "08:30:00", startDate: "20220302"),
            stopTimeUpdates: [RealtimeStopTimeUpdate(stopID: "A", departure: RealtimeStopTimeEvent(delay: 300))])
        let cancelled = RealtimeTripUpdate(entityID: "u3", trip: RealtimeTripDescriptor(tripID: "T2", relationship: .canceled))
        let alert = RealtimeAlert(entityID: "a1", activePeriods: [.init(start: morning - 3_600, end: morning + 7_200)],
                                  informedEntities: [RealtimeEntitySelector(routeID: "R1"), RealtimeEntitySelector(stopID: "B"),
                                                     RealtimeEntitySelector(routeType: 3, directionID: 0,
                                                                            trip: RealtimeTripDescriptor(tripID: "T1", startDate: "20220302"))],
                                  cause: "construction", effect: "detour", url: [RealtimeTranslation(text: "https://example.org")],
                                  header: [RealtimeTranslation(text: "Works", language: "en")],
                                  description: [RealtimeTranslation(text: "Stop B moved")])
        return [RealtimeFeed(timestamp: utc(7, 59), tripUpdates: [byStop, byRoute], alerts: [alert]),
                RealtimeFeed(timestamp: utc(7, 59), tripUpdates: [cancelled, byStop], alerts: [alert, alert], vehiclePositionCount: 0),
                RealtimeFeed(timestamp: nil, tripUpdates: [byRoute])].map { $0.encoded() }
    }

    // MARK: - Running

    func testTwentyThousandMutatedFeedsDecodeOrAreRefusedAndNoneTrapsOrLeaksAnUnwritableTime() throws {
        let router = try lineRouter()
        let seeds = try seeds().map { try XCTUnwrap(ProtobufMessage(parsing: $0)) }
        let writable = Double(RealtimeInstant.range.lowerBound)...Double(RealtimeInstant.range.upperBound)
        var random = SeededRandom(seed: 44)
        var decoded = 0, refusedForTime = 0
        var pending: [RealtimeFeed] = []
        var applies = 0
        for round in 0..<Self.feedCount {
            let body = RealtimeFeedMutations.mutated(seeds[round % seeds.count], maximumBodyBytes: Self.maximumBodyBytes, &random)
            let feed: RealtimeFeed
            do {
                feed = try RealtimeFeed(decoding: body)
            } catch {
                if case .realtimeFeedInvalid(.instantOutOfRange) = error { refusedForTime += 1 }
                continue
            }
            decoded += 1
            for date in [feed.timestamp].compactMap({ $0 }) + feed.tripUpdates.compactMap(\.timestamp) {
                XCTAssertTrue(writable.contains(date.timeIntervalSince1970), "feed \(round): \(date)")
            }
            pending.append(feed)
            guard pending.count == Self.feedsPerApply else { continue }
            router.applyRealtime(pending, now: utc(7, 59))
            pending = []
            applies += 1
            // Plan through what was laid over (every 4th overlay): the rides and alerts a plan would show.
            guard applies % 4 == 0, let leg = try? router.leg(from: MiniFeed.coordinate(km: 0), to: MiniFeed.coordinate(km: 10),
                                                            timing: .departAt(utc(7, 55)), pace: .normal, accessRadius: 100).best
            else { continue }
            for ride in leg.rides {
                var times: [Date?] = [ride.boarding.time, ride.alighting.time, ride.boarding.scheduledTime, ride.alighting.scheduledTime]
                for alert in ride.alerts { times += [alert.activeFrom, alert.activeUntil] }
                for time in times.compactMap({ $0 }) {
                    XCTAssertTrue(writable.contains(time.timeIntervalSince1970), "feed \(round): \(time)")
                }
            }
        }
        router.applyRealtime([], now: utc(7, 59))
        XCTAssertGreaterThan(decoded, Self.feedCount / 4, "enough mutants decode to reach the overlay")
        XCTAssertGreaterThan(refusedForTime, 100, "the boundary times reach the range check")
    }
}
