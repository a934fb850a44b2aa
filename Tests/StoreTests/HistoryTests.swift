import Foundation
import Planner
import SQLite
import Store
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
        for index in 0..<25 { try store.recordSearch(SearchHistoryEntry(query: "query \(index)", date: date(index))) }
        let history = try store.searchHistory()
        XCTAssertEqual(history.map(\.query), (5..<25).reversed().map { "query \($0)" })
        XCTAssertEqual(history.first?.date, date(24))
        XCTAssertEqual(try store.searchHistory(limit: 3).map(\.query), ["query 24", "query 23", "query 22"])
    }

    func testCapHoldsInTheFileNotJustInTheQuery() throws {
        for index in 0..<30 { try store.recordSearch(SearchHistoryEntry(query: "q\(index)", date: date(index))) }
        let db = try Database(path: directory.path("usefulmap.sqlite"))
        XCTAssertEqual(try db.scalar("SELECT count(*) FROM search_history"), .integer(20))
    }

    func testReAddingASearchForTheSamePlaceMovesItToTheFrontWithoutDuplicates() throws {
        try store.recordSearch(SearchHistoryEntry(query: "kesk", place: place(1), date: date(0)))
        try store.recordSearch(SearchHistoryEntry(query: "herv", place: place(2), date: date(1)))
        try store.recordSearch(SearchHistoryEntry(query: "keskustori", place: place(1), date: date(2)))
        let history = try store.searchHistory()
        XCTAssertEqual(history, [SearchHistoryEntry(query: "keskustori", place: place(1), date: date(2)),
                                 SearchHistoryEntry(query: "herv", place: place(2), date: date(1))])
    }

    func testReAddingTheSameQueryWithoutAPlaceMovesItToTheFront() throws {
        try store.recordSearch(SearchHistoryEntry(query: "ratina", date: date(0)))
        try store.recordSearch(SearchHistoryEntry(query: "nekala", date: date(1)))
        try store.recordSearch(SearchHistoryEntry(query: "ratina", date: date(2)))
        XCTAssertEqual(try store.searchHistory().map(\.query), ["ratina", "nekala"])
    }

    func testSearchForAPastedGoogleMapsLinkIsNotStored() throws {
        let link = "https://www.google.com/maps/dir/61.49,23.76/61.45,23.85/data=!4m2!4m1!3e3"
        XCTAssertThrowsError(try store.recordSearch(SearchHistoryEntry(query: link, date: date(0)))) {
            XCTAssertEqual(($0 as? StoreError)?.code, "invalid_input")
        }
        XCTAssertEqual(try store.searchHistory(), [])
    }

    func testClearSearchHistoryLeavesRouteHistory() throws {
        try store.recordSearch(SearchHistoryEntry(query: "a", date: date(0)))
        try store.recordRoute(RouteHistoryEntry(from: place(1), to: place(2), modes: [.walk], date: date(0)))
        try store.clearSearchHistory()
        XCTAssertEqual(try store.searchHistory(), [])
        XCTAssertEqual(try store.routeHistory().count, 1)
    }

    func testRouteHistoryRoundTripsModesAndKeepsTheNewestTwenty() throws {
        for index in 0..<23 {
            try store.recordRoute(RouteHistoryEntry(from: place(index), to: place(index + 100),
                                                    modes: index.isMultiple(of: 2) ? [.walk, .transit, .walk] : [.car],
                                                    date: date(index)))
        }
        let history = try store.routeHistory()
        XCTAssertEqual(history.count, 20)
        XCTAssertEqual(history.first, RouteHistoryEntry(from: place(22), to: place(122), modes: [.walk, .transit, .walk],
                                                        date: date(22)))
        XCTAssertEqual(history.last?.from, place(3))
    }

    func testAskingForTheSameTripAgainMovesItToTheFrontWithTheNewModes() throws {
        try store.recordRoute(RouteHistoryEntry(from: place(1), to: place(2), modes: [.walk], date: date(0)))
        try store.recordRoute(RouteHistoryEntry(from: place(3), to: place(4), modes: [.car], date: date(1)))
        try store.recordRoute(RouteHistoryEntry(from: place(1), to: place(2), modes: [.transit], date: date(2)))
        XCTAssertEqual(try store.routeHistory(), [
            RouteHistoryEntry(from: place(1), to: place(2), modes: [.transit], date: date(2)),
            RouteHistoryEntry(from: place(3), to: place(4), modes: [.car], date: date(1)),
        ])
        try store.clearRouteHistory()
        XCTAssertEqual(try store.routeHistory(), [])
    }
}
