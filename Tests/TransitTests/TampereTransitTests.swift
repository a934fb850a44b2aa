import Foundation
import Planner
@testable import Transit
import TestSupport
import XCTest

/// The real Nysse feed on Wednesday 2022-01-12. Expected trips were read by hand from the
/// feed's stop_times.txt (quoted in each test).
final class TampereTransitTests: XCTestCase {
    struct Imported: Sendable {
        var router: TransitRouter
        var report: GTFSImportReport
    }

    /// Imported once for the whole class (a few seconds in a debug build); the region
    /// directory is removed right away because the router keeps the timetable in memory.
    static let imported: Result<Imported, Error> = Result {
        let zip = tampereDirectory().appendingPathComponent("tampere.zip")
        let temporary = try TemporaryDirectory("tampere-transit")
        defer { temporary.remove() }
        let region = temporary.url.appendingPathComponent("region")
        let report = try GTFSImporter().importFeeds([zip], intoRegionDirectory: region)
        return Imported(router: try TransitRouter(regionDirectory: region), report: report)
    }

    private func tampere() throws -> Imported {
        let zip = tampereDirectory().appendingPathComponent("tampere.zip")
        try XCTSkipUnless(FileManager.default.fileExists(atPath: zip.path), "shared Tampere data not found at \(zip.path)")
        return try Self.imported.get()
    }

    private func stop(_ id: String, in router: TransitRouter) throws -> Coordinate {
        try XCTUnwrap(router.stops.first { $0.id == id }, "stop \(id)").coordinate
    }

    private func clock(_ date: Date?, _ router: TransitRouter) -> String {
        guard let date else { return "nil" }
        let f = DateFormatter()
        f.timeZone = router.timeZone
        f.dateFormat = "HH:mm:ss"
        return f.string(from: date)
    }

    func testImportReportShowsTheFeedsPeriodTimeZoneAndItsElevenTooShortTrips() throws {
        let t = try tampere()
        XCTAssertEqual(t.report.timeZone, "Europe/Helsinki")
        XCTAssertEqual(t.report.rowsRead["stop_times.txt"], 144_471)
        XCTAssertEqual(t.report.rowsRead["trips.txt"], 5_641)
        XCTAssertEqual(t.report.skipped, ["trips: fewer than two stop_times": 11])
        XCTAssertEqual(t.report.trips, 5_630)
        XCTAssertEqual(t.report.stops, 1_141)
        XCTAssertEqual(t.router.servicePeriods.map(\.summary), ["tampere.zip: 2021-09-20 – 2022-03-31"])
        XCTAssertEqual(Set(t.router.stops.flatMap(\.modes)), ["bus", "tram"])
    }

    /// stop_times.txt, trip 3096 (route 3, headsign Pyynikintori):
    /// `3096,10:32:00,…,0835,3` (Hervannan kampus A) … `3096,10:55:00,…,0805,17` (Keskustori A).
    func testTram3FromHervannanKampusToKeskustoriAt1030() throws {
        let t = try tampere()
        let result = try t.router.leg(from: try stop("0835", in: t.router), to: try stop("0805", in: t.router),
                                      timing: .departAt(localDate(2022, 1, 12, 10, 30)), pace: .normal, accessRadius: 30)
        let ride = try XCTUnwrap(result.best.rides.first)
        XCTAssertEqual(result.best.rides.count, 1)
        XCTAssertEqual(ride.lineName, "3")
        XCTAssertEqual(ride.vehicle, "tram")
        XCTAssertEqual(ride.headsign, "Pyynikintori")
        XCTAssertEqual(ride.tripID, "3096")
        XCTAssertEqual(ride.boarding.name, "Hervannan kampus A")
        XCTAssertEqual(clock(ride.boarding.time, t.router), "10:32:00")
        XCTAssertEqual(ride.alighting.name, "Keskustori A")
        XCTAssertEqual(clock(ride.alighting.time, t.router), "10:55:00")
        XCTAssertEqual(result.best.expectedTravelTime, 23 * 60)
        XCTAssertFalse(result.walkingIsNoSlower)
    }

