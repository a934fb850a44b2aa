import Foundation
import Planner
@testable import Transit
@testable import usefulmap_bench
import XCTest

/// The benchmark's yardstick (a plain connection scan) and the RAPTOR engine must find the
/// same earliest arrival on every query: on seeded random feeds with changes of 0–5 minutes,
/// changes forbidden at some stops, stops a few metres apart (footpaths), no pickup or no
/// drop-off at some calls, zero-minute hops, trips past midnight, and routes on the same stops
/// as another (one pattern when their pickup and drop-off rules match too, else two).
final class ConnectionScanYardstickTests: XCTestCase {

    static func clock(_ s: Int) -> String { String(format: "%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) }

    static func coordinate(north: Double, east: Double) -> Coordinate {
        Coordinate(latitude: 60.0 + north / 111.195, longitude: 25.0 + east / 55.6)
    }

    /// A random feed's GTFS files (UTC, every day of 2022; some trips Wednesdays only).
    func randomFeed(seed: UInt64) -> (files: [String: String], stops: Int) {
        var g = SeededGenerator(seed: seed)
        var feed = MiniFeed()
        let stopCount = Int.random(in: 8...30, using: &g)
        var placed: [(Double, Double)] = []
        for s in 0..<stopCount {
            var north = Double.random(in: 0...3, using: &g), east = Double.random(in: 0...3, using: &g)
            if s > 0 && Int.random(in: 0..<3, using: &g) == 0, let other = placed.randomElement(using: &g) {
                north = other.0 + Double.random(in: -0.1...0.1, using: &g)
                east = other.1 + Double.random(in: -0.1...0.1, using: &g)
            }
            placed.append((north, east))
            let c = Self.coordinate(north: north, east: east)
            feed.stops.append(("S\(s)", "Stop \(s)", c.latitude, c.longitude))
        }
        var transfers = "from_stop_id,to_stop_id,transfer_type,min_transfer_time\n"
        for s in 0..<stopCount where Int.random(in: 0..<3, using: &g) == 0 {
            if Int.random(in: 0..<4, using: &g) == 0 {
                transfers += "S\(s),S\(s),3,\n"
            } else {
                transfers += "S\(s),S\(s),2,\([0, 0, 60, 300].randomElement(using: &g) ?? 0)\n"
            }
        }
        feed.transfers = transfers
        var tripNumber = 0
        var lines: [(sequence: [Int], rules: [(Int, Int)])] = []
        for r in 0..<Int.random(in: 3...10, using: &g) {
            feed.routes.append(("R\(r)", "\(r)", 3))
            var sequence = Array((0..<stopCount).shuffled(using: &g).prefix(Int.random(in: 2...min(8, stopCount), using: &g)))
            func randomRules() -> [(Int, Int)] {
                sequence.map { _ in (Int.random(in: 0..<6, using: &g) == 0 ? 1 : 0, Int.random(in: 0..<6, using: &g) == 0 ? 1 : 0) }
            }
            var rules = randomRules()
            // Every third route or so runs on an earlier route's stops, with its rules or with its own.
            if let earlier = lines.randomElement(using: &g), Int.random(in: 0..<3, using: &g) == 0 {
                sequence = earlier.sequence
                rules = Bool.random(using: &g) ? earlier.rules : randomRules()
            }
            lines.append((sequence, rules))
            for _ in 0..<Int.random(in: 2...12, using: &g) {
                let late = Int.random(in: 0..<5, using: &g) == 0
                var t = 60 * (late ? Int.random(in: 23 * 60...24 * 60 + 40, using: &g) : Int.random(in: 6 * 60...11 * 60, using: &g))
                let trip = "T\(tripNumber)"
                feed.trips.append(("R\(r)", Int.random(in: 0..<4, using: &g) == 0 ? "WED" : "ALL", trip, ""))
                for (k, stop) in sequence.enumerated() {
                    let departure = t + 60 * Int.random(in: 0...1, using: &g)
                    feed.stopTimes.append((trip, Self.clock(t), Self.clock(departure), "S\(stop)", k + 1))
                    feed.pickupTypes[MiniFeed.Call(trip: trip, sequence: k + 1)] = rules[k].0
                    feed.dropOffTypes[MiniFeed.Call(trip: trip, sequence: k + 1)] = rules[k].1
                    t = departure + 60 * Int.random(in: 0...6, using: &g)  // 0: a zero-minute hop
                }
                tripNumber += 1
            }
        }
        feed.calendar = "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
            + "ALL,1,1,1,1,1,1,1,20220101,20221231\nWED,0,0,1,0,0,0,0,20220101,20221231\n"
        return (feed.files, stopCount)
    }

    func testConnectionScanFindsTheEnginesEarliestArrivalOnRandomFeeds() throws {
        let temporary = try TemporaryDirectory("yardstick")
        defer { temporary.remove() }
        let directory = temporary.url
        var compared = 0, found = 0, patternsOfSeveralRoutes = 0
        for seed in UInt64(1)...30 {
            let (files, _) = randomFeed(seed: seed &* 0x9E37_79B9_7F4A_7C15)
            let zip = directory.appendingPathComponent("feed-\(seed).zip")
            try GTFSZip.write(files, to: zip)
            let region = directory.appendingPathComponent("region-\(seed)")
            _ = try GTFSImporter().importFeeds([zip], intoRegionDirectory: region)
            let router = try TransitRouter(regionDirectory: region)
            let timetable = router.timetable
            patternsOfSeveralRoutes += timetable.patterns.filter { pattern in
                Set(timetable.tripRoutes[Int(pattern.firstTrip)..<Int(pattern.firstTrip + pattern.tripCount)]).count > 1
            }.count
            var g = SeededGenerator(seed: seed &+ 91)
            let wednesday = Date(timeIntervalSince1970: 1_646_179_200)  // 2022-03-02 00:00 UTC
            let pairs = (0..<25).map { _ in
                (Self.coordinate(north: Double.random(in: 0...3, using: &g), east: Double.random(in: 0...3, using: &g)),
                 Self.coordinate(north: Double.random(in: 0...3, using: &g), east: Double.random(in: 0...3, using: &g)),
                 wednesday.addingTimeInterval(Double(60 * Int.random(in: 5 * 60...24 * 60, using: &g))))
            }.filter { !router.nearbyStops(around: $0.0, radius: 800, limit: 1).isEmpty
                        && !router.nearbyStops(around: $0.1, radius: 800, limit: 1).isEmpty }
            let comparison = YardstickComparison(router, pairs: pairs)
            XCTAssertEqual(comparison.mismatches, [], "seed \(seed)")
            compared += comparison.seconds.count
            found += comparison.found
        }
        XCTAssertGreaterThan(compared, 400)
        XCTAssertGreaterThan(found, compared / 3, "the random feeds should mostly connect")
        XCTAssertGreaterThan(patternsOfSeveralRoutes, 10, "routes on the same stops share patterns")
    }
}
