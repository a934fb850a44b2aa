import Foundation
import Planner
@testable import Streets
import TestSupport
import XCTest

/// The real Tampere extract, imported once per test run into a temporary data directory and
/// shared by every test that only reads it.
struct TampereFixture: Sendable {
    let dataDirectory: URL
    let manifest: RegionManifest

    static let keskustori = Coordinate(latitude: 61.49775, longitude: 23.76100)
    static let railwayStation = Coordinate(latitude: 61.49860, longitude: 23.77360)
    static let hervanta = Coordinate(latitude: 61.45020, longitude: 23.85100)

    /// The shared Tampere data (`SharedData.tampere`).
    static var dataFolder: URL { SharedData.tampere }

    static var osmFile: URL { SharedData.tampereOSM }

    /// A fresh directory, removed when `test` finishes.
    static func temporaryDirectory(_ label: String, removedAfter test: XCTestCase) throws -> URL {
        let url = try temporaryDirectory(label)
        test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    static func temporaryDirectory(_ label: String) throws -> URL { try TemporaryDirectory("streets-\(label)").url }

    /// Where the shared import lives; removed when the test process exits.
    private static let sharedDataDirectory = Result { try TemporaryDirectory("streets-shared") }

    private static let imported: Result<TampereFixture, Error> = Result {
        let directory = try sharedDataDirectory.get().url
        atexit { try? TampereFixture.sharedDataDirectory.get().remove() }
        let result = try RegionImporter(dataDirectory: directory).importRegion(name: "tampere", osm: osmFile) { _ in }
        return TampereFixture(dataDirectory: directory, manifest: result.manifest)
    }

    /// The shared import; fails the calling test (not the whole run) when it could not be made.
    static func shared() throws -> TampereFixture {
        try imported.get()
    }

    var regionDirectory: URL { RegionCatalog(dataDirectory: dataDirectory).directory(of: "tampere") }

    func router(workers: Int = 2) throws -> StreetRouter {
        try StreetRouter(regions: [manifest], dataDirectory: dataDirectory, workers: workers)
    }
}
