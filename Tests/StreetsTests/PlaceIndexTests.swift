import Foundation
import Planner
@testable import Streets
import XCTest

/// Text and nearby search over the places imported from the real Tampere extract.
final class PlaceIndexTests: XCTestCase {
    func index() throws -> PlaceIndex {
        try PlaceIndex(regionDirectory: TampereFixture.shared().regionDirectory)
    }

    /// A copy of the shared index that a test may add stops to.
    func writableCopy() throws -> URL {
        let directory = try TampereFixture.temporaryDirectory("places", removedAfter: self)
        try FileManager.default.copyItem(
            at: TampereFixture.shared().regionDirectory.appendingPathComponent(PlaceIndex.fileName),
            to: directory.appendingPathComponent(PlaceIndex.fileName))
        return directory
    }

    func testPrefixAsYouTypeFindsKeskustoriFromKeskus() throws {
        let results = try index().search("keskus", near: nil, kinds: nil, limit: 5)
        XCTAssertTrue(results.contains { $0.name == "Keskustori" }, "\(results.map(\.name))")
    }

    func testSearchIgnoresCaseAndDiacriticsSoHameenkatuFindsHämeenkatu() throws {
        let results = try index().search("hameenkatu", near: nil, kinds: nil, limit: 5)
        XCTAssertEqual(results.first?.name, "Hämeenkatu")
        XCTAssertEqual(results.first?.kind, .street)
        let shouted = try index().search("HÄMEENKATU", near: nil, kinds: nil, limit: 5)
        XCTAssertEqual(shouted.first?.name, "Hämeenkatu")
    }

    func testStreetMadeOfManyWaysIsOneResult() throws {
        let results = try index().search("Hämeenkatu", near: nil, kinds: [.street], limit: 50)
        XCTAssertEqual(results.filter { $0.name == "Hämeenkatu" }.count, 1, "\(results.map(\.name))")
    }

    func testWholeNameMatchRanksBeforeLongerNamesContainingIt() throws {
        let results = try index().search("hämeenkatu", near: nil, kinds: nil, limit: 10)
        XCTAssertGreaterThan(results.count, 1, "the supermarket named after the street matches too")
        XCTAssertEqual(results.first?.name, "Hämeenkatu")
    }

    func testKindFilterLimitsResults() throws {
        let pois = try index().search("hameenkatu", near: nil, kinds: [.poi], limit: 10)
        XCTAssertFalse(pois.isEmpty)
        XCTAssertTrue(pois.allSatisfy { $0.kind == .poi })
        XCTAssertEqual(try index().search("hameenkatu", near: nil, kinds: [], limit: 10), [])
    }

    func testEqualMatchesAreRankedByDistanceToTheNearPoint() throws {
        let near = TampereFixture.hervanta
        let results = try index().search("tampereen", near: near, kinds: nil, limit: 20)
        XCTAssertGreaterThan(results.count, 3)
        XCTAssertTrue(results.allSatisfy { $0.distance != nil }, "every result carries its distance to the near point")
        // Names having the text as a whole word rank first (trial 49: "Kauppi" is the word of
        // "Hotelli Kauppi" before the start of "Kauppiaankatu"); within each match, nearer steps
        // first, and within a step the more important place, then the nearer.
        let hasTheWord = results.map { PlaceIndex.words(PlaceIndex.fold($0.name)).contains("tampereen") }
        XCTAssertEqual(hasTheWord, hasTheWord.sorted { $0 && !$1 }, "\(results.map(\.name))")
        for (a, b) in zip(results, results.dropFirst()) where a.match == b.match {
            let keyA = (PlaceRanking.nearness(a.distance), -a.importance), keyB = (PlaceRanking.nearness(b.distance), -b.importance)
            XCTAssertTrue(keyA <= keyB, "\(a.name) before \(b.name)")
            if keyA == keyB { XCTAssertLessThanOrEqual(a.distance ?? 0, b.distance ?? 0) }
        }
    }

