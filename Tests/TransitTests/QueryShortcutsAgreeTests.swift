import Foundation
import Planner
@testable import Transit
import XCTest

/// The shortcuts a query takes for speed (session 58) answer exactly what the slow way does:
/// fares compared as integer millionths, stops around a point tested on a flat projection
/// before the great circle, clock times worded without a `DateFormatter`.
final class QueryShortcutsAgreeTests: XCTestCase {
    private struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state
        }
    }

    /// Over 400 seeded fare tables and ride lists, the tickets chosen with the prices as
    /// integers are the tickets chosen with them as `Decimal`s, at the same total.
    func testFaresComparedAsIntegersChooseTheSameTickets() throws {
        var rng = Seeded(state: 58)
        var priced = 0
        for _ in 0..<400 {
            var table = FareTable()
            table.feeds = [.v1]
            table.routeFeeds = [0, 0, 0]
            for f in 0..<Int.random(in: 1...5, using: &rng) {
                // Cents, a few with tenths of a cent: sums where a wrong order of comparison shows.
                let price = Decimal(Int.random(in: 50...1_500, using: &rng)) / (Bool.random(using: &rng) ? 100 : 1_000)
                table.fares.append(FareTable.Fare(id: "F\(f)", feed: 0, price: price, currency: "EUR",
                                                  transfers: Bool.random(using: &rng) ? nil : Int.random(in: 0...2, using: &rng),
                                                  transferDuration: Bool.random(using: &rng) ? nil : 60 * Int.random(in: 10...120, using: &rng),
                                                  agencyID: nil, routes: Bool.random(using: &rng) ? [] : [Int32.random(in: 0...2, using: &rng)]))
            }
            let units = try XCTUnwrap(FarePriceUnits(table.fares))
            var minute = 0
            let rides = (0..<Int.random(in: 1...6, using: &rng)).map { _ in
                minute += Int.random(in: 5...60, using: &rng)
                return FareRide(route: Int32.random(in: 0...2, using: &rng), agencyID: "", fromStop: 0, toStop: 1, zones: [-1],
                                destinationZone: -1, boarding: minute * 60, alighting: minute * 60 + 600)
            }
            let slow = FarePricing.tickets(rides, in: table, timeZoneID: "UTC")
            let fast = FarePricing.tickets(rides, in: table, units: units, timeZoneID: "UTC")
            XCTAssertEqual(fast, slow, "fares \(table.fares.map(\.price)), \(rides.count) rides")
            if slow.quote.price != nil { priced += 1 }
        }
        XCTAssertGreaterThan(priced, 100, "most tables price their rides: the comparison says something")
    }

    /// A price with a part finer than a millionth is not turned into an integer: such a table
    /// is priced as `Decimal`s.
    func testAPriceFinerThanAMillionthKeepsDecimals() {
        let fare = FareTable.Fare(id: "F", feed: 0, price: Decimal(string: "1.0000001")!, currency: "EUR",
                                  transfers: nil, transferDuration: nil, agencyID: nil)
        XCTAssertNil(FarePriceUnits([fare]))
        var exact = fare
        exact.price = Decimal(string: "2.5")!
        XCTAssertEqual(FarePriceUnits([fare, exact].dropFirst().map { $0 })?.millionths, [2_500_000])
        var timetable = Timetable(timeZoneID: "UTC")
        timetable.fares.fares = [exact]
        XCTAssertEqual(timetable.fareUnits?.millionths, [2_500_000], "the timetable derives the integers when its fares change")
    }

    /// The stops within a radius, nearest first, are those a test of every stop's great-circle
    /// distance finds, in Tampere, near the pole, south and west, and at radii up to 20 km.
    func testStopsAroundAPointAreThoseEveryDistanceSays() {
        var rng = Seeded(state: 5_801)
        for (latitude, longitude) in [(61.49, 23.76), (84.2, 10.0), (-33.9, 151.2), (0.0, 100.0), (-60.0, -70.0)] {
            let stops = (0..<600).map { _ in
                Coordinate(latitude: latitude + Double.random(in: -0.08...0.08, using: &rng),
                           longitude: longitude + Double.random(in: -0.15...0.15, using: &rng))
            }
            let grid = StopGrid(stops: stops, cellMetres: 500)
            for _ in 0..<60 {
                let point = Coordinate(latitude: latitude + Double.random(in: -0.05...0.05, using: &rng),
                                       longitude: longitude + Double.random(in: -0.1...0.1, using: &rng))
                let radii: [Double] = [0, 150, 800, 2_500, 20_000]
                let radius = radii[Int.random(in: 0...4, using: &rng)] + Double.random(in: 0...50, using: &rng)
                var expected: [(index: Int, distance: Double)] = []
                for (index, stop) in stops.enumerated() where point.distance(to: stop) <= radius {
                    expected.append((index, point.distance(to: stop)))
                }
                expected.sort { $0.distance < $1.distance || ($0.distance == $1.distance && $0.index < $1.index) }
                let found = grid.stops(within: radius, of: point)
                XCTAssertEqual(found.map { $0.index }, expected.map { $0.index }, "\(point) within \(radius) m")
                XCTAssertEqual(found.map { $0.distance }, expected.map { $0.distance })
            }
        }
    }

    /// "HH:MM" and the local day as a `DateFormatter` words them, in zones with summer time,
    /// half and quarter hours and none, over seeded instants from 1960 to 2060.
    func testClockTimesAreWhatAFormatterSays() {
        var rng = Seeded(state: 4_242)
        for name in ["Europe/Helsinki", "UTC", "America/St_Johns", "Asia/Kathmandu", "Pacific/Chatham", "America/Sao_Paulo"] {
            let zone = TimeZone(identifier: name)!
            let formatter = DateFormatter()
            formatter.timeZone = zone
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.dateFormat = "yyyy-MM-dd HH:mm"
            for _ in 0..<300 {
                let instant = Date(timeIntervalSince1970: Double.random(in: -315_619_200...2_871_763_200, using: &rng))
                let (day, time) = ServiceDate.wallClock(of: instant, in: zone)
                XCTAssertEqual(ServiceDate.iso(day) + " " + time, formatter.string(from: instant), "\(name) \(instant)")
            }
        }
    }
}
