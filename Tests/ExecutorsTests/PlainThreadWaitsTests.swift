import Executors
import Foundation
import Synchronization
import XCTest

/// What a plain thread waits on, from the one executor file: a `Gate` lets every waiter
/// through once open; a `Mailbox` hands values over in order, and a deadline ends a wait for
/// one that never comes. (Deadlines here bound the test; nothing is asserted about time.)
final class PlainThreadWaitsTests: XCTestCase {
    func testAnOpenGateLetsEveryWaiterThroughAndStaysOpen() {
        let gate = Gate()
        XCTAssertFalse(gate.wait(seconds: 0), "a closed gate holds a waiter until its deadline")
        let through = Mailbox<Int>()
        for number in 0..<3 {
            XCTAssertTrue(startThread(named: "test-gate-\(number)") {
                gate.wait()
                through.put(number)
            })
        }
        gate.open()
        var passed: [Int] = []
        for _ in 0..<3 {
            guard let number = through.take(waitingUpTo: 60) else { return XCTFail("a waiter never got through the open gate") }
            passed.append(number)
        }
        XCTAssertEqual(passed.sorted(), [0, 1, 2])
        XCTAssertTrue(gate.wait(seconds: 0), "the gate stays open")
        XCTAssertTrue(gate.isOpen)
    }

    func testAMailboxHandsValuesOverInOrder() {
        let mailbox = Mailbox<Int>()
        XCTAssertNil(mailbox.take(waitingUpTo: 0), "nothing was put")
        XCTAssertTrue(startThread(named: "test-mailbox") { for number in 1...5 { mailbox.put(number) } })
        var taken: [Int] = []
        while taken.count < 5 {
            let more = mailbox.takeAll(waitingUpTo: 60)
            guard !more.isEmpty else { return XCTFail("the values never came") }
            taken += more
        }
        XCTAssertEqual(taken, [1, 2, 3, 4, 5])
        XCTAssertEqual(mailbox.count, 0)
        XCTAssertEqual(mailbox.takeAll(), [])
    }
}
