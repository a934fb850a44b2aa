import Foundation
import Planner
import SQLite
import Store
import TestSupport
import XCTest

final class HistoryTests: XCTestCase {
    var directory: TemporaryDirectory!
    var store: Store!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory("history")
        store = try Store(path: directory.path("usefulmap.sqlite"))
    }

    override func tearDown() {
        store = nil
        directory.remove()
    }

    func place(_ index: Int) -> Place {
        Place(name: "Stop \(index)", coordinate: Coordinate(latitude: 61 + Double(index) / 1000, longitude: 23.7),
              kind: .transitStop)
    }

    func date(_ index: Int) -> Date { Date(timeIntervalSinceReferenceDate: 700_000_000 + Double(index)) }

    func testSearchHistoryKeepsTheNewestTwentyNewestFirst() throws {
        for index in 0..<25 { try store.write(History.recordSearch(SearchHistoryEntry(query: "query \(index)", date: date(index)))) }
        let history = try store.read(History.searches())
        XCTAssertEqual(history.map(\.query), (5..<25).reversed().map { "query \($0)" })
        XCTAssertEqual(history.first?.date, date(24))
        XCTAssertEqual(try store.read(History.searches(limit: 3)).map(\.query), ["query 24", "query 23", "query 22"])
    }

    func testCapHoldsInTheFileNotJustInTheQuery() throws {
        for index in 0..<30 { try store.write(History.recordSearch(SearchHistoryEntry(query: "q\(index)", date: date(index)))) }
        let db = try Database(path: directory.path("usefulmap.sqlite"))
        XCTAssertEqual(try db.scalar("SELECT count(*) FROM search_history"), .integer(20))
    }

    func testDifferentQueriesThatFoundTheSamePlaceStaySeparateEntries() throws {
        try store.write(History.recordSearch(SearchHistoryEntry(query: "kesk", place: place(1), date: date(0))))
        try store.write(History.recordSearch(SearchHistoryEntry(query: "herv", place: place(2), date: date(1))))
        try store.write(History.recordSearch(SearchHistoryEntry(query: "keskustori", place: place(1), date: date(2))))
        try store.write(History.recordSearch(SearchHistoryEntry(query: "herv", place: place(2), date: date(3), region: "tampere")))
        XCTAssertEqual(try store.read(History.searches()), [SearchHistoryEntry(query: "herv", place: place(2), date: date(3), region: "tampere"),
                                                   SearchHistoryEntry(query: "keskustori", place: place(1), date: date(2)),
                                                   SearchHistoryEntry(query: "kesk", place: place(1), date: date(0))])
    }

    func testReAddingTheSameQueryWithoutAPlaceMovesItToTheFront() throws {
        try store.write(History.recordSearch(SearchHistoryEntry(query: "ratina", date: date(0))))
        try store.write(History.recordSearch(SearchHistoryEntry(query: "nekala", date: date(1))))
        try store.write(History.recordSearch(SearchHistoryEntry(query: "ratina", date: date(2))))
        XCTAssertEqual(try store.read(History.searches()).map(\.query), ["ratina", "nekala"])
    }

    func testSearchForAPastedGoogleMapsLinkIsNotStored() throws {
        let link = "https://www.google.com/maps/dir/61.49,23.76/61.45,23.85/data=!4m2!4m1!3e3"
        XCTAssertThrowsError(try store.write(History.recordSearch(SearchHistoryEntry(query: link, date: date(0))))) {
            XCTAssertEqual(($0 as? StoreError)?.code, "invalid_input")
        }
        XCTAssertEqual(try store.read(History.searches()), [])
    }

    /// A route and the places typed for it are one write: a search that cannot be stored keeps
    /// the route out too (a failed request changes nothing).
    func testARouteAndItsTypedPlacesAreStoredTogetherOrNotAtAll() throws {
        let route = RouteHistoryEntry(from: place(1), to: place(2), modes: [.walk], date: date(0))
        let typed = SearchHistoryEntry(query: "Keskustori", place: place(1), date: date(0))
        let refused = SearchHistoryEntry(query: "https://www.google.com/maps/dir/A/B", place: nil, date: date(0))
        XCTAssertThrowsError(try store.write(History.recordRoute(route, searches: [typed, refused])))
        XCTAssertEqual(try store.read(History.routes()), [])
        XCTAssertEqual(try store.read(History.searches()), [])
        try store.write(History.recordRoute(route, searches: [typed]))
        XCTAssertEqual(try store.read(History.routes()).count, 1)
        XCTAssertEqual(try store.read(History.searches()).map(\.query), ["Keskustori"])
    }

    func testClearSearchHistoryLeavesRouteHistory() throws {
        try store.write(History.recordSearch(SearchHistoryEntry(query: "a", date: date(0))))
        try store.write(History.recordRoute(RouteHistoryEntry(from: place(1), to: place(2), modes: [.walk], date: date(0))))
        try store.write(History.clearSearches())
        XCTAssertEqual(try store.read(History.searches()), [])
        XCTAssertEqual(try store.read(History.routes()).count, 1)
    }

    func testRouteHistoryRoundTripsModesAndKeepsTheNewestTwenty() throws {
        for index in 0..<23 {
            try store.write(History.recordRoute(RouteHistoryEntry(from: place(index), to: place(index + 100),
                                                    modes: index.isMultiple(of: 2) ? [.walk, .transit, .walk] : [.car],
                                                    date: date(index))))
        }
        let history = try store.read(History.routes())
        XCTAssertEqual(history.count, 20)
        XCTAssertEqual(history.first, RouteHistoryEntry(from: place(22), to: place(122), modes: [.walk, .transit, .walk],
                                                        date: date(22)))
        XCTAssertEqual(history.last?.from, place(3))
    }

    func testAskingForTheSameTripAgainMovesItToTheFrontWithTheNewModes() throws {
        try store.write(History.recordRoute(RouteHistoryEntry(from: place(1), to: place(2), modes: [.walk], date: date(0))))
        try store.write(History.recordRoute(RouteHistoryEntry(from: place(3), to: place(4), modes: [.car], date: date(1))))
        try store.write(History.recordRoute(RouteHistoryEntry(from: place(1), to: place(2), modes: [.transit], date: date(2))))
        XCTAssertEqual(try store.read(History.routes()), [
            RouteHistoryEntry(from: place(1), to: place(2), modes: [.transit], date: date(2)),
            RouteHistoryEntry(from: place(3), to: place(4), modes: [.car], date: date(1)),
        ])
        try store.write(History.clearRoutes())
        XCTAssertEqual(try store.read(History.routes()), [])
    }

    /// Issue 13: an entry's ID is stable. Repeating a search or a route moves it to the front
    /// under the number it had; a new entry never reuses a number.
    func testRepeatingAnEntryMovesItToTheFrontUnderTheNumberItHad() throws {
        try store.write(History.recordSearch(SearchHistoryEntry(query: "a", date: date(0))))
        try store.write(History.recordSearch(SearchHistoryEntry(query: "b", date: date(1))))
        let before = try store.read(History.searches(HistoryFilter()))
        try store.write(History.recordSearch(SearchHistoryEntry(query: "a", date: date(2))))
        let after = try store.read(History.searches(HistoryFilter()))
        XCTAssertEqual(after.map(\.entry.query), ["a", "b"])
        XCTAssertEqual(after.map(\.number), before.map(\.number).reversed(), "each entry keeps its number")
        try store.write(History.recordSearch(SearchHistoryEntry(query: "c", date: date(3))))
        let newest = try XCTUnwrap(try store.read(History.searches(HistoryFilter())).first)
        XCTAssertEqual(newest.entry.query, "c")
        XCTAssertFalse(before.map(\.number).contains(newest.number), "a new entry gets a new number")

        try store.write(History.recordRoute(RouteHistoryEntry(from: place(1), to: place(2), modes: [.walk], date: date(0))))
        try store.write(History.recordRoute(RouteHistoryEntry(from: place(3), to: place(4), modes: [.car], date: date(1))))
        let routesBefore = try store.read(History.routes(HistoryFilter()))
        try store.write(History.recordRoute(RouteHistoryEntry(from: place(1), to: place(2), modes: [.transit], date: date(2))))
        let routesAfter = try store.read(History.routes(HistoryFilter()))
        XCTAssertEqual(routesAfter.map(\.entry.modes), [[.transit], [.car]])
        XCTAssertEqual(routesAfter.map(\.number), routesBefore.map(\.number).reversed())
    }

    func testRouteEntryRoundTripsWhatWasTypedTheRegionTheRequestedTimeAndTheAnswer() throws {
        let entry = RouteHistoryEntry(from: place(1), to: place(2), modes: [.car], date: date(0), fromText: "kesk",
                                      toText: "61.45,23.85", region: "tampere", requestedTime: .arriveBy(date(900)),
                                      answers: [.init(mode: .walk, durationS: 845), .init(mode: .transit, durationS: nil),
                                                .init(mode: .car, durationS: 200)],
                                      fastest: .car)
        try store.write(History.recordRoute(entry))
        try store.write(History.recordRoute(RouteHistoryEntry(from: place(3), to: place(4), modes: [.walk], date: date(1), requestedTime: .leaveNow)))
        let history = try store.read(History.routes())
        XCTAssertEqual(history.last, entry)
        XCTAssertEqual(history.first?.requestedTime, .leaveNow)
        XCTAssertNil(history.first?.answers)
    }

    func testFiltersKeepOnlyMatchingEntriesNewestFirst() throws {
        try store.write(History.recordSearch(SearchHistoryEntry(query: "Ratina", place: place(1), date: date(0))))
        try store.write(History.recordSearch(SearchHistoryEntry(query: "hervanta", place: place(2), date: date(10))))
        try store.write(History.recordSearch(SearchHistoryEntry(query: "ratinan kauppakeskus", date: date(20))))
        XCTAssertEqual(try store.read(History.searches(HistoryFilter(text: "ratina"))).map(\.entry.query), ["ratinan kauppakeskus", "Ratina"])
        XCTAssertEqual(try store.read(History.searches(HistoryFilter(place: "stop 2"))).map(\.entry.query), ["hervanta"])
        XCTAssertEqual(try store.read(History.searches(HistoryFilter(since: date(10), until: date(20)))).map(\.entry.query), ["hervanta"])
        XCTAssertEqual(try store.read(History.searches(HistoryFilter(limit: 1))).map(\.entry.query), ["ratinan kauppakeskus"])
        XCTAssertEqual(try store.read(History.searches(HistoryFilter(mode: .walk))), [], "a search has no mode")

        try store.write(History.recordRoute(RouteHistoryEntry(from: place(1), to: place(2), modes: [.car], date: date(0), fromText: "kesk",
                                                answers: [.init(mode: .walk, durationS: 900), .init(mode: .transit, durationS: nil),
                                                          .init(mode: .car, durationS: 200)])))
        try store.write(History.recordRoute(RouteHistoryEntry(from: place(3), to: place(4), modes: [.walk], date: date(5))))
        XCTAssertEqual(try store.read(History.routes(HistoryFilter(mode: .walk))).map(\.entry.from), [place(3), place(1)])
        XCTAssertEqual(try store.read(History.routes(HistoryFilter(mode: .transit))), [], "transit had no answer")
        XCTAssertEqual(try store.read(History.routes(HistoryFilter(text: "KESK"))).map(\.entry.from), [place(1)])
        XCTAssertEqual(try store.read(History.routes(HistoryFilter(place: "Stop 4"))).map(\.entry.from), [place(3)])
    }

    func testAnEntryKeepsItsNumberUntilItIsDeleted() throws {
        try store.write(History.recordSearch(SearchHistoryEntry(query: "a", date: date(0))))
        try store.write(History.recordSearch(SearchHistoryEntry(query: "b", date: date(1))))
        let numbers = try store.read(History.searches(HistoryFilter())).map(\.number)
        try store.write(History.recordSearch(SearchHistoryEntry(query: "c", date: date(2))))
        XCTAssertEqual(Array(try store.read(History.searches(HistoryFilter())).map(\.number).suffix(2)), numbers)
        try store.write(History.deleteSearch(number: numbers[1]))
        XCTAssertEqual(try store.read(History.searches()).map(\.query), ["c", "b"])
        XCTAssertThrowsError(try store.write(History.deleteSearch(number: numbers[1]))) { XCTAssertEqual(($0 as? StoreError)?.code, "not_found") }
        try store.write(History.recordRoute(RouteHistoryEntry(from: place(1), to: place(2), modes: [.walk], date: date(0))))
        try store.write(History.deleteRoute(number: try XCTUnwrap(try store.read(History.routes(HistoryFilter())).first?.number)))
        XCTAssertEqual(try store.read(History.routes()), [])
    }
    func testAPlansEntryKeepsItsPlacesBetweenTheEndsAndItsOptionsAndIsNeverTheComparisonsEntry() throws {
        let home = place(0), shop = place(1), work = place(2)
        let plan = PlanRequest(via: [shop, work], viaTexts: ["shop", nil], preset: .transit, pace: .fast,
                               title: "Errands", titleGiven: true)
        let entry = RouteHistoryEntry(from: home, to: home, modes: [.walk, .transit, .walk], date: date(1), fromText: "Home",
                                      toText: "Home", region: "tampere", requestedTime: .departAt(date(100)), plan: plan)
        try store.write(History.recordRoute(entry))
        // A comparison between the same ends, and a two-place plan between them, are entries of their own.
        try store.write(History.recordRoute(RouteHistoryEntry(from: home, to: work, modes: [.walk], date: date(2))))
        try store.write(History.recordRoute(RouteHistoryEntry(from: home, to: work, modes: [.car], date: date(3),
                                                plan: PlanRequest(via: [], viaTexts: [], preset: .car, pace: .normal,
                                                                  title: "Stop 0 → Stop 2", titleGiven: false))))
        let history = try store.read(History.routes(HistoryFilter()))
        XCTAssertEqual(history.count, 3)
        XCTAssertEqual(history.last?.entry, entry, "the plan's entry round-trips with its places and options")
        XCTAssertEqual(history.last?.entry.places, [home, shop, work, home])
        XCTAssertNil(history[1].entry.plan)
        XCTAssertEqual(try store.read(History.routes(HistoryFilter(place: "Stop 1"))).map(\.number), [history[2].number],
                       "a place between the ends matches the place filter")

        // Recording the same plan again moves its entry to the front, under its number, with its places.
        var again = entry
        again.date = date(4)
        try store.write(History.recordRoute(again))
        let repeated = try store.read(History.routes(HistoryFilter()))
        XCTAssertEqual(repeated.first?.number, history.last?.number)
        XCTAssertEqual(repeated.first?.entry.plan?.via, [shop, work])
        // Deleting the entry takes its places with it.
        try store.write(History.deleteRoute(number: try XCTUnwrap(repeated.first?.number)))
        let db = try Database(path: directory.path("usefulmap.sqlite"))
        XCTAssertEqual(try db.scalar("SELECT count(*) FROM route_history_via"), .integer(0))
    }
}
