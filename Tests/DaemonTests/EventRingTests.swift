@testable import Daemon
import Foundation
import XCTest

/// A watcher's waiting events: one block used as a ring, lines out whole and in order.
final class EventRingTests: XCTestCase {
    private func line(_ text: String) -> Data { Data((text + "\n").utf8) }

    /// Reads the oldest line the way the connection sends it: the part before the wrap, then the rest.
    private func takeOldest(_ ring: inout EventRing) -> String? {
        guard let length = ring.oldestLength else { return nil }
        var bytes = ring.withOldest { $0.map { Data($0) } } ?? Data()
        XCTAssertGreaterThan(bytes.count, 0)
        bytes.append(ring.oldest(from: bytes.count))
        XCTAssertEqual(bytes.count, length)
        ring.removeOldest()
        return String(decoding: bytes, as: UTF8.self)
    }

    func testLinesThatWrapAroundTheEndOfTheBlockComeOutWholeAndInOrder() {
        var ring = EventRing(capacity: 40)
        var expected: [String] = []
        var taken: [String] = []
        for index in 0..<200 {
            let text = "event-\(index)" + String(repeating: "x", count: index % 7)
            while !ring.append(line(text)) { taken.append(takeOldest(&ring)!) }
            expected.append(text + "\n")
            XCTAssertLessThanOrEqual(ring.byteCount, 40)
            XCTAssertLessThanOrEqual(ring.allocatedBytes, 40)
        }
        while let oldest = takeOldest(&ring) { taken.append(oldest) }
        XCTAssertEqual(taken, expected)
    }

    func testALineLargerThanTheCapacityIsRefusedAndChangesNothing() {
        var ring = EventRing(capacity: 8)
        XCTAssertTrue(ring.append(line("one")))
        XCTAssertFalse(ring.append(line("too long")))
        XCTAssertEqual(ring.count, 1)
        XCTAssertEqual(ring.byteCount, 4)
    }

    func testTheBlockGrowsOnlyToTheCapacityAndALargeOneIsFreedOnceEmpty() {
        var ring = EventRing(capacity: 256 << 10)
        let event = Data(repeating: 0x61, count: 150)
        for _ in 0..<10_000 {
            while !ring.append(event) { ring.removeOldest() }
        }
        XCTAssertEqual(ring.allocatedBytes, 256 << 10)
        while !ring.isEmpty { ring.removeOldest() }
        XCTAssertEqual(ring.allocatedBytes, 0)
        XCTAssertEqual(ring.byteCount, 0)
    }
}
