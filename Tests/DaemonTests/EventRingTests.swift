@testable import Daemon
import Foundation
import XCTest

/// A watcher's waiting events: one block used as a ring, lines out whole and in order.
final class EventRingTests: XCTestCase {
    private func line(_ text: String) -> Data { Data((text + "\n").utf8) }

    /// Reads the oldest line the way the connection sends it: the part before the wrap, then the rest.
    private func takeOldest(_ ring: inout EventRing) -> String? {
        guard let length = ring.oldestLength else { return nil }
        let beforeTheWrap = ring.withOldest { $0.map { Data($0) } } ?? Data()
        XCTAssertGreaterThan(beforeTheWrap.count, 0)
        let whole = ring.oldest()
        XCTAssertEqual(whole.prefix(beforeTheWrap.count), beforeTheWrap)
        XCTAssertEqual(whole.count, length)
        ring.removeOldest()
        return String(decoding: whole, as: UTF8.self)
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

    /// Two lines in, one out: the block doubles (4 KiB to 64 KiB) while its lines wrap around its
    /// end, and keeps them whole and in order.
    func testLinesWrappedAroundTheEndOfTheBlockSurviveItGrowing() {
        var ring = EventRing(capacity: 64 << 10)
        var expected: [String] = []
        var taken: [String] = []
        var sizes: Set<Int> = []
        for index in 0..<3_000 {
            let text = "event-\(index)-" + String(repeating: String(UnicodeScalar(UInt8(97 + index % 26))), count: (index * 37) % 700)
            while !ring.append(line(text)) { taken.append(takeOldest(&ring)!) }
            expected.append(text + "\n")
            sizes.insert(ring.allocatedBytes)
            if index % 2 == 1 { taken.append(takeOldest(&ring)!) }
        }
        while let oldest = takeOldest(&ring) { taken.append(oldest) }
        XCTAssertEqual(taken, expected)
        XCTAssertEqual(sizes, [4 << 10, 8 << 10, 16 << 10, 32 << 10, 64 << 10], "grew by doubling to the capacity")
    }

    func testTheBlockGrowsOnlyToTheCapacityAndIsKeptOnceEmptyUntilReleased() {
        var ring = EventRing(capacity: 256 << 10)
        let event = Data(repeating: 0x61, count: 150)
        for _ in 0..<10_000 {
            while !ring.append(event) { ring.removeOldest() }
        }
        XCTAssertEqual(ring.allocatedBytes, 256 << 10)
        ring.releaseIfEmpty()
        XCTAssertEqual(ring.allocatedBytes, 256 << 10, "lines wait: kept")
        while !ring.isEmpty { ring.removeOldest() }
        XCTAssertEqual(ring.allocatedBytes, 256 << 10, "kept for the next events until its owner releases it")
        ring.releaseIfEmpty()
        XCTAssertEqual(ring.allocatedBytes, 0)
        XCTAssertEqual(ring.byteCount, 0)
    }

    func testASmallBlockIsKeptWhenReleasedEmpty() {
        var ring = EventRing(capacity: 256 << 10)
        XCTAssertTrue(ring.append(line("one")))
        ring.removeOldest()
        ring.releaseIfEmpty()
        XCTAssertEqual(ring.allocatedBytes, 4 << 10, "a watcher that keeps up reuses it")
    }
}
