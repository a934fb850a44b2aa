import Foundation
@testable import Transit
import XCTest

/// `LiveTripTimes.apply` on one trip of four stops (S0…S3, sequences 1…4, every 10 min from
/// 08:00 = 28,800 s after the reference), without a timetable around it.
final class RealtimeOverlayLiveTimesTests: XCTestCase {
    private let scheduled: [Int32] = [28_800, 29_400, 30_000, 30_600]
    private let stopTable = (0..<4).map { Timetable.Stop(id: "S\($0)", name: "S\($0)", latitude: 61.5, longitude: 23.76,
                                                          parentStationID: nil, modeMask: 0) }
    private let reference = 1_000_000

    private func apply(_ stops: [RealtimeStopTimeUpdate], delay: Int? = nil) -> Result<LiveTripTimes, RealtimeRefusal> {
        let update = RealtimeTripUpdate(entityID: "e", trip: RealtimeTripDescriptor(tripID: "T"), stopTimeUpdates: stops, delay: delay)
        return LiveTripTimes.apply(update, scheduledArrivals: scheduled[...], scheduledDepartures: scheduled[...],
                                   sequences: [1, 2, 3, 4][...], stops: [0, 1, 2, 3][...], stopTable: stopTable,
                                   reference: reference)
    }

    func testADepartureOnlyUpdateDelaysThatStopsArrivalToo() throws {
        let live = try apply([RealtimeStopTimeUpdate(stopID: "S1", departure: RealtimeStopTimeEvent(delay: 120))]).get()
        XCTAssertEqual(live.arrivals, [28_800, 29_520, 30_120, 30_720])
        XCTAssertEqual(live.departures, [28_800, 29_520, 30_120, 30_720])
    }

    func testASkippedStopKeepsCarryingTheDelayBeforeIt() throws {
        let live = try apply([RealtimeStopTimeUpdate(stopSequence: 2, arrival: RealtimeStopTimeEvent(delay: 60)),
                              RealtimeStopTimeUpdate(stopSequence: 3, relationship: .skipped)]).get()
        XCTAssertEqual(live.skipped, [false, false, true, false])
        XCTAssertEqual(live.arrivals[3], 30_660)
    }

    func testALaterUpdateReplacesTheCarriedDelay() throws {
        let live = try apply([RealtimeStopTimeUpdate(stopID: "S1", arrival: RealtimeStopTimeEvent(delay: 300)),
                              RealtimeStopTimeUpdate(stopID: "S3", arrival: RealtimeStopTimeEvent(delay: 60))]).get()
        XCTAssertEqual(live.arrivals, [28_800, 29_700, 30_300, 30_660])
    }

    func testUpdatesOutOfTripOrderNameAStopTheTripDoesNotReach() {
        let result = apply([RealtimeStopTimeUpdate(stopID: "S2", arrival: RealtimeStopTimeEvent(delay: 60)),
                            RealtimeStopTimeUpdate(stopID: "S1", arrival: RealtimeStopTimeEvent(delay: 60))])
        XCTAssertEqual(result, .failure(.unknownStop))
    }

    func testAStopSequenceDisagreeingWithItsStopIDIsRefused() {
        XCTAssertEqual(apply([RealtimeStopTimeUpdate(stopSequence: 2, stopID: "S3", arrival: RealtimeStopTimeEvent(delay: 60))]),
                       .failure(.unknownStop))
    }

    func testAnAbsoluteTimeMoreThanADayOffIsOutOfRange() {
        let tomorrowAndMore = Int64(reference + 29_400 + 86_401)
        XCTAssertEqual(apply([RealtimeStopTimeUpdate(stopID: "S1", arrival: RealtimeStopTimeEvent(time: tomorrowAndMore))]),
                       .failure(.timesOutOfRange))
    }
}
