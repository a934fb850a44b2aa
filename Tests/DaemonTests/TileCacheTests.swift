@testable import Daemon
import Foundation
import TestSupport
import XCTest

/// The web map's square cache (issue 42): capped at its limit, it removes the squares used
/// longest ago (by their last read or write) instead of emptying itself whole, and a restart
/// keeps that order.
final class TileCacheTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = try DaemonHarness.temporaryDirectory().appendingPathComponent("web-tiles")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder.deletingLastPathComponent())
    }

    func square(_ byte: UInt8) -> Data { Data(repeating: byte, count: 100) }

    func kept(_ cache: TileCache, _ paths: [String]) -> [String] {
        paths.filter { FileManager.default.fileExists(atPath: cache.folder.appendingPathComponent($0).path) }
    }

    func testPastItsLimitTheCacheRemovesTheSquaresUsedLongestAgoAndKeepsTheRest() {
        let cache = TileCache(folder: folder, limitBytes: 400)
        let paths = (1...4).map { "tampere/v1/14/\($0)/1.png" }
        for (index, path) in paths.enumerated() { cache.write(square(UInt8(index)), at: path) }
        XCTAssertEqual(cache.read(paths[0]), square(0), "the first square was read again: now the most recently used")
        cache.write(square(9), at: "tampere/v1/14/5/1.png")  // 500 bytes: down to at most 300
        XCTAssertEqual(kept(cache, paths + ["tampere/v1/14/5/1.png"]), [paths[0], paths[3], "tampere/v1/14/5/1.png"],
                       "the two squares used longest ago went; the one read again and the newest stayed")
        XCTAssertEqual(cache.keptBytes, 300)
        XCTAssertNil(cache.read(paths[1]), "an evicted square is drawn again")
    }

    func testARestartedCacheKnowsItsSquaresAndTheirOrder() throws {
        let first = TileCache(folder: folder, limitBytes: 300)
        let paths = (1...3).map { "tampere/v1/15/\($0)/2.png" }
        for (index, path) in paths.enumerated() {
            first.write(square(UInt8(index)), at: path)
            // Modification times a second apart, as squares written at different times have.
            let file = folder.appendingPathComponent(path).path
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000 + Double(index))],
                                                  ofItemAtPath: file)
        }
        let restarted = TileCache(folder: folder, limitBytes: 300)
        XCTAssertEqual(restarted.keptBytes, 300, "the squares on disk count against the limit after a restart")
        restarted.write(square(7), at: "tampere/v1/15/4/2.png")  // 400 bytes: down to at most 225
        XCTAssertEqual(kept(restarted, paths + ["tampere/v1/15/4/2.png"]), [paths[2], "tampere/v1/15/4/2.png"],
                       "the two oldest squares on disk went first")
    }

    func testASquareLargerThanTheLimitIsNotKept() {
        let cache = TileCache(folder: folder, limitBytes: 50)
        cache.write(square(1), at: "tampere/v1/16/1/1.png")
        XCTAssertNil(cache.read("tampere/v1/16/1/1.png"))
        XCTAssertEqual(cache.keptBytes, 0)
    }
}