    func testSearchWithoutLettersFindsNothingAndOverlongTextIsRefusedNamingTheLimit() throws {
        XCTAssertEqual(try index().search("  -- ", near: nil, kinds: nil, limit: 5), [])
        XCTAssertThrowsError(try index().search("keskus", near: nil, kinds: nil, limit: 0))
        XCTAssertThrowsError(try index().search(String(repeating: "a", count: 10_000), near: nil, kinds: nil, limit: 5)) { error in
            XCTAssertEqual((error as? StreetsError)?.code, "invalid_query")
            XCTAssertTrue("\(error)".contains("\(PlaceIndex.maxQueryLength)"), "\(error)")
        }
    }

    func testNearbyStopsAroundKeskustoriAreWithinTheRadiusAndNearestFirst() throws {
        let directory = try writableCopy()
        let centre = TampereFixture.keskustori
        func offset(_ metresNorth: Double, _ metresEast: Double) -> Coordinate {
            Coordinate(latitude: centre.latitude + metresNorth / 111_195,
                       longitude: centre.longitude + metresEast / (111_195 * cos(centre.latitude * .pi / 180)))
        }
        let stops = [
            IndexedStop(id: "far", name: "Far away", coordinate: offset(2_000, 0), modes: ["bus"]),
            IndexedStop(id: "c", name: "Keskustori C", coordinate: offset(0, -420), modes: ["bus"]),
            IndexedStop(id: "a", name: "Keskustori A", coordinate: offset(60, 20), modes: ["tram", "bus"]),
            IndexedStop(id: "edge", name: "Just outside", coordinate: offset(0, 520), modes: ["bus"]),
            IndexedStop(id: "b", name: "Keskustori B", coordinate: offset(-200, 0), modes: ["bus"]),
        ]
        try PlaceIndex.addStops(stops, toRegionDirectory: directory)
        let index = try PlaceIndex(regionDirectory: directory)
        let nearby = try index.nearbyStops(around: centre, radius: 500, limit: 10)
        XCTAssertEqual(nearby.map(\.stopID), ["a", "b", "c"])
        for stop in nearby {
            XCTAssertLessThanOrEqual(stop.coordinate.distance(to: centre), 500)
            XCTAssertEqual(try XCTUnwrap(stop.distance), stop.coordinate.distance(to: centre), accuracy: 0.01)
            XCTAssertEqual(stop.kind, .stop)
        }
        XCTAssertEqual(nearby.first?.transitModes, ["bus", "tram"])
        XCTAssertEqual(try index.nearbyStops(around: centre, radius: 500, limit: 2).map(\.stopID), ["a", "b"])
        XCTAssertEqual(nearby.first?.place.kind, .transitStop)
    }

    func testStopsAreSearchableByNameWithTheirModesAndReplacedByID() throws {
        let directory = try writableCopy()
        try PlaceIndex.addStops([IndexedStop(id: "0001", name: "Keskustori H", coordinate: TampereFixture.keskustori,
                                             modes: ["tram"])], toRegionDirectory: directory)
        try PlaceIndex.addStops([IndexedStop(id: "0001", name: "Keskustori H", coordinate: TampereFixture.keskustori,
                                             modes: ["tram", "bus"])], toRegionDirectory: directory)
        let index = try PlaceIndex(regionDirectory: directory)
        let stops = try index.search("keskustori h", near: nil, kinds: [.stop], limit: 10)
        XCTAssertEqual(stops.count, 1, "adding a stop with a known id replaces it")
        XCTAssertEqual(stops.first?.transitModes, ["bus", "tram"])
        XCTAssertEqual(try index.counts()[.stop], 1)
    }

