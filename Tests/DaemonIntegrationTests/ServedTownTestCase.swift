import Foundation
import HTTPTestSupport
import XCTest

/// A test class each of whose tests gets a daemon harness, not yet started, and the small
/// town's sources (`town.osm`, `town.zip`) in its folder `served`, served over HTTP from
/// 127.0.0.1 by `server`.
class ServedTownTestCase: XCTestCase {
    var served: URL!
    var server: LocalHTTPServer!
    var harness: DaemonHarness!

    override func setUpWithError() throws {
        try super.setUpWithError()
        harness = try makeDaemon()
        served = harness.directory.appendingPathComponent("served", isDirectory: true)
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        try SmallTown.osm.write(to: served.appendingPathComponent("town.osm"), atomically: true, encoding: .utf8)
        _ = try SmallTown.writeFeed(in: served)
        server = try LocalHTTPServer(directory: served)
    }

    override func tearDown() {
        server?.stop()
        harness = nil
        super.tearDown()
    }
}
