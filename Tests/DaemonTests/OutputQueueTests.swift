@testable import Daemon
import Foundation
import XCTest

/// What waits to be sent to one client: bounded, events dropped oldest first, answers never
/// dropped (the client is disconnected instead).
final class OutputQueueTests: XCTestCase {
    private func line(_ text: String) -> Data { Data((text + "\n").utf8) }

    func testASlowWatcherLosesItsOldestEventsNotItsAnswers() {
        var queue = OutputQueue(limit: 30)
        XCTAssertEqual(queue.append(line("answer-1"), droppable: false, completesRequest: true), .queued)
        XCTAssertEqual(queue.append(line("event-1"), droppable: true, completesRequest: false), .queued)
        XCTAssertEqual(queue.append(line("event-2"), droppable: true, completesRequest: false), .queued)
        XCTAssertEqual(queue.append(line("event-3"), droppable: true, completesRequest: false), .dropped(1))
        XCTAssertLessThanOrEqual(queue.byteCount, 30)
        var sent = ""
        while let chunk = queue.withUnsentBytes({ $0.map { Data($0) } }) {
            sent += String(decoding: chunk, as: UTF8.self)
            _ = queue.markSent(chunk.count)
        }
        XCTAssertEqual(sent, "answer-1\nevent-2\nevent-3\n")
    }

    func testAnswersPastTheLimitOverflowSoThePlainClientIsDisconnected() {
        var queue = OutputQueue(limit: 20)
        XCTAssertEqual(queue.append(line("answer-1"), droppable: false, completesRequest: true), .queued)
        XCTAssertEqual(queue.append(line("answer-2"), droppable: false, completesRequest: true), .queued)
        XCTAssertEqual(queue.append(line("answer-3"), droppable: false, completesRequest: true), .overflow)
    }

    func testOneAnswerLargerThanTheLimitIsSentWholeWhenNothingWaits() {
        var queue = OutputQueue(limit: 4)
        XCTAssertEqual(queue.append(line("a large answer"), droppable: false, completesRequest: true), .queued)
    }

    func testAPartlySentLineIsNeverDropped() {
        var queue = OutputQueue(limit: 16)
        _ = queue.append(line("event-1"), droppable: true, completesRequest: false)
        XCTAssertEqual(queue.markSent(3), 0)
        XCTAssertEqual(queue.append(line("event-2"), droppable: true, completesRequest: false), .queued)
        XCTAssertEqual(queue.append(line("event-3"), droppable: true, completesRequest: false), .dropped(1))
        XCTAssertEqual(queue.withUnsentBytes { $0.map { String(decoding: $0, as: UTF8.self) } }, "nt-1\n")
    }

    func testEventsWaitWithinTheirOwnSmallerLimitWhileAnswersUseTheWholeLimit() {
        var queue = OutputQueue(limit: 100, eventLimit: 16)
        XCTAssertEqual(queue.append(line("event-1"), droppable: true, completesRequest: false), .queued)
        XCTAssertEqual(queue.append(line("event-2"), droppable: true, completesRequest: false), .queued)
        XCTAssertEqual(queue.append(line("event-3"), droppable: true, completesRequest: false), .dropped(1))
        XCTAssertEqual(queue.append(line("answer-1"), droppable: false, completesRequest: true), .queued)
        XCTAssertEqual(queue.append(line("answer-2"), droppable: false, completesRequest: true), .queued)
        XCTAssertEqual(queue.byteCount, 16 + 18, "two events within their 16 bytes, and both answers")
        _ = queue.markSent(8) // event-2 is sent: room for one more event
        XCTAssertEqual(queue.append(line("event-4"), droppable: true, completesRequest: false), .queued)
    }

    func testMarkSentCountsWholeAnswers() {
        var queue = OutputQueue(limit: 100)
        _ = queue.append(line("a1"), droppable: false, completesRequest: true)
        _ = queue.append(line("e1"), droppable: true, completesRequest: false)
        _ = queue.append(line("a2"), droppable: false, completesRequest: true)
        XCTAssertEqual(queue.markSent(4), 1)
        XCTAssertEqual(queue.markSent(5), 1)
        XCTAssertTrue(queue.isEmpty)
        XCTAssertEqual(queue.byteCount, 0)
    }
}
