import Foundation
import WireProtocol
import XCTest

final class LineFramerTests: XCTestCase {
    func testLinesSplitAcrossReadsAreReassembled() {
        var framer = LineFramer(limit: 100)
        XCTAssertEqual(framer.append(Array("{\"a\":".utf8)), [])
        XCTAssertEqual(framer.append(Array("1}\n{\"b\":2}\n{\"c".utf8)),
                       [.line(Data("{\"a\":1}".utf8)), .line(Data("{\"b\":2}".utf8))])
        XCTAssertEqual(framer.pendingByteCount, 3)
    }

    func testCarriageReturnBeforeNewlineIsDropped() {
        var framer = LineFramer(limit: 100)
        XCTAssertEqual(framer.append(Array("x\r\n".utf8)), [.line(Data("x".utf8))])
    }

    func testLineOverTheLimitIsRefusedEvenBeforeItsNewlineArrives() {
        var framer = LineFramer(limit: 10)
        XCTAssertEqual(framer.append([UInt8](repeating: 65, count: 11)), [.tooLong])
        XCTAssertEqual(framer.append(Array("ok\n".utf8)), [], "nothing is read after an overflow")
    }

    func testLineExactlyAtTheLimitIsAccepted() {
        var framer = LineFramer(limit: 10)
        let events = framer.append([UInt8](repeating: 65, count: 10) + [0x0A])
        XCTAssertEqual(events, [.line(Data(repeating: 65, count: 10))])
    }

    func testOversizedLineAfterGoodOnesStillDeliversTheGoodOnes() {
        var framer = LineFramer(limit: 5)
        let events = framer.append(Array("ab\n0123456789\n".utf8))
        XCTAssertEqual(events, [.line(Data("ab".utf8)), .tooLong])
    }

    func testDefaultLimitIsOneMebibyte() {
        XCTAssertEqual(LineFramer().limit, 1_048_576)
    }

    /// A client takes the lines one at a time (`add`, then `nextEvent()` until nil): the same
    /// lines as `append` gives, byte by byte or all at once, and nothing is lost between them.
    func testLinesTakenOneAtATimeAreTheLinesAppendGives() {
        let stream = Array("{\"a\":1}\n\n{\"b\":\"x\"}\r\n{\"c\":[1,2,3]}\npartial".utf8)
        var whole = LineFramer(limit: 100)
        let expected = whole.append(stream)
        XCTAssertEqual(expected.count, 4)
        for chunk in [1, 2, 3, 7, stream.count] {
            var framer = LineFramer(limit: 100)
            var events: [LineFramer.Event] = []
            for start in stride(from: 0, to: stream.count, by: chunk) {
                framer.add(stream[start..<min(start + chunk, stream.count)])
                while let event = framer.nextEvent() { events.append(event) }
            }
            XCTAssertEqual(events, expected, "chunks of \(chunk)")
            XCTAssertEqual(framer.pendingByteCount, "partial".utf8.count, "chunks of \(chunk)")
        }
    }

    func testALineTakenOneAtATimeOverTheLimitIsRefusedOnce() {
        var framer = LineFramer(limit: 5)
        framer.add(Array("ab\n0123".utf8))
        XCTAssertEqual(framer.nextEvent(), .line(Data("ab".utf8)))
        XCTAssertNil(framer.nextEvent())
        framer.add(Array("45".utf8))
        XCTAssertEqual(framer.nextEvent(), .tooLong)
        framer.add(Array("ok\n".utf8))
        XCTAssertNil(framer.nextEvent(), "nothing is read after an overflow")
    }
}
