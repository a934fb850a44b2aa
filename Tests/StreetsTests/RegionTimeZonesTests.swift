import Foundation
import Planner
@testable import Streets
import XCTest

/// A region's zone from its position: the nearest principal location of the system's `zone.tab`.
final class RegionTimeZonesTests: XCTestCase {
    func testCoordinatesOfTheTableAreReadWithAndWithoutSeconds() throws {
        let helsinki = try XCTUnwrap(RegionTimeZones.coordinate("+6010+02458"))
        XCTAssertEqual(helsinki.latitude, 60 + 10.0 / 60, accuracy: 1e-9)
        XCTAssertEqual(helsinki.longitude, 24 + 58.0 / 60, accuracy: 1e-9)
        let tokyo = try XCTUnwrap(RegionTimeZones.coordinate("+353916+1394441"))
        XCTAssertEqual(tokyo.latitude, 35 + 39.0 / 60 + 16.0 / 3600, accuracy: 1e-9)
        XCTAssertEqual(tokyo.longitude, 139 + 44.0 / 60 + 41.0 / 3600, accuracy: 1e-9)
        let saoPaulo = try XCTUnwrap(RegionTimeZones.coordinate("-2332-04637"))
        XCTAssertLessThan(saoPaulo.latitude, 0)
        XCTAssertLessThan(saoPaulo.longitude, 0)
        for bad in ["", "+6010", "6010+02458", "+60x0+02458", "+9910+02458"] { XCTAssertNil(RegionTimeZones.coordinate(bad), bad) }
    }

    func testTheSystemTableNamesTheZoneOfCitiesAroundTheWorld() throws {
        let table = try RegionTimeZones.systemTable()
        let cities: [(Double, Double, String)] = [
            (61.4978, 23.7610, "Europe/Helsinki"), (59.3293, 18.0686, "Europe/Stockholm"), (59.4370, 24.7536, "Europe/Tallinn"),
            (35.6812, 139.7671, "Asia/Tokyo"), (-23.5505, -46.6333, "America/Sao_Paulo"), (-33.87, 151.21, "Australia/Sydney"),
            (-34.9011, -56.1645, "America/Montevideo"),
        ]
        for (latitude, longitude, zone) in cities {
            let decision = try XCTUnwrap(table.decision(for: Coordinate(latitude: latitude, longitude: longitude)))
            XCTAssertEqual(decision.zone, zone)
            XCTAssertTrue(decision.source.contains("derived from the region's position") && decision.source.contains(table.file),
                          decision.source)
        }
    }

    func testAPointFarFromEveryPrincipalLocationDecidesNothing() throws {
        XCTAssertNil(try RegionTimeZones.systemTable().decision(for: Coordinate(latitude: -60, longitude: -120)))
    }

    func testOnlyNamesOfTheZoneDatabaseAreKnown() {
        for name in ["Europe/Helsinki", "UTC", "Asia/Tokyo", "America/Sao_Paulo"] { XCTAssertTrue(RegionTimeZones.isKnown(name), name) }
        for name in ["GMT+0200", "Mars/Olympus", "../zone.tab", "/etc/localtime", ""] { XCTAssertFalse(RegionTimeZones.isKnown(name), name) }
    }
}