    /// stop_times.txt, trip 7310795827 (bus 6 to Vatiala): `08:03:30 … 3522` (Hervantakeskus E)
    /// and `08:26:30 … 0519` (Koskipuisto C).
    func testBus6FromHervantakeskusToKoskipuistoAt0802() throws {
        let t = try tampere()
        let result = try t.router.leg(from: try stop("3522", in: t.router), to: try stop("0519", in: t.router),
                                      timing: .departAt(localDate(2022, 1, 12, 8, 2)), pace: .normal, accessRadius: 30)
        XCTAssertEqual(result.best.rides.map(\.tripID), ["7310795827"])
        XCTAssertEqual(result.best.rides.first?.lineName, "6")
        XCTAssertEqual(clock(result.best.departure, t.router), "08:03:30")
        XCTAssertEqual(clock(result.best.arrival, t.router), "08:26:30")
    }

    /// Tram and bus use different stop_ids: from the tram stop Hervannan kampus A to the bus
    /// stop Koskipuisto C the best way is tram 3 (trip 3096, 10:32 → Hakametsä A 10:43), a
    /// walk to the bus stop Hakametsä (4509), then bus 7 (trip 7277525587, 10:46:30 → 0519 10:55:45).
    func testTramToBusChangeWalksBetweenTheirStopsAtHakametsa() throws {
        let t = try tampere()
        let result = try t.router.leg(from: try stop("0835", in: t.router), to: try stop("0519", in: t.router),
                                      timing: .departAt(localDate(2022, 1, 12, 10, 30)), pace: .normal, accessRadius: 30)
        XCTAssertEqual(result.best.rides.map(\.tripID), ["3096", "7277525587"])
        XCTAssertEqual(result.best.rides.map(\.vehicle), ["tram", "bus"])
        XCTAssertEqual(result.best.rides.first?.alighting.stopID, "0821")
        XCTAssertEqual(result.best.rides.last?.boarding.stopID, "4509")
        XCTAssertEqual(clock(result.best.rides.last?.boarding.time, t.router), "10:46:30")
        XCTAssertEqual(clock(result.best.arrival, t.router), "10:55:45")
        let walk = try XCTUnwrap(result.bestJourney.walks.first { $0.kind == .transfer })
        XCTAssertEqual(walk.fromName, "Hakametsä A")
        XCTAssertEqual(walk.toName, "Hakametsä")
    }

    /// Arrive at Keskustori A by 10:55: tram trip 3096 leaves Hervannan kampus A at 10:32; the
    /// one before (3094) at 10:25 would also arrive in time but leaves earlier.
    func testArriveByGivesTheLatestTramAndOneMinuteLaterMissesIt() throws {
        let t = try tampere()
        let from = try stop("0835", in: t.router), to = try stop("0805", in: t.router)
        let deadline = localDate(2022, 1, 12, 10, 55)
        let result = try t.router.leg(from: from, to: to, timing: .arriveBy(deadline), pace: .normal, accessRadius: 30)
        XCTAssertEqual(result.best.rides.map(\.tripID), ["3096"])
        XCTAssertEqual(clock(result.best.departure, t.router), "10:32:00")
        let departure = try XCTUnwrap(result.best.departure)
        let later = try t.router.leg(from: from, to: to, timing: .departAt(departure.addingTimeInterval(60)), pace: .normal, accessRadius: 30)
        XCTAssertGreaterThan(try XCTUnwrap(later.best.arrival), deadline)
    }

