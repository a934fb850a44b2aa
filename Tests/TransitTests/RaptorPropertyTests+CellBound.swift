import Foundation
import Planner
import TestSupport
@testable import Transit
import XCTest

/// Past the remaining time graph's table limit the bound is searched from the target to part
/// of its radius and read from the table of cells for the rest (`Raptor.remainingTimeExactPercent`).
/// On written feeds with more stops than a table limit lowered for the engine (its
/// `remainingTimeTableStopLimit`) and cells of two or three stops, every split finds exactly the
/// journeys the same engine finds without the bound, each search on a scratch the others reuse
/// (so a stop one search set and did not list for its reset would show); and the cells' table
/// holds, for each two cells, the least of the stops' table over their members.
extension RaptorPropertyTests {
    func testTheBoundFromCellsPastTheTableLimitChangesNoJourney() throws {
        let fixture = try FeedFixture()
        var compared = 0, found = 0
        for seed in UInt64(1)...30 {
            let world = makeWorld(seed: seed &* 0x9E37_79B9_7F4A_7C15)
            let (timetable, _) = try fixture.timetable(world.feed.files)
            let days = Raptor.serviceDays(around: Self.day0, timetable: timetable)
            // Every written feed has 6 stops or more: a limit of 4 keeps no table.
            let searched = Raptor(timetable: timetable, paceMultiplier: 1, remainingTimeTableStopLimit: 4,
                                  remainingTimeCellStops: seed % 2 == 0 ? 2 : 3)
            XCTAssertGreaterThan(timetable.stops.count, 4)
            XCTAssertNil(searched.remainingTime.towards, "seed \(seed): no table past the limit")
            XCTAssertGreaterThan(searched.remainingTime.cells.count, 1, "seed \(seed): more than one cell")
            XCTAssertNotNil(Raptor(timetable: timetable, paceMultiplier: 1).remainingTime.towards,
                            "seed \(seed): a table within the default limit")
            var unbounded = searched
            unbounded.boundsRemainingTime = false
            let splits = [0, 30, 70, 100].map { percent -> Raptor in
                var engine = searched
                engine.remainingTimeExactPercent = percent
                return engine
            }
            var g = SeededRandom(seed: seed &+ 91)
            for query in 0..<12 {
                let (_, _, access, egress) = randomEnds(world, using: &g)
                let time = Self.day0 * 86_400 + 60 * Int.random(in: 5 * 60...11 * 60, using: &g)
                guard !access.isEmpty, !egress.isEmpty else { continue }
                let choose: ([Raptor.Journey]) -> Raptor.Journey? = query % 2 == 0 ? { $0.first } : { $0.last }
                let expected = bothWays(unbounded, at: time, access: access, egress: egress, days: days, choose: choose)
                found += expected.departing.earliest.isEmpty ? 0 : 1
                for engine in splits {
                    assertSameJourneys(bothWays(engine, at: time, access: access, egress: egress, days: days, choose: choose), expected,
                                       "seed \(seed) query \(query), \(engine.remainingTimeExactPercent) % searched from the target")
                    compared += 1
                }
            }
        }
        XCTAssertGreaterThan(compared, 400)
        XCTAssertGreaterThan(found, compared / 4 / 4, "the written feeds mostly connect")
    }

    /// Depart-at at `time` with its backward pass from the journey the test chose, and arrive-by
    /// by `time` + 3 hours with its forward pass, as the bound tests compare them.
    typealias BothWays = (departing: (earliest: [Raptor.Journey], chosen: Raptor.Journey?, latest: [Raptor.Journey]),
                          arriving: (latest: [Raptor.Journey], chosen: Raptor.Journey?, earliest: [Raptor.Journey]))

    func bothWays(_ engine: Raptor, at time: Int, access: [Raptor.Endpoint], egress: [Raptor.Endpoint], days: [Raptor.ServiceDay],
                  choose: ([Raptor.Journey]) -> Raptor.Journey?) -> BothWays {
        (engine.departAt(time, access: access, egress: egress, days: days, maxRides: 6, thenLatestFrom: choose),
         engine.arriveBy(time + 3 * 3600, access: access, egress: egress, days: days, maxRides: 6, thenEarliestFrom: choose))
    }

