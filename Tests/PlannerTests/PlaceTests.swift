import XCTest
@testable import Planner

final class PlaceTests: XCTestCase {
    func testPlaceIDIsNameAtLatitudeLongitudeWithExactlySevenDecimals() {
        let place = Place(name: "Tampere", coordinate: Coordinate(latitude: 61.4981, longitude: 23.761))
        XCTAssertEqual(place.id, "Tampere@61.4981000,23.7610000")
    }

    func testPlaceIDRoundsToSevenDecimalsAndKeepsTheSign() {
        let place = Place(name: "x", coordinate: Coordinate(latitude: -33.868819876, longitude: -151.20929))
        XCTAssertEqual(place.id, "x@-33.8688199,-151.2092900")
    }

    func testPlaceIDDoesNotDependOnTheKind() {
        let c = Coordinate(latitude: 1, longitude: 2)
        XCTAssertEqual(Place(name: "a", coordinate: c, kind: .poi).id, Place(name: "a", coordinate: c).id)
    }

    func testPlaceIDDoesNotUseTheMachineLocaleDecimalSeparator() {
        // Formatting is pinned to en_US_POSIX, so a comma-decimal locale can't produce "61,4981000".
        let id = Place(name: "Koti", coordinate: Coordinate(latitude: 61.4981, longitude: 23.761)).id
        XCTAssertEqual(id.split(separator: "@").last?.split(separator: ",").count, 2)
    }

    func testNearlyEqualCoordinatesBeyondSevenDecimalsShareAnID() {
        let a = Place(name: "p", coordinate: Coordinate(latitude: 1.000000001, longitude: 2))
        let b = Place(name: "p", coordinate: Coordinate(latitude: 1.000000004, longitude: 2))
        XCTAssertEqual(a.id, b.id)
    }

    func testThePlaceIDFollowsANameOrCoordinateChanged() {
        var place = Place(name: "a", coordinate: Coordinate(latitude: 1, longitude: 2))
        place.name = "b"
        XCTAssertEqual(place.id, "b@1.0000000,2.0000000")
        place.coordinate = Coordinate(latitude: 3, longitude: 4)
        XCTAssertEqual(place.id, "b@3.0000000,4.0000000")
    }

    func testAPlaceIsEncodedWithoutItsIDAndReadsBackEqual() throws {
        let place = Place(name: "Koti", coordinate: Coordinate(latitude: 61.4981, longitude: 23.761), kind: .saved)
        let encoded = try JSONEncoder().encode(place)
        let fields = try XCTUnwrap(JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        XCTAssertEqual(Set(fields.keys), ["name", "coordinate", "kind"])
        XCTAssertEqual(try JSONDecoder().decode(Place.self, from: encoded), place)
        let withoutKind = try JSONDecoder().decode(Place.self, from: Data(#"{"name":"x","coordinate":{"latitude":1,"longitude":2}}"#.utf8))
        XCTAssertEqual(withoutKind, Place(name: "x", coordinate: Coordinate(latitude: 1, longitude: 2)))
    }
}