    /// Seeded coordinate pairs across the city: each arrive-by answer arrives in time, and
    /// leaving one minute after its departure misses the deadline, unless that needs more
    /// transfers (a transfer must pay for itself: `JourneyChoice`).
    func testArriveByAcrossTampereCannotLeaveAMinuteLater() throws {
        let t = try tampere()
        var g = SeededRandom(seed: 2022_01_12)
        var checked = 0
        for _ in 0..<40 {
            let from = Coordinate(latitude: Double.random(in: 61.45...61.52, using: &g), longitude: Double.random(in: 23.65...23.88, using: &g))
            let to = Coordinate(latitude: Double.random(in: 61.45...61.52, using: &g), longitude: Double.random(in: 23.65...23.88, using: &g))
            let deadline = localDate(2022, 1, 12, Int.random(in: 8...11, using: &g), Int.random(in: 0...59, using: &g))
            guard let result = try? t.router.leg(from: from, to: to, timing: .arriveBy(deadline), pace: .normal),
                  let departure = result.best.departure, let arrival = result.best.arrival else { continue }
            XCTAssertLessThanOrEqual(arrival, deadline)
            if let later = try? t.router.leg(from: from, to: to, timing: .departAt(departure.addingTimeInterval(60)), pace: .normal),
               let laterArrival = later.best.arrival, laterArrival <= deadline {
                XCTAssertGreaterThan(later.best.transfers, result.best.transfers, "\(from) → \(to) by \(deadline)")
            }
            checked += 1
        }
        XCTAssertGreaterThan(checked, 20)
    }

    func testQueriesOutsideTheFeedOrTheCityFailWithDistinctErrors() throws {
        let t = try tampere()
        let a = try stop("0835", in: t.router), b = try stop("0805", in: t.router)
        XCTAssertThrowsError(try t.router.leg(from: a, to: b, timing: .departAt(localDate(2022, 6, 1, 8, 0)), pace: .normal)) { error in
            XCTAssertEqual((error as? RoutingError)?.code, "outside_service_period")
            XCTAssertTrue((error as? RoutingError)?.message.contains("2021-09-20 – 2022-03-31") ?? false)
        }
        let helsinki = Coordinate(latitude: 60.1699, longitude: 24.9384)
        XCTAssertThrowsError(try t.router.leg(from: a, to: helsinki, timing: .departAt(localDate(2022, 1, 12, 8, 0)), pace: .normal)) { error in
            XCTAssertEqual((error as? RoutingError)?.code, "unsupported_in_region")
        }
    }

    /// Each query in flight takes its own scratch memory from the router's pool, and a
    /// scratch given back is clean: many queries at once answer as the same ones one by one.
    func testConcurrentQueriesAnswerAsTheSameQueriesOneByOne() throws {
        let t = try tampere()
        let stops = t.router.stops
        let when = localDate(2022, 1, 12, 8, 0)
        let queries: [(from: Coordinate, to: Coordinate, timing: LegTiming)] = (0..<48).map { k in
            (stops[(k * 37) % stops.count].coordinate, stops[(k * 101 + 7) % stops.count].coordinate,
             k % 2 == 0 ? .departAt(when.addingTimeInterval(Double(k * 60))) : .arriveBy(when.addingTimeInterval(3600)))
        }
        let router = t.router
        @Sendable func answer(_ k: Int) -> RouteLeg? {
            try? router.leg(from: queries[k].from, to: queries[k].to, timing: queries[k].timing, pace: .normal).best
        }
        let oneByOne = queries.indices.map(answer)
        XCTAssertGreaterThan(oneByOne.compactMap { $0 }.count, 40, "most pairs of stops connect")
        let answers = ConcurrentAnswers(count: queries.count)
        DispatchQueue.concurrentPerform(iterations: queries.count) { answers.set($0, answer($0)) }
        XCTAssertEqual(answers.values, oneByOne)
    }
}

/// Answers written by concurrent queries, one slot each.
private final class ConcurrentAnswers: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [RouteLeg?]
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ value: RouteLeg?) { lock.withLock { slots[index] = value } }
    var values: [RouteLeg?] { lock.withLock { slots } }
}

