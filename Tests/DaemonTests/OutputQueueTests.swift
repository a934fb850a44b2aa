@testable import Daemon
import Foundation
import TestSupport
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

    func testAWatcherThatNeverReadsHoldsItsEventsInOneBlockOfAtMostTheEventLimit() {
        var queue = OutputQueue(limit: 4 << 20, eventLimit: 256 << 10)
        var dropped = 0
        for index in 0..<20_000 {
            let event = line(#"{"method":"event","params":{"n":\#(index)}}"# + String(repeating: " ", count: 120))
            if case .dropped(let count) = queue.append(event, droppable: true, completesRequest: false) { dropped += count }
        }
        XCTAssertLessThanOrEqual(queue.byteCount, 256 << 10)
        XCTAssertEqual(queue.eventBlockBytes, 256 << 10, "one block, not an allocation per event")
        var sent = Data()
        while let chunk = queue.withUnsentBytes({ $0.map { Data($0) } }) {
            sent.append(chunk)
            _ = queue.markSent(chunk.count)
        }
        let lines = String(decoding: sent, as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(lines.count + dropped, 20_000)
        XCTAssertTrue(lines.last?.contains(#""n":19999}"#) == true, "the newest events are kept")
        XCTAssertEqual(queue.eventBlockBytes, 0, "freed once sent")
    }

    func testAnEventLargerThanTheEventLimitIsDroppedAloneKeepingTheWaitingOnes() {
        var queue = OutputQueue(limit: 100, eventLimit: 16)
        XCTAssertEqual(queue.append(line("event-1"), droppable: true, completesRequest: false), .queued)
        XCTAssertEqual(queue.append(line("event-2"), droppable: true, completesRequest: false), .queued)
        XCTAssertEqual(queue.append(line("a-larger-event-3"), droppable: true, completesRequest: false), .dropped(1))
        XCTAssertEqual(sendAll(&queue), "event-1\nevent-2\n")
    }

    func testAnEventTheAnswersLeaveNoRoomForIsDroppedAloneKeepingTheWaitingOnes() {
        var queue = OutputQueue(limit: 30)
        XCTAssertEqual(queue.append(line("a-long-answer-0001"), droppable: false, completesRequest: true), .queued)
        XCTAssertEqual(queue.append(line("e1"), droppable: true, completesRequest: false), .queued)
        XCTAssertEqual(queue.append(line("event-00002"), droppable: true, completesRequest: false), .dropped(1),
                       "19 bytes of answer and 12 of event pass 30 even without e1")
        XCTAssertEqual(sendAll(&queue), "a-long-answer-0001\ne1\n")
    }

    /// Each event drops the one before (each is over half the event limit) and none is sent.
    func testAWatcherThatNeverReadsHoldsABoundedNumberOfEntries() {
        var queue = OutputQueue(limit: 1_000, eventLimit: 16)
        for index in 0..<10_000 {
            let expected: OutputQueue.Admission = index == 0 ? .queued : .dropped(1)
            XCTAssertEqual(queue.append(line("event-\(index % 10)-"), droppable: true, completesRequest: false), expected)
        }
        XCTAssertLessThanOrEqual(queue.entriesHeld, 2)
        XCTAssertEqual(sendAll(&queue), "event-9-\n")
    }

    func testABusyWatchersEventBlockIsKeptUntilNothingWaits() {
        var queue = OutputQueue(limit: 1 << 20, eventLimit: 256 << 10)
        let event = Data(repeating: 0x61, count: 149) + Data("\n".utf8)
        for _ in 0..<200 { XCTAssertEqual(queue.append(event, droppable: true, completesRequest: false), .queued) }
        XCTAssertEqual(queue.append(line("answer"), droppable: false, completesRequest: true), .queued)
        XCTAssertEqual(queue.eventBlockBytes, 32 << 10)
        XCTAssertEqual(queue.markSent(200 * 150 + 3), 0, "every event and half the answer went")
        XCTAssertEqual(queue.eventBlockBytes, 32 << 10, "the answer is still going out: kept for the next events")
        XCTAssertEqual(queue.append(event, droppable: true, completesRequest: false), .queued)
        XCTAssertEqual(queue.markSent(4 + 150), 1)
        XCTAssertTrue(queue.isEmpty)
        XCTAssertEqual(queue.eventBlockBytes, 0, "nothing waits: freed")
    }

    /// Random appends and sends of random sizes, over several seeds: every line sent is whole, in
    /// the order queued, every answer is sent, and each event is either sent or counted as
    /// dropped. The limits are small and the reading slow enough that answers push events out,
    /// and events go from behind an answer that has not started to go out.
    func testLinesSentInRandomPiecesArriveWholeInOrderWithEveryAnswer() {
        var eventsDroppedBehindAnUnsentAnswer = 0, answersThatDroppedEvents = 0
        for seed: UInt64 in 1...20 {
            var random = SeededRandom(seed: seed)
            var queue = OutputQueue(limit: 160, eventLimit: 120)
            var queued: [String] = [], answers: Set<String> = [], dropped = 0, eventsQueued = 0
            var sent = Data(), answered = 0
            for index in 0..<600 {
                let isAnswer = Int.random(in: 0..<8, using: &random) == 0 && queue.answerCount < 3
                let text = (isAnswer ? "answer-" : "event-") + "\(index)" + String(repeating: ".", count: Int.random(in: 0..<20, using: &random))
                let headIsAnAnswerNotStarted = (sent.last ?? 0x0A) == 0x0A
                    && queue.withUnsentBytes { $0.map { $0.starts(with: "answer-".utf8) } ?? false }
                switch queue.append(line(text), droppable: !isAnswer, completesRequest: isAnswer) {
                case .queued: break
                case .dropped(let count):
                    dropped += count
                    if isAnswer { answersThatDroppedEvents += 1 }
                    // An answer drops only waiting events; an event, more than itself.
                    if headIsAnAnswerNotStarted && (isAnswer || count > 1) { eventsDroppedBehindAnUnsentAnswer += 1 }
                case .overflow: XCTFail("seed \(seed): answers stay within the limit here")
                }
                queued.append(text)
                if isAnswer { answers.insert(text) } else { eventsQueued += 1 }
                // Less than a line on average, none at times: the queue fills.
                var budget = Int.random(in: 0..<4, using: &random) == 0 ? 0 : Int.random(in: 0..<32, using: &random)
                while budget > 0, let chunk = queue.withUnsentBytes({ $0.map { Data($0.prefix(budget)) } }), !chunk.isEmpty {
                    sent.append(chunk)
                    answered += queue.markSent(chunk.count)
                    budget -= chunk.count
                }
                XCTAssertLessThanOrEqual(queue.byteCount, 160, "seed \(seed)")
            }
            sent.append(Data(sendAll(&queue, answered: &answered).utf8))
            XCTAssertTrue(queue.isEmpty, "seed \(seed)")
            XCTAssertEqual(queue.byteCount, 0, "seed \(seed)")
            let lines = String(decoding: sent, as: UTF8.self).split(separator: "\n").map(String.init)
            let order = Dictionary(uniqueKeysWithValues: queued.enumerated().map { ($1, $0) })
            let positions = lines.compactMap { order[$0] }
            XCTAssertEqual(positions.count, lines.count, "seed \(seed): every line sent is one queued, whole")
            XCTAssertEqual(positions, positions.sorted(), "seed \(seed): in the order queued")
            XCTAssertEqual(Set(positions).count, positions.count, "seed \(seed): each once")
            XCTAssertTrue(answers.isSubset(of: Set(lines)), "seed \(seed): no answer is lost")
            XCTAssertEqual(answered, answers.count, "seed \(seed)")
            XCTAssertEqual(lines.count - answers.count + dropped, eventsQueued, "seed \(seed): each event sent or counted dropped")
            XCTAssertGreaterThan(dropped, 0, "seed \(seed): the limits were reached")
        }
        XCTAssertGreaterThan(answersThatDroppedEvents, 0, "answers pushed events out")
        XCTAssertGreaterThan(eventsDroppedBehindAnUnsentAnswer, 0, "events were dropped from behind an answer not yet going out")
    }

    /// Sends everything waiting, in whole pieces as `withUnsentBytes` gives them.
    private func sendAll(_ queue: inout OutputQueue) -> String {
        var answered = 0
        return sendAll(&queue, answered: &answered)
    }

    private func sendAll(_ queue: inout OutputQueue, answered: inout Int) -> String {
        var sent = Data()
        while let chunk = queue.withUnsentBytes({ $0.map { Data($0) } }) {
            sent.append(chunk)
            answered += queue.markSent(chunk.count)
        }
        return String(decoding: sent, as: UTF8.self)
    }
}

