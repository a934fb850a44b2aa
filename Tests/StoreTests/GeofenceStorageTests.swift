import Foundation
import Planner
import Store
import TestSupport
import XCTest

/// Fences on saved places and the visits history (migration 0004).
final class GeofenceStorageTests: XCTestCase {
    var directory: TemporaryDirectory!
    var store: Store!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory("geofence")
        store = try Store(path: directory.path("usefulmap.sqlite"))
        let home = Place(name: "Kotikatu 1", coordinate: Coordinate(latitude: 61.4978, longitude: 23.761), kind: .address)
        try store.write(Places.save(SavedPlace(name: "Home", place: home)))
    }

    override func tearDown() {
        store = nil
        directory.remove()
    }

    func testAFenceDefaultsToEightyMetresAndTurningItOffKeepsItsRadius() throws {
        XCTAssertEqual(try store.read(Geofences.all()), [], "a saved place has no fence until asked")
        try store.write(Geofences.set(ofPlace: "Home", on: true))
        XCTAssertEqual(try store.read(Geofences.all()).map(\.radiusMetres), [80])
        try store.write(Geofences.set(ofPlace: "Home", on: true, radiusMetres: 150))
        try store.write(Geofences.set(ofPlace: "Home", on: false))
        XCTAssertEqual(try store.read(Geofences.all()).map { [$0.radiusMetres, $0.isOn ? 1 : 0] }, [[150, 0]])
        try store.write(Geofences.set(ofPlace: "Home", on: true))
        XCTAssertEqual(try store.read(Geofences.all()).first?.radiusMetres, 150)
        // Saving the place again (a new note) keeps its fence.
        try store.write(Places.save(SavedPlace(name: "Home", place: try XCTUnwrap(store.read(Places.named("Home"))).place, note: "door code")))
        XCTAssertEqual(try store.read(Geofences.all()).first?.isOn, true)
    }

    func testBadFenceInputChangesNothing() throws {
        XCTAssertThrowsError(try store.write(Geofences.set(ofPlace: "Nowhere", on: true))) {
            guard case StoreError.notFound = $0 else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try store.write(Geofences.set(ofPlace: "Home", on: true, radiusMetres: 5))) {
            guard case StoreError.invalidInput = $0 else { return XCTFail("\($0)") }
        }
        XCTAssertEqual(try store.read(Geofences.all()), [])
    }

    func testVisitsKeepTheNewestTwentyNewestFirstAndSurviveReopening() throws {
        for index in 0..<25 {
            let fix = LocationFix(coordinate: Coordinate(latitude: 61.4978, longitude: 23.761), horizontalAccuracy: 9.5,
                                  timestamp: Date(timeIntervalSinceReferenceDate: 700_000_000 + Double(index)))
            try store.write(Geofences.recordVisit(VisitEntry(placeName: "Home", event: index.isMultiple(of: 2) ? .arrived : .left, fix: fix,
                                             date: fix.timestamp)))
        }
        store = try Store(path: directory.path("usefulmap.sqlite"))
        let visits = try store.read(Geofences.visits())
        XCTAssertEqual(visits.count, Store.historyLimit)
        XCTAssertEqual(visits.first?.fix.timestamp, Date(timeIntervalSinceReferenceDate: 700_000_024))
        XCTAssertEqual(visits.first?.event, .arrived)
        XCTAssertEqual(visits.first?.fix.horizontalAccuracy, 9.5)
        try store.write(Geofences.clearVisits())
        XCTAssertEqual(try store.read(Geofences.visits()), [])
    }
}