extension TampereTransitTests {
    /// The lower bound on the time left to the target (`RemainingTimeGraph`) drops only labels
    /// that could never improve a target label: on the real network, seeded stop-to-stop queries
    /// find exactly the journeys (every Pareto set, and arrive-by's forward pass in the corridor)
    /// that the same engine finds without it, depart-at's backward pass in the corridor included;
    /// and so does the bound of a network too large for the table (searched near the target, read
    /// from the table of cells beyond), on a scratch reused by both, each search resetting only
    /// the stops its bound reached.
    func testTheRemainingTimeBoundChangesNoJourneyAtTampere() throws {
        let timetable = try tampere().router.timetable
        let bounded = Raptor(timetable: timetable, paceMultiplier: 1)
        var unbounded = bounded
        unbounded.boundsRemainingTime = false
        // The bound from the cells and a search near the target, as past
        // `RemainingTimeGraph.tableStopLimit` stops; its scratch is the same as `bounded`'s, so
        // each search clears what the other left.
        var searched = bounded
        searched.readsRemainingTimeTable = false
        let day = try XCTUnwrap(ServiceDate.dayNumber(year: 2022, month: 1, day: 12))
        let days = Raptor.serviceDays(around: day, timetable: timetable)
        let reference = ServiceDate.referenceInstant(day, in: timetable.timeZone)
        let stopCount = Int32(timetable.stops.count)
        var g = SeededRandom(seed: 26)
        func endpoints() -> [Raptor.Endpoint] {
            (0..<Int.random(in: 1...3, using: &g)).map { _ in
                Raptor.Endpoint(stop: Int32.random(in: 0..<stopCount, using: &g), seconds: Int.random(in: 0...600, using: &g))
            }
        }
        var found = 0, transfers = 0
        for query in 0..<250 {
            let access = endpoints(), egress = endpoints()
            let time = reference + Int.random(in: 6 * 3600...20 * 3600, using: &g)
            let departing = bounded.departAt(time, access: access, egress: egress, days: days, maxRides: 5)
            XCTAssertEqual(departing, unbounded.departAt(time, access: access, egress: egress, days: days, maxRides: 5),
                           "depart-at query \(query)")
            XCTAssertEqual(searched.departAt(time, access: access, egress: egress, days: days, maxRides: 5), departing,
                           "depart-at query \(query), the bound from the cells")
            found += departing.isEmpty ? 0 : 1
            transfers += departing.last.map { $0.rides.count > 1 ? 1 : 0 } ?? 0
            let choose: ([Raptor.Journey]) -> Raptor.Journey? = query % 2 == 0 ? { $0.first } : { $0.last }
            let arriving = bounded.arriveBy(time + 3600, access: access, egress: egress, days: days, maxRides: 5,
                                            thenEarliestFrom: choose)
            let expected = unbounded.arriveBy(time + 3600, access: access, egress: egress, days: days, maxRides: 5,
                                              thenEarliestFrom: choose)
            XCTAssertEqual(arriving.latest, expected.latest, "arrive-by query \(query)")
            XCTAssertEqual(arriving.chosen, expected.chosen, "arrive-by query \(query)")
            XCTAssertEqual(arriving.earliest, expected.earliest, "arrive-by query \(query)'s forward pass")
            let arrivingSearched = searched.arriveBy(time + 3600, access: access, egress: egress, days: days, maxRides: 5,
                                                     thenEarliestFrom: choose)
            XCTAssertEqual(arrivingSearched.latest, expected.latest, "arrive-by query \(query), the bound from the cells")
            XCTAssertEqual(arrivingSearched.earliest, expected.earliest, "arrive-by query \(query)'s forward pass, the bound from the cells")
            let leaving = bounded.departAt(time, access: access, egress: egress, days: days, maxRides: 5, thenLatestFrom: choose)
            let expectedLeaving = unbounded.departAt(time, access: access, egress: egress, days: days, maxRides: 5,
                                                     thenLatestFrom: choose)
            XCTAssertEqual(leaving.chosen, expectedLeaving.chosen, "depart-at query \(query)")
            XCTAssertEqual(leaving.latest, expectedLeaving.latest, "depart-at query \(query)'s backward pass")
            let leavingSearched = searched.departAt(time, access: access, egress: egress, days: days, maxRides: 5, thenLatestFrom: choose)
            XCTAssertEqual(leavingSearched.latest, expectedLeaving.latest, "depart-at query \(query)'s backward pass, the bound searched")
        }
        print("testTheRemainingTimeBoundChangesNoJourneyAtTampere: \(found) depart-at queries with a journey, \(transfers) changing")
        XCTAssertGreaterThan(found, 75, "many queries find a journey")
        XCTAssertGreaterThan(transfers, 25, "many journeys change")
    }

