import Foundation
import Planner
@testable import Transit
import XCTest

final class TampereTransitTests: XCTestCase {
    func testScratch() throws {
        let fixture = try FeedFixture()
        let zip = tampereDirectory().appendingPathComponent("tampere.zip")
        let report = try GTFSImporter().importFeeds([zip], intoRegionDirectory: fixture.regionDirectory)
        print(report.summary)
        print(report.rowsRead, report.seconds)
        let router = try TransitRouter(regionDirectory: fixture.regionDirectory)
        print("memory", router.memoryBytes)
        let hervanta = Coordinate(latitude: 61.4495, longitude: 23.8510)
        let keskustori = Coordinate(latitude: 61.4976, longitude: 23.7610)
        let r = try router.leg(from: hervanta, to: keskustori, timing: .departAt(localDate(2022, 1, 12, 8, 0)), pace: .normal)
        for j in r.alternatives + [r.bestJourney] {
            print(j.leg.departure!, j.leg.arrival!, j.leg.rides.map { "\($0.lineName) \($0.vehicle) \($0.headsign ?? "") \($0.tripID ?? "") \($0.boarding.name)@\($0.boarding.time) -> \($0.alighting.name)@\($0.alighting.time)" })
        }
        print(r.walkingIsNoSlower, r.engineSeconds)
    }
}
