import Foundation
import Planner
@testable import Streets
import TestSupport
import XCTest

/// Addresses as people type them, on Tampere's real `addr:*` data and a small written region.
final class AddressSearchTests: XCTestCase {
    func index() throws -> PlaceIndex {
        try PlaceIndex(regionDirectory: TampereFixture.shared().regionDirectory)
    }

    /// Every address in the extract (GDAL's reading of it): found as "street number" and as
    /// "number street", as an address, within 30 m of where it is.
    func testEveryTampereAddressIsFoundAsStreetNumberAndAsNumberStreetWithin30Metres() throws {
        let truth = try OSMTruth.features(in: TampereFixture.osmFile, tagsLike: "%addr:housenumber%")
            .filter { $0.tags["addr:street"] != nil }
        XCTAssertGreaterThan(truth.count, 150, "the extract has about 170 house numbers")
        let index = try index()
        for feature in truth {
            let street = try XCTUnwrap(feature.tags["addr:street"]), number = try XCTUnwrap(feature.tags["addr:housenumber"])
            let sameAddress = truth.filter { $0.tags["addr:street"] == street && $0.tags["addr:housenumber"] == number }
            for text in ["\(street) \(number)", "\(number) \(street)"] {
                let results = try index.search(text, limit: 5)
                let first = try XCTUnwrap(results.first, text)
                XCTAssertEqual(first.kind, .address, text)
                XCTAssertNil(first.approximate, text)
                XCTAssertTrue(first.address?.hasPrefix("\(street) \(number)") == true, "\(text): \(first.address ?? "-")")
                let metres = sameAddress.map { $0.coordinate.distance(to: first.coordinate) }.min() ?? .infinity
                XCTAssertLessThan(metres, 30, "\(text) is \(Int(metres)) m from the feature")
            }
        }
    }

    func testAddressWithCityOrPostcodeAfterACommaAndTheNumberAfterACommaIsFound() throws {
        let index = try index()
        // Kyttälänkatu 12, 33100 Tampere is a real address in the extract (Stockmann's car park).
        for text in ["Kyttälänkatu 12, Tampere", "Kyttälänkatu 12, 33100", "Kyttälänkatu 12, 33100 Tampere",
                     "Kyttälänkatu, 12", "kyttalankatu 12"] {
            let first = try XCTUnwrap(try index.search(text, limit: 3).first, text)
            XCTAssertEqual(first.name, "Kyttälänkatu 12", text)
            XCTAssertEqual(first.address, "Kyttälänkatu 12, 33100 Tampere", text)
            XCTAssertEqual(first.kind, .address)
        }
        XCTAssertNotEqual(try index.search("Kyttälänkatu 12, 00100", kinds: [.address], limit: 3).first?.name, "Kyttälänkatu 12",
                          "a postcode that is not the address's rules it out")
    }

    func testAMissingNumberAnswersTheNearestNumberOnTheSameStreetAndSaysItIsApproximate() throws {
        let index = try index()
        let first = try XCTUnwrap(try index.search("Kyttälänkatu 14", limit: 3).first)
        XCTAssertEqual(first.kind, .address)
        XCTAssertTrue(first.name.hasPrefix("Kyttälänkatu "), "never another street: \(first.name)")
        let approximate = try XCTUnwrap(first.approximate)
        XCTAssertTrue(approximate.contains("Kyttälänkatu 14") && approximate.contains("nearest"), approximate)
    }

    func testAMisspeltStreetInAnAddressIsReadAsTheClosestStreet() throws {
        let first = try XCTUnwrap(try index().search("Kyttälänktu 12", limit: 3).first)
        XCTAssertEqual(first.name, "Kyttälänkatu 12")
        XCTAssertEqual(first.match, .fuzzy)
    }