    /// The tables of distances between every two stops (`RemainingTimeGraph.towards` and
    /// `away`, in 32-second steps) give the bounds the per-query search gives less at most 31 s,
    /// never more (below the steps' cap, 2 h 16 min), and the same distances in seconds
    /// (`exactDistances`) exactly those, from random endpoints and radii, both ways. The search's memory is reused from query to query as a scratch's is, each
    /// query clearing only the stops it listed as settled: a stop it left behind would give
    /// the next query a wrong bound.
    func testTheRemainingTimeTableBoundsLikeTheSearchAtTampere() throws {
        let timetable = try tampere().router.timetable
        let graph = Raptor(timetable: timetable, paceMultiplier: 1).remainingTime
        let n = timetable.stops.count
        let towards = try XCTUnwrap(graph.towards), away = try XCTUnwrap(graph.away)
        XCTAssertEqual(towards.count, n * n)
        XCTAssertEqual(away.count, n * n)
        let exactTowards = RemainingTimeGraph.exactDistances(graph.incoming, stopCount: n)
        let exactAway = RemainingTimeGraph.exactDistances(graph.outgoing, stopCount: n)
        let fromSearch = UnsafeMutablePointer<Int32>.allocate(capacity: n), fromTable = UnsafeMutablePointer<Int32>.allocate(capacity: n)
        let fromSteps = UnsafeMutablePointer<Int32>.allocate(capacity: n)
        defer { fromSteps.deallocate() }
        fromSearch.initialize(repeating: 0, count: n)
        let stepsCap = RemainingTimeGraph.tableMaxSteps << Int(RemainingTimeGraph.tableStepShift), step = 1 << Int(RemainingTimeGraph.tableStepShift)
        var looser = 0
        let settled = UnsafeMutablePointer<Int32>.allocate(capacity: n)
        let buckets = UnsafeMutablePointer<Int32>.allocate(capacity: RemainingTimeGraph.radiusCap)
        buckets.initialize(repeating: -1, count: RemainingTimeGraph.radiusCap)
        defer { fromSearch.deallocate(); fromTable.deallocate(); settled.deallocate(); buckets.deallocate() }
        var g = SeededRandom(seed: 27)
        for query in 0..<40 {
            let endpoints = (0..<Int.random(in: 1...12, using: &g)).map { _ in
                Raptor.Endpoint(stop: Int32.random(in: 0..<Int32(n), using: &g), seconds: Int.random(in: 0...900, using: &g))
            }
            let radius = query % 8 == 0 ? 5 * 3600 : Int.random(in: 60...5400, using: &g)
            let far = min(radius, RemainingTimeGraph.radiusCap)
            for (rows, steps, table) in [(graph.incoming, towards, exactTowards), (graph.outgoing, away, exactAway)] {
                let entries = UnsafeMutablePointer<SIMD2<Int32>>.allocate(capacity: endpoints.count + rows.hops.count)
                defer { entries.deallocate() }
                let reached = rows.withBuffers {
                    RemainingTimeGraph.fill(fromSearch, settled: settled, from: endpoints, radius: radius, rows: $0,
                                            buckets: buckets, entries: entries)
                }
                table.withUnsafeBufferPointer {
                    RemainingTimeGraph.fill(fromTable, stopCount: n, from: endpoints, radius: radius, table: $0)
                }
                steps.withUnsafeBufferPointer {
                    RemainingTimeGraph.fill(fromSteps, stopCount: n, from: endpoints, radius: radius, table: $0)
                }
                let searched = RemainingBound(closeness: fromSearch, far: far), read = RemainingBound(closeness: fromTable, far: far)
                let stepped = RemainingBound(closeness: fromSteps, far: far)
                XCTAssertEqual((0..<n).map { read[$0] }, (0..<n).map { searched[$0] }, "query \(query)")
                for s in 0..<n {
                    XCTAssertLessThanOrEqual(stepped[s], searched[s], "query \(query), stop \(s): a lower bound")
                    XCTAssertGreaterThan(stepped[s], min(searched[s], stepsCap) - step, "query \(query), stop \(s): under a step less")
                    if stepped[s] < searched[s] { looser += 1 }
                }
                XCTAssertEqual(Set(UnsafeBufferPointer(start: settled, count: reached)), Set((0..<n).filter { fromSearch[$0] != 0 }.map(Int32.init)),
                               "query \(query): the settled list names every stop the search set")
                XCTAssertTrue(UnsafeBufferPointer(start: buckets, count: RemainingTimeGraph.radiusCap).allSatisfy { $0 == -1 },
                              "query \(query): the search leaves its queue empty")
                for k in 0..<reached { fromSearch[Int(settled[k])] = 0 }
            }
        }
        XCTAssertGreaterThan(looser, 0, "the steps round some distances down")
    }

