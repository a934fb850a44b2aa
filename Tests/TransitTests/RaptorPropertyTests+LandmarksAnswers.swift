import Foundation
import Planner
import TestSupport
@testable import Transit
import XCTest

/// Past the table limit the landmarks (`StopLandmarks`) raise the cells' bound only where it
/// stays a lower bound, so they change no answer: on written countries (three to five cities
/// 30 km apart, each with its own buses, joined by a train calling at a station in each) with
/// the table limit lowered and the landmarks' regions cut to about a city, seeded
/// queries within a city and from one city to another find exactly the journeys the same
/// engine finds with the cells' bound alone, and without any bound, each way and with 0 % or
/// the default share of the radius searched from the target.
extension RaptorPropertyTests {
    func testTheLandmarksBoundChangesNoJourneyInAWrittenCountry() throws {
        let fixture = try FeedFixture()
        var compared = 0, found = 0, foundBetweenCities = 0
        for seed in UInt64(1)...30 {
            var g = SeededRandom(seed: seed &* 0x9FB2_1C65_1E98_DF25)
            let (feed, cityStops) = makeCountry(using: &g)
            let (timetable, _) = try fixture.timetable(feed.files)
            let cities = try cityStops.map { ids in try ids.map { try XCTUnwrap(timetable.stopIndexByID[$0], "stop \($0)") } }
            let largestCity = cities.map(\.count).max() ?? 0
            // Every written country has more than 4 stops: a limit of 4 keeps no table, and reads landmarks.
            let landmarked = Raptor(timetable: timetable, paceMultiplier: 1, remainingTimeTableStopLimit: 4,
                                    remainingTimeCellStops: 3, remainingTimeRegionStops: largestCity + Int(seed % 3) * 4)
            let landmarks = try XCTUnwrap(landmarked.remainingTime.landmarks, "seed \(seed): landmarks past the limit")
            XCTAssertGreaterThan(landmarks.regions.count, 1, "seed \(seed): regions of about a city")
            var cellsOnly = landmarked
            cellsOnly.readsLandmarks = false
            var unbounded = landmarked
            unbounded.boundsRemainingTime = false
            let days = Raptor.serviceDays(around: Self.day0, timetable: timetable)
            for query in 0..<16 {
                let from = cities.randomElement(using: &g)!
                let to = query % 2 == 0 ? from : cities.randomElement(using: &g)!
                func ends(_ city: [Int32]) -> [Raptor.Endpoint] {
                    (0..<Int.random(in: 1...2, using: &g)).map { _ in
                        Raptor.Endpoint(stop: city.randomElement(using: &g)!, seconds: Int.random(in: 0...300, using: &g))
                    }
                }
                let access = ends(from), egress = ends(to)
                let time = Self.day0 * 86_400 + 60 * Int.random(in: 6 * 60...10 * 60, using: &g)
                let choose: ([Raptor.Journey]) -> Raptor.Journey? = query % 4 < 2 ? { $0.first } : { $0.last }
                let expected = bothWays(unbounded, at: time, access: access, egress: egress, days: days, choose: choose)
                found += expected.departing.earliest.isEmpty ? 0 : 1
                foundBetweenCities += expected.departing.earliest.isEmpty || from == to ? 0 : 1
                for percent in [0, Raptor.defaultRemainingTimeExactPercent] {
                    for (name, base) in [("landmarks", landmarked), ("cells alone", cellsOnly)] {
                        var engine = base
                        engine.remainingTimeExactPercent = percent
                        assertSameJourneys(bothWays(engine, at: time, access: access, egress: egress, days: days, choose: choose), expected,
                                           "seed \(seed) query \(query), \(name), \(percent) % searched from the target")
                        compared += 1
                    }
                }
            }
        }
        XCTAssertEqual(compared, 30 * 16 * 4)
        XCTAssertGreaterThan(found, 30 * 16 / 3, "the written countries mostly connect")
        XCTAssertGreaterThan(foundBetweenCities, 30 * 16 / 20, "the train joins the cities")
    }

    /// A country of 3–5 cities 30 km apart: in each, 8–14 stops in 3 km by 3 km and 3–5 bus
    /// routes of 3–6 of them (a few trips each, 06:00–10:00), and a train calling at each city's
    /// first stop, both ways, every half hour, 20 minutes from one city to the next. Returns the
    /// feed and each city's stop IDs.
    func makeCountry(using g: inout SeededRandom) -> (feed: MiniFeed, cities: [[String]]) {
        var feed = MiniFeed()
        var cities: [[String]] = []
        var tripNumber = 0
        func addTrip(route: String, calls stops: [String], from start: Int, minutesApart: () -> Int) {
            let id = "T\(tripNumber)"
            tripNumber += 1
            feed.trips.append((route, "ALL", id, ""))
            var t = start
            for (k, stop) in stops.enumerated() {
                feed.stopTimes.append((id, Self.clock(t), Self.clock(t), stop, k + 1))
                t += 60 * minutesApart()
            }
        }
        for c in 0..<Int.random(in: 3...5, using: &g) {
            let ids = (0..<Int.random(in: 8...14, using: &g)).map { "C\(c)S\($0)" }
            for id in ids {
                feed.stop(id, km: Double.random(in: 0...3, using: &g), east: 30 * Double(c) + Double.random(in: 0...3, using: &g))
            }
            for r in 0..<Int.random(in: 3...5, using: &g) {
                let route = "C\(c)R\(r)", calls = Array(ids.shuffled(using: &g).prefix(Int.random(in: 3...6, using: &g)))
                feed.routes.append((route, "\(r + 1)", 3))
                for _ in 0..<Int.random(in: 2...6, using: &g) {
                    addTrip(route: route, calls: calls, from: 60 * Int.random(in: 6 * 60...10 * 60, using: &g)) {
                        Int.random(in: 1...5, using: &g)
                    }
                }
            }
            cities.append(ids)
        }
        feed.routes.append(("IC", "IC", 2))
        let stations = cities.map { $0[0] }
        for start in stride(from: 6 * 3600, through: 10 * 3600, by: 1800) {
            addTrip(route: "IC", calls: stations, from: start) { 20 }
            addTrip(route: "IC", calls: stations.reversed(), from: start + 600) { 20 }
        }
        return (feed, cities)
    }
}
