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
}