    /// The bound of a network too large for the table of stops (a search near the endpoints, the
    /// table of cells beyond) is never more than the distance the table of stops gives, and is
    /// that distance for every stop the search settles: from random endpoints, radii and shares
    /// searched, both ways, at cells of Tampere's default size and of the country's (30 stops).
    /// Its memory is reused from query to query, each clearing only the stops it listed.
    func testTheBoundFromCellsIsNeverMoreThanTheDistanceAtTampere() throws {
        let timetable = try tampere().router.timetable
        let n = timetable.stops.count
        let fromCells = UnsafeMutablePointer<Int32>.allocate(capacity: n), fromTable = UnsafeMutablePointer<Int32>.allocate(capacity: n)
        fromCells.initialize(repeating: 0, count: n)
        let settled = UnsafeMutablePointer<Int32>.allocate(capacity: n)
        let buckets = UnsafeMutablePointer<Int32>.allocate(capacity: RemainingTimeGraph.radiusCap)
        buckets.initialize(repeating: -1, count: RemainingTimeGraph.radiusCap)
        defer { fromCells.deallocate(); fromTable.deallocate(); settled.deallocate(); buckets.deallocate() }
        var g = SeededRandom(seed: 43)
        var abovePlainRadius = 0
        for cellStops in [nil, 30] {
            let graph = Raptor(timetable: timetable, paceMultiplier: 1, remainingTimeCellStops: cellStops).remainingTime
            let tables = [(graph.incoming, RemainingTimeGraph.exactDistances(graph.incoming, stopCount: n), try XCTUnwrap(graph.towardsCells)),
                          (graph.outgoing, RemainingTimeGraph.exactDistances(graph.outgoing, stopCount: n), try XCTUnwrap(graph.awayCells))]
            for query in 0..<30 {
                let endpoints = (0..<Int.random(in: 1...12, using: &g)).map { _ in
                    Raptor.Endpoint(stop: Int32.random(in: 0..<Int32(n), using: &g), seconds: Int.random(in: 0...900, using: &g))
                }
                let radius = query % 8 == 0 ? 5 * 3600 : Int.random(in: 60...5400, using: &g)
                let far = min(radius, RemainingTimeGraph.radiusCap), exact = far * [0, 30, 70][query % 3] / 100
                let message = "cells of \(cellStops.map(String.init) ?? "default") stops, query \(query)"
                for (rows, table, cellTable) in tables {
                    let entries = UnsafeMutablePointer<SIMD2<Int32>>.allocate(capacity: endpoints.count + rows.hops.count)
                    defer { entries.deallocate() }
                    let reached = rows.withBuffers { rows in
                        cellTable.withUnsafeBufferPointer {
                            graph.fill(fromCells, settled: settled, from: endpoints, radius: radius, exactRadius: exact, rows: rows,
                                       cellTable: $0, buckets: buckets, entries: entries)
                        }
                    }
                    table.withUnsafeBufferPointer {
                        RemainingTimeGraph.fill(fromTable, stopCount: n, from: endpoints, radius: radius, table: $0)
                    }
                    let bound = RemainingBound(closeness: fromCells, far: far), distance = RemainingBound(closeness: fromTable, far: far)
                    for s in 0..<n {
                        XCTAssertLessThanOrEqual(bound[s], distance[s], "\(message), stop \(s): a lower bound")
                        if distance[s] < exact { XCTAssertEqual(bound[s], distance[s], "\(message), stop \(s): searched exactly") }
                        if bound[s] > exact && bound[s] < far { abovePlainRadius += 1 }
                    }
                    XCTAssertEqual(Set(UnsafeBufferPointer(start: settled, count: reached)), Set((0..<n).filter { fromCells[$0] != 0 }.map(Int32.init)),
                                   "\(message): the settled list names every stop set, once")
                    XCTAssertEqual(reached, Set(UnsafeBufferPointer(start: settled, count: reached)).count, "\(message): once each")
                    XCTAssertTrue(UnsafeBufferPointer(start: buckets, count: RemainingTimeGraph.radiusCap).allSatisfy { $0 == -1 },
                                  "\(message): the search leaves its queue empty")
                    for k in 0..<reached { fromCells[Int(settled[k])] = 0 }
                }
            }
        }
        XCTAssertGreaterThan(abovePlainRadius, 0, "the cells bound some stops above the radius searched and below the whole radius")
    }