    func testStopsOfTwoFeedsSharingAnIDAreBothIndexedAndKeepTheirFeedsID() throws {
        let directory = try writableCopy()
        try PlaceIndex.addStops([IndexedStop(id: "1", feed: 1, name: "Keskustori bus", coordinate: TampereFixture.keskustori, modes: ["bus"]),
                                 IndexedStop(id: "1", feed: 2, name: "Keskustori tram", coordinate: TampereFixture.keskustori, modes: ["tram"])],
                                toRegionDirectory: directory)
        let index = try PlaceIndex(regionDirectory: directory)
        let stops = try index.search("keskustori", near: nil, kinds: [.stop], limit: 10)
        XCTAssertEqual(stops.map(\.name).sorted(), ["Keskustori bus", "Keskustori tram"])
        XCTAssertEqual(stops.map(\.stopID), ["1", "1"])
    }

    func testInvalidStopIsRejectedAndNothingIsWritten() throws {
        let directory = try writableCopy()
        let good = IndexedStop(id: "1", name: "Good", coordinate: TampereFixture.keskustori, modes: ["bus"])
        let bad = IndexedStop(id: "2", name: "Bad", coordinate: Coordinate(latitude: 123, longitude: 0), modes: ["bus"])
        XCTAssertThrowsError(try PlaceIndex.addStops([good, bad], toRegionDirectory: directory)) { error in
            XCTAssertEqual((error as? StreetsError)?.code, "invalid_stop")
        }
        XCTAssertNil(try PlaceIndex(regionDirectory: directory).counts()[.stop])
    }

    func testMissingIndexIsAClearError() throws {
        let directory = try TampereFixture.temporaryDirectory("empty", removedAfter: self)
        XCTAssertThrowsError(try PlaceIndex(regionDirectory: directory)) { error in
            XCTAssertEqual((error as? StreetsError)?.code, "place_index_missing")
        }
    }
    /// Issue 43: the index is read through a read-only map of `places.sqlite` (its pages
    /// file-backed, shared with the kernel's page cache and dropped under pressure) rather than
    /// copied into a 2 MB SQLite page cache on the heap per region; it answers as before.
    func testTheIndexIsReadThroughAMapOfItsFileAndAnswersAsBefore() throws {
        let directory = try writableCopy()
        let file = directory.appendingPathComponent(PlaceIndex.fileName).resolvingSymlinksInPath().path
        let index = try PlaceIndex(regionDirectory: directory)
        let results = try index.search("keskus", near: nil, kinds: nil, limit: 5)
        XCTAssertTrue(results.contains { $0.name == "Keskustori" }, "\(results.map(\.name))")
        // Read to its end through a file handle: `String(contentsOfFile:)` reads a /proc file
        // (size 0) only as far as its first page, where this mapping need not be.
        let maps = String(decoding: try XCTUnwrap(FileHandle(forReadingAtPath: "/proc/self/maps")?.readToEnd()), as: UTF8.self)
        XCTAssertTrue(maps.split(separator: "\n").contains { $0.hasSuffix(file) && $0.contains(" r--s ") },
                      "a shared read-only mapping of \(file)")
        withExtendedLifetime(index) {}
    }

    /// A damaged index (here cut to half its length) is refused with a clear error when it is
    /// opened or read, never read past its end (a mapped file read past its end would be SIGBUS).
    func testATruncatedIndexIsRefusedWithAClearErrorNotACrash() throws {
        let directory = try writableCopy()
        let file = directory.appendingPathComponent(PlaceIndex.fileName)
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
        XCTAssertEqual(truncate(file.path, off_t(size / 2)), 0)
        var errors: [StreetsError] = []
        do {
            let index = try PlaceIndex(regionDirectory: directory)
            for text in ["keskus", "hameenkatu 10", "tampere"] {
                do { _ = try index.search(text, near: TampereFixture.hervanta, kinds: nil, limit: 20) } catch let error as StreetsError {
                    errors.append(error)
                }
            }
            do { _ = try index.reverse(TampereFixture.hervanta) } catch let error as StreetsError { errors.append(error) }
        } catch let error as StreetsError {
            errors.append(error)
        }
        XCTAssertFalse(errors.isEmpty, "the half file was read as if whole")
        for error in errors {
            XCTAssertEqual(error.code, "place_index_failed", "\(error)")
            XCTAssertTrue(error.description.contains("malformed") || error.description.contains("corrupt"), error.description)
        }
    }
}
