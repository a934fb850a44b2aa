import Foundation
import Planner
import Store
import TestSupport
import XCTest

final class SavedPlaceTests: XCTestCase {
    var directory: TemporaryDirectory!
    var store: Store!
    let home = Place(name: "Hämeenkatu 10", coordinate: Coordinate(latitude: 61.4981, longitude: 23.7610), kind: .address)
    let work = Place(name: "Hervanta campus", coordinate: Coordinate(latitude: 61.4495, longitude: 23.8585), kind: .poi)

    override func setUpWithError() throws {
        directory = try TemporaryDirectory("places")
        store = try Store(path: directory.path("usefulmap.sqlite"))
    }

    override func tearDown() {
        store = nil
        directory.remove()
    }

    func testSavedPlaceIsFoundByItsNameWithCoordinateKindAndNote() throws {
        try store.write(Places.save(SavedPlace(name: "Home", place: home, note: "door code 1234")))
        try store.write(Places.save(SavedPlace(name: "Work", place: work)))
        XCTAssertEqual(try store.read(Places.named("Home")), SavedPlace(name: "Home", place: home, note: "door code 1234"))
        XCTAssertEqual(try store.read(Places.all()).map(\.name), ["Home", "Work"])
        XCTAssertNil(try store.read(Places.named("home")), "names are matched exactly")
    }

    func testANameHoldingANULIsInvalidInputNotADatabaseError() throws {
        XCTAssertThrowsError(try store.write(Places.save(SavedPlace(name: "\u{0}Home", place: home)))) { error in
            XCTAssertEqual((error as? StoreError)?.code, "invalid_input", "\(error)")
            XCTAssertTrue("\(error)".contains("NUL"), "\(error)")
        }
        try store.write(Places.save(SavedPlace(name: "Home", place: home)))
        XCTAssertThrowsError(try store.write(Places.rename(from: "Home", to: "Ho\u{0}me"))) {
            XCTAssertEqual(($0 as? StoreError)?.code, "invalid_input", "\($0)")
        }
        XCTAssertEqual(try store.read(Places.all()).map(\.name), ["Home"])
    }

    func testSameNameForAnotherPlaceIsADuplicateAndChangesNothing() throws {
        try store.write(Places.save(SavedPlace(name: "Home", place: home)))
        XCTAssertThrowsError(try store.write(Places.save(SavedPlace(name: "Home", place: work)))) { error in
            XCTAssertEqual((error as? StoreError)?.code, "duplicate")
            XCTAssertTrue("\(error)".contains("Home"))
        }
        XCTAssertEqual(try store.read(Places.all()), [SavedPlace(name: "Home", place: home)])
    }

    func testSamePlaceUnderAnotherNameIsADuplicateNamingTheExistingOne() throws {
        try store.write(Places.save(SavedPlace(name: "Home", place: home)))
        XCTAssertThrowsError(try store.write(Places.save(SavedPlace(name: "Koti", place: home)))) { error in
            XCTAssertEqual((error as? StoreError)?.code, "duplicate")
            XCTAssertTrue("\(error)".contains("\"Home\""), "\(error)")
        }
    }

    func testSavingTheSamePlaceAndNameAgainUpdatesTheNote() throws {
        try store.write(Places.save(SavedPlace(name: "Home", place: home, note: "old")))
        try store.write(Places.save(SavedPlace(name: "Home", place: home, note: "new")))
        XCTAssertEqual(try store.read(Places.all()), [SavedPlace(name: "Home", place: home, note: "new")])
    }

    func testRenameKeepsThePlaceAndRefusesATakenName() throws {
        try store.write(Places.save(SavedPlace(name: "Home", place: home)))
        try store.write(Places.save(SavedPlace(name: "Work", place: work)))
        try store.write(Places.rename(from: "Home", to: "Koti"))
        XCTAssertEqual(try store.read(Places.named("Koti"))?.place, home)
        XCTAssertNil(try store.read(Places.named("Home")))
        XCTAssertThrowsError(try store.write(Places.rename(from: "Koti", to: "Work"))) {
            XCTAssertEqual(($0 as? StoreError)?.code, "duplicate")
        }
        XCTAssertThrowsError(try store.write(Places.rename(from: "Nowhere", to: "Somewhere"))) {
            XCTAssertEqual(($0 as? StoreError)?.code, "not_found")
        }
        XCTAssertEqual(try store.read(Places.all()).map(\.name), ["Koti", "Work"])
    }

    func testRemoveDeletesOnlyThatPlaceAndMissingNameIsNotFound() throws {
        try store.write(Places.save(SavedPlace(name: "Home", place: home)))
        try store.write(Places.save(SavedPlace(name: "Work", place: work)))
        try store.write(Places.remove(named: "Home"))
        XCTAssertEqual(try store.read(Places.all()).map(\.name), ["Work"])
        XCTAssertThrowsError(try store.write(Places.remove(named: "Home"))) {
            XCTAssertEqual(($0 as? StoreError)?.code, "not_found")
        }
    }

    func testAnOrdinaryURLInANoteIsKept() throws {
        let saved = SavedPlace(name: "Cafe", place: home, note: "menu at https://example.org/menu")
        try store.write(Places.save(saved))
        XCTAssertEqual(try store.read(Places.all()), [saved])
    }

    func testEmptyNameDirectionsLinkNoteAndNaNCoordinateAreRefused() throws {
        let nan = Place(name: "x", coordinate: Coordinate(latitude: .nan, longitude: 1))
        let bad = [SavedPlace(name: " ", place: home),
                   SavedPlace(name: "Home", place: home, note: "see https://www.google.com/maps/dir/?api=1&origin=61,23&destination=61.4,23.8"),
                   SavedPlace(name: "Nan", place: nan)]
        for place in bad {
            XCTAssertThrowsError(try store.write(Places.save(place)), "\(place)") {
                XCTAssertEqual(($0 as? StoreError)?.code, "invalid_input")
            }
        }
        XCTAssertEqual(try store.read(Places.all()), [])
    }
}