    /// A depart-at search leaves unwritten the cells it cannot reach in time (`reachedFrom`):
    /// every stop it leaves so that the bound without the start would have set is the radius or
    /// more away counting the way there too (its exact distance from the nearest access stop, walk
    /// added, plus the bound it would have had), so the rounds drop its labels with either bound;
    /// every stop it writes gets the same bound as without the start. From random access and
    /// target stops and radii at Tampere, with cells of the country's size (30 stops).
    func testACellADepartAtSearchCannotReachInTimeIsLeftUnwrittenAtTampere() throws {
        let timetable = try tampere().router.timetable
        let n = timetable.stops.count
        let plain = UnsafeMutablePointer<Int32>.allocate(capacity: n), skipping = UnsafeMutablePointer<Int32>.allocate(capacity: n)
        plain.initialize(repeating: 0, count: n)
        skipping.initialize(repeating: 0, count: n)
        let settled = UnsafeMutablePointer<Int32>.allocate(capacity: n)
        let buckets = UnsafeMutablePointer<Int32>.allocate(capacity: RemainingTimeGraph.radiusCap)
        buckets.initialize(repeating: -1, count: RemainingTimeGraph.radiusCap)
        let graph = Raptor(timetable: timetable, paceMultiplier: 1, remainingTimeCellStops: 30).remainingTime
        let entries = UnsafeMutablePointer<SIMD2<Int32>>.allocate(capacity: 16 + graph.incoming.hops.count)
        defer { plain.deallocate(); skipping.deallocate(); settled.deallocate(); buckets.deallocate(); entries.deallocate() }
        let towards = RemainingTimeGraph.exactDistances(graph.incoming, stopCount: n), cellTable = try XCTUnwrap(graph.towardsCells)
        var g = SeededRandom(seed: 52)
        var skipped = 0, kept = 0
        for query in 0..<40 {
            func ends() -> [Raptor.Endpoint] {
                (0..<Int.random(in: 1...8, using: &g)).map { _ in
                    Raptor.Endpoint(stop: Int32.random(in: 0..<Int32(n), using: &g), seconds: Int.random(in: 0...600, using: &g))
                }
            }
            let target = ends(), start = ends()
            let radius = Int.random(in: 600...5400, using: &g), far = min(radius, RemainingTimeGraph.radiusCap), exact = far * 30 / 100
            for (closeness, reachedFrom) in [(plain, [Raptor.Endpoint]()), (skipping, start)] {
                _ = graph.incoming.withBuffers { rows in
                    cellTable.withUnsafeBufferPointer {
                        graph.fill(closeness, settled: settled, from: target, radius: radius, exactRadius: exact, rows: rows,
                                   cellTable: $0, buckets: buckets, entries: entries, reachedFrom: reachedFrom)
                    }
                }
            }
            for s in 0..<n {
                if skipping[s] != 0 {
                    XCTAssertEqual(skipping[s], plain[s], "query \(query), stop \(s): the same bound where written")
                    kept += 1
                } else if plain[s] != 0 {
                    // towards[e * n + s] is the distance from s to e: here from an access stop to s.
                    let fromStart = start.map { $0.seconds + Int(towards[s * n + Int($0.stop)]) }.min() ?? .max
                    XCTAssertGreaterThanOrEqual(fromStart + far - Int(plain[s]), radius,
                                                "query \(query), stop \(s): left unwritten, so out of reach in time")
                    skipped += 1
                }
            }
            plain.update(repeating: 0, count: n)
            skipping.update(repeating: 0, count: n)
        }
        XCTAssertGreaterThan(skipped, 0, "some cells are out of reach in time")
        XCTAssertGreaterThan(kept, 0, "some are not")
    }