    func assertSameJourneys(_ found: BothWays, _ expected: BothWays, _ message: String,
                            file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(found.departing.earliest, expected.departing.earliest, "depart-at, \(message)", file: file, line: line)
        XCTAssertEqual(found.departing.chosen, expected.departing.chosen, "depart-at, \(message)", file: file, line: line)
        XCTAssertEqual(found.departing.latest, expected.departing.latest, "depart-at's backward pass, \(message)", file: file, line: line)
        XCTAssertEqual(found.arriving.latest, expected.arriving.latest, "arrive-by, \(message)", file: file, line: line)
        XCTAssertEqual(found.arriving.chosen, expected.arriving.chosen, "arrive-by, \(message)", file: file, line: line)
        XCTAssertEqual(found.arriving.earliest, expected.arriving.earliest, "arrive-by's forward pass, \(message)", file: file, line: line)
    }

    /// The cells' table is a lower bound because each entry is the least distance between any
    /// stop of the one cell and any of the other: compared, each way, with the least over the
    /// same stops of the table of every stop pair (the graph's exact distances).
    func testTheCellsTableHoldsTheLeastDistanceBetweenTheirStops() throws {
        let fixture = try FeedFixture()
        var pairs = 0, below = 0
        for seed in UInt64(1)...20 {
            let world = makeWorld(seed: seed &* 0x2545_F491_4F6C_DD1D)
            let (timetable, _) = try fixture.timetable(world.feed.files)
            let graph = Raptor(timetable: timetable, paceMultiplier: 1, remainingTimeCellStops: 2 + Int(seed % 3)).remainingTime
            let n = timetable.stops.count, cells = graph.cells, m = cells.count
            // The exact distances the table of stops keeps in steps: the cells' table is their least.
            let towards = RemainingTimeGraph.exactDistances(graph.incoming, stopCount: n)
            let away = RemainingTimeGraph.exactDistances(graph.outgoing, stopCount: n)
            let towardsCells = try XCTUnwrap(graph.towardsCells), awayCells = try XCTUnwrap(graph.awayCells)
            XCTAssertEqual(towardsCells.count, m * m)
            for d in 0..<m {
                for c in 0..<m {
                    var leastTo = Int16.max, leastFrom = Int16.max
                    for s in cells.members[Int(cells.memberStart[c])..<Int(cells.memberStart[c + 1])] {
                        for e in cells.members[Int(cells.memberStart[d])..<Int(cells.memberStart[d + 1])] {
                            leastTo = min(leastTo, towards[Int(e) * n + Int(s)])  // from s to e
                            leastFrom = min(leastFrom, away[Int(e) * n + Int(s)])  // from e to s
                        }
                    }
                    XCTAssertEqual(towardsCells[d * m + c], leastTo, "seed \(seed): from cell \(c) to cell \(d)")
                    XCTAssertEqual(awayCells[d * m + c], leastFrom, "seed \(seed): from cell \(d) to cell \(c)")
                    pairs += 1
                    below += leastTo < Int16(RemainingTimeGraph.radiusCap) ? 1 : 0
                }
            }
        }
        XCTAssertGreaterThan(below, pairs / 4, "most cells reach each other within the cap")
    }

    /// Every stop is in exactly one cell, no cell holds more than its size, there are no more
    /// than n / size cells (rounded up), and each cell's stops are the ones its `cellOf` names.
    func testStopCellsHoldEveryStopOnceAndNoMoreThanTheirSize() {
        var g = SeededRandom(seed: 43)
        for size in [1, 2, 3, 7, 30] {
            let n = Int.random(in: 1...400, using: &g)
            let latitudes = (0..<n).map { _ in Double.random(in: 61.4...61.6, using: &g) }
            let longitudes = (0..<n).map { _ in Double.random(in: 23.5...24.0, using: &g) }
            let cells = StopCells(latitudes: latitudes, longitudes: longitudes, stopsPerCell: size)
            XCTAssertEqual(cells.members.sorted(), Array(Int32(0)..<Int32(n)), "size \(size): every stop once")
            XCTAssertLessThanOrEqual(cells.count, (n + size - 1) / size, "size \(size): no more cells than n / size")
            for c in 0..<cells.count {
                let run = cells.members[Int(cells.memberStart[c])..<Int(cells.memberStart[c + 1])]
                XCTAssertFalse(run.isEmpty, "size \(size): cell \(c) empty")
                XCTAssertLessThanOrEqual(run.count, size, "size \(size): cell \(c)")
                for s in run { XCTAssertEqual(cells.cellOf[Int(s)], Int32(c)) }
            }
        }
    }
}
