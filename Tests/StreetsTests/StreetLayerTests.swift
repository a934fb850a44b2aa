import Foundation
import Planner
@testable import Streets
import TestSupport
import XCTest

/// The light street layer the map pictures are drawn on: which ways it keeps, how it is stored.
final class StreetLayerTests: XCTestCase {
    /// Eleven nodes 111 m apart going north, shared by ways with different tags.
    func writeOSM(in directory: URL) throws -> URL {
        var osm = OSMDocument(decimals: 5)
        for k in 0...10 { osm.node(k + 1, latitude: 61.0 + Double(k) * 0.001, longitude: 24.0) }
        osm.way(100, Array(1...11), tags: [("highway", "primary"), ("name", "Pääkatu")])
        osm.way(101, [1, 2, 3], tags: [("highway", "residential")])  // unnamed: drawn, not a place
        osm.way(102, [3, 4], tags: [("highway", "footway")])
        osm.way(103, [4, 5], tags: [("highway", "bus_stop")])  // not a street
        osm.way(104, [5, 6, 7, 5], tags: [("building", "yes"), ("name", "Talo")])
        return try osm.write(to: directory.appendingPathComponent("town.osm"))
    }

    func testEveryDrawnHighwayIsKeptSimplifiedWithItsClassAndNothingElse() throws {
        let directory = try TampereFixture.temporaryDirectory("street-layer", removedAfter: self)
        let extract = try OSMPlaceExtractor.extract(from: try writeOSM(in: directory))
        XCTAssertEqual(extract.streets.map(\.streetClass), [.major, .minor, .path])
        XCTAssertEqual(extract.streets[0].points.count, 2, "a straight street of 11 nodes keeps its two ends")
        XCTAssertEqual(extract.streets[0].points.first, Coordinate(latitude: 61.0, longitude: 24.0))
        XCTAssertEqual(extract.streets[0].points.last, Coordinate(latitude: 61.01, longitude: 24.0))
        XCTAssertEqual(Set(extract.places.map(\.name)), ["Pääkatu", "Talo"], "the place index is unchanged")
    }

    func testTheLayerReadsBackAsWrittenAndABrokenFileIsAnError() throws {
        let directory = try TampereFixture.temporaryDirectory("street-layer-file", removedAfter: self)
        XCTAssertNil(try StreetLayer.read(regionDirectory: directory), "a region imported before the layer has none")
        let lines = [StreetLine(streetClass: .secondary, points: [Coordinate(latitude: 61.5, longitude: 23.75),
                                                                   Coordinate(latitude: 61.501234, longitude: -0.000001)]),
                     StreetLine(streetClass: .path, points: [Coordinate(latitude: -33.9, longitude: 151.2)])]
        try StreetLayer.write(lines, regionDirectory: directory)
        XCTAssertEqual(try StreetLayer.read(regionDirectory: directory), lines)

        let file = directory.appendingPathComponent(StreetLayer.fileName)
        let whole = try Data(contentsOf: file)
        try whole.dropLast(5).write(to: file)
        XCTAssertThrowsError(try StreetLayer.read(regionDirectory: directory)) { error in
            XCTAssertEqual((error as? StreetsError)?.code, "street_layer_unreadable")
        }
        try Data("not a street layer".utf8).write(to: file)
        XCTAssertThrowsError(try StreetLayer.read(regionDirectory: directory)) { error in
            XCTAssertEqual((error as? StreetsError)?.code, "street_layer_unreadable")
        }
    }

    func testTheTampereImportStoresAStreetLayerOfEveryClassInsideTheRegion() throws {
        let fixture = try TampereFixture.shared()
        let streets = try XCTUnwrap(try StreetLayer.read(regionDirectory: fixture.regionDirectory))
        XCTAssertEqual(Set(streets.map(\.streetClass)), Set(StreetClass.allCases))
        XCTAssertGreaterThan(streets.count, 10_000)
        let box = fixture.manifest.boundingBox
        XCTAssertTrue(streets.allSatisfy { $0.points.count >= 2 && $0.points.allSatisfy { box.contains($0, margin: 1) } })
    }
}