    /// A daemon asked only depart-at keeps half the remaining-time tables: a depart-at query
    /// (its backward pass included) builds the distances to its targets (`towards`) and not those
    /// from origins (`away`), which the first arrive-by query builds; the answers are those of
    /// the engine without the bound.
    func testADepartAtQueryBuildsOnlyTheTableTowardsItsTargetAtTampere() throws {
        let timetable = try tampere().router.timetable
        let engine = Raptor(timetable: timetable, paceMultiplier: 1)
        var unbounded = engine
        unbounded.boundsRemainingTime = false
        let n = timetable.stops.count, half = n * n * MemoryLayout<UInt8>.stride
        let day = try XCTUnwrap(ServiceDate.dayNumber(year: 2022, month: 1, day: 12))
        let days = Raptor.serviceDays(around: day, timetable: timetable)
        let time = ServiceDate.referenceInstant(day, in: timetable.timeZone) + 8 * 3600
        XCTAssertEqual(engine.remainingTime.builtTableBytes, 0, "no table before the first query")
        var g = SeededRandom(seed: 47)
        var departing: (earliest: [Raptor.Journey], chosen: Raptor.Journey?, latest: [Raptor.Journey])?
        var ends: (access: [Raptor.Endpoint], egress: [Raptor.Endpoint]) = ([], [])
        for _ in 0..<50 where departing == nil {  // the bound is set once a query reaches its target
            ends = ([Raptor.Endpoint(stop: Int32.random(in: 0..<Int32(n), using: &g), seconds: 0)],
                    [Raptor.Endpoint(stop: Int32.random(in: 0..<Int32(n), using: &g), seconds: 0)])
            let answer = engine.departAt(time, access: ends.access, egress: ends.egress, days: days, maxRides: 5) { $0.first }
            if answer.chosen != nil { departing = answer }
        }
        let found = try XCTUnwrap(departing, "one of 50 seeded pairs has a journey")
        let expected = unbounded.departAt(time, access: ends.access, egress: ends.egress, days: days, maxRides: 5) { $0.first }
        XCTAssertEqual(found.earliest, expected.earliest)
        XCTAssertEqual(found.latest, expected.latest)
        XCTAssertEqual(engine.remainingTime.builtTableBytes, half, "depart-at builds the table towards targets only")
        let arriving = engine.arriveBy(time + 3600, access: ends.access, egress: ends.egress, days: days, maxRides: 5) { $0.first }
        let expectedArriving = unbounded.arriveBy(time + 3600, access: ends.access, egress: ends.egress, days: days, maxRides: 5) { $0.first }
        XCTAssertEqual(arriving.latest, expectedArriving.latest)
        XCTAssertFalse(arriving.latest.isEmpty, "the arrive-by query reaches its target")
        XCTAssertEqual(engine.remainingTime.builtTableBytes, 2 * half, "arrive-by builds the table away from origins")
    }
}