    func testQueryOrdersPeopleUseAreReadIntoStreetAndNumber() {
        func parsed(_ text: String) -> String? {
            AddressQuery(folded: PlaceIndex.fold(text)).map {
                "\($0.street)|\($0.number)|\($0.suffix)|\($0.postcode ?? "-")|\($0.city ?? "-")"
            }
        }
        XCTAssertEqual(parsed("Hämeenkatu 10"), "hameenkatu|10||-|-")
        XCTAssertEqual(parsed("Hämeenkatu 10 B"), "hameenkatu|10|b|-|-")
        XCTAssertEqual(parsed("Hämeenkatu 10b"), "hameenkatu|10|b|-|-")
        XCTAssertEqual(parsed("10 Downing Street"), "downing street|10||-|-")
        XCTAssertEqual(parsed("Avenida Paulista, 1000"), "avenida paulista|1000||-|-")
        XCTAssertEqual(parsed("Avenida Paulista 1000, São Paulo"), "avenida paulista|1000||-|sao paulo")
        XCTAssertEqual(parsed("Hämeenkatu 10, 33100 Tampere"), "hameenkatu|10||33100|tampere")
        XCTAssertNil(parsed("Hämeenkatu"), "no number")
        XCTAssertNil(parsed("10"), "no street")
        XCTAssertNil(parsed("Keskustori A"), "a stop's letter is not a number")
    }

    func testPostcodesOfAnyCountryAreReadWithTheRegionsOwnPostcodes() {
        let known = Set(["01302-000", "1234 AB", "SW1A 1AA", "33100"].map(AddressQuery.normalizedPostcode))
        func read(_ text: String) -> String? {
            AddressQuery(folded: PlaceIndex.fold(text)).map { $0.reading(postcodes: known) }.map { "\($0.postcode ?? "-")|\($0.city ?? "-")" }
        }
        XCTAssertEqual(read("Rua da Consolação 920, 01302-000 São Paulo"), "01302000|sao paulo")
        XCTAssertEqual(read("Damrak 1, 1234 AB Amsterdam"), "1234ab|amsterdam")
        XCTAssertEqual(read("10 Downing Street, London SW1A 1AA"), "sw1a1aa|london")
        XCTAssertEqual(read("Hämeenkatu 10, 33100 Tampere"), "33100|tampere")
        XCTAssertEqual(read("Hämeenkatu 10, 00100 Helsinki"), "00100|helsinki", "a postcode the region lacks is still one")
        XCTAssertEqual(read("Damrak 1, 9999 ZZ Amsterdam"), "9999|zz amsterdam", "unknown: only the words with digits")
    }

    /// A written region: an interpolation way, cafes, an address on a relation and an unnamed ATM.
    func testInterpolatedNumbersCategoriesAndRelationAddressesFromAWrittenRegion() throws {
        let directory = try TampereFixture.temporaryDirectory("written", removedAfter: self)
        let osm = directory.appendingPathComponent("small.osm")
        try SmallOSM.interpolationTown.write(to: osm, atomically: true, encoding: .utf8)
        let extract = try OSMPlaceExtractor.extract(from: osm)
        try PlaceIndex.build(in: directory, places: extract.places, addresses: extract.addresses,
                             interpolations: extract.interpolations)
        let index = try PlaceIndex(regionDirectory: directory)

        // Numbers 2…20 (even) run along Long Road from node 2 to node 20.
        let twelve = try XCTUnwrap(try index.search("12 Long Road", limit: 1).first)
        XCTAssertEqual(twelve.kind, .address)
        XCTAssertEqual(twelve.name, "Long Road 12")
        XCTAssertEqual(twelve.approximate, "interpolated between Long Road 2 and 20")
        XCTAssertEqual(twelve.coordinate.distance(to: SmallOSM.point(eastMetres: 1000 * 10 / 18)), 0, accuracy: 5,
                       "10/18 of the way, as 12 is 10 numbers of 18 from 2 to 20")
        let odd = try XCTUnwrap(try index.search("Long Road 13", limit: 1).first)
        XCTAssertNotNil(odd.approximate, "13 is not on an even-numbered stretch")
        XCTAssertTrue(odd.name.hasPrefix("Long Road "))

        let church = try XCTUnwrap(try index.search("Church Lane 1", limit: 1).first, "an address on a multipolygon relation")
        XCTAssertEqual(church.kind, .address)
        XCTAssertLessThan(church.coordinate.distance(to: SmallOSM.point(eastMetres: 100, northMetres: 150)), 30)

        let cafes = try index.search("cafe", near: SmallOSM.point(eastMetres: 0), limit: 10)
        XCTAssertEqual(cafes.filter { $0.category == "amenity=cafe" }.map(\.name), ["Cafe West", "Kahvila Itä"],
                       "every cafe, the nearest first, whatever its name")
        XCTAssertEqual(try index.search("cafe long road", limit: 10).filter { $0.category == "amenity=cafe" }.map(\.name),
                       ["Cafe West", "Kahvila Itä"], "cafes near Long Road")
        XCTAssertEqual(try index.search("cafe Kahvila", limit: 10).first?.name, "Kahvila Itä", "a category word with a name")
        let atm = try XCTUnwrap(try index.search("atm", limit: 5).first, "an unnamed ATM is found by its category")
        XCTAssertEqual(atm.name, "atm (no name), Long Road", "named for a person by its street")
        XCTAssertEqual(atm.match, .category)
    }

    func testCategoryWordsFindTampereRealPharmaciesAndSupermarketsNearestFirst() throws {
        let truth = try OSMTruth.features(in: TampereFixture.osmFile, tagsLike: "%pharmacy%").filter { $0.name != nil }
        XCTAssertGreaterThan(truth.count, 10)
        let near = TampereFixture.keskustori
        let pharmacies = try index().search("pharmacy", near: near, limit: 100)
        XCTAssertEqual(Set(pharmacies.filter { $0.match == .category }.map(\.name)), Set(truth.compactMap(\.name)),
                       "every pharmacy in the extract")
        XCTAssertTrue(pharmacies.allSatisfy { ["amenity=pharmacy", "healthcare=pharmacy"].contains($0.category ?? "") })
        let distances = pharmacies.prefix(10).compactMap(\.distance)
        XCTAssertEqual(distances, distances.sorted(), "by distance from --near")
        XCTAssertEqual(try index().search("apteekki", near: near, limit: 100).map(\.name), pharmacies.map(\.name), "the Finnish word too")

        let supermarkets = try index().search("supermarket", near: near, limit: 100)
        XCTAssertGreaterThan(supermarkets.count, 10)
        XCTAssertTrue(supermarkets.allSatisfy { $0.category == "shop=supermarket" })
    }
}

/// A small town written as OSM XML, metres from an origin at 60.0 N, 25.0 E.
enum SmallOSM {
    static let origin = Coordinate(latitude: 60.0, longitude: 25.0)

    static func point(eastMetres: Double, northMetres: Double = 0) -> Coordinate {
        Coordinate(latitude: origin.latitude + northMetres / 111_195,
                   longitude: origin.longitude + eastMetres / (111_195 * cos(origin.latitude * .pi / 180)))
    }

    static func node(_ id: Int, _ east: Double, _ north: Double, _ tags: [String: String] = [:], in document: inout OSMDocument) {
        let p = point(eastMetres: east, northMetres: north)
        document.node(id, latitude: p.latitude, longitude: p.longitude, tags: OSMDocument.sorted(tags))
    }

    static var interpolationTown: String {
        var document = OSMDocument(decimals: nil)
        for (id, east, north, tags) in [
            (1, -100.0, 0.0, [:]), (2, 0, 0, ["addr:street": "Long Road", "addr:housenumber": "2"]),
            (3, 1000, 0, ["addr:street": "Long Road", "addr:housenumber": "20"]), (4, 1100, 0, [:]),
            (5, 0, 20, ["amenity": "cafe", "name": "Cafe West"]),
            (6, 1000, 20, ["amenity": "cafe", "name": "Kahvila Itä"]),
            (7, 500, -20, ["amenity": "atm"]),
            (10, 50, 100, [:]), (11, 150, 100, [:]), (12, 150, 200, [:]), (13, 50, 200, [:]),
        ] as [(Int, Double, Double, [String: String])] {
            node(id, east, north, tags, in: &document)
        }
        document.way(100, [1, 4], tags: [("highway", "residential"), ("name", "Long Road")])
        document.way(101, [2, 3], tags: [("addr:interpolation", "even")])
        document.way(102, [10, 11, 12, 13, 10], tags: [("building", "yes")])
        document.relation(200, members: [("way", 102, "outer")],
                          tags: [("type", "multipolygon"), ("building", "church"), ("addr:street", "Church Lane"), ("addr:housenumber", "1")])
        return document.xml
    }
}
