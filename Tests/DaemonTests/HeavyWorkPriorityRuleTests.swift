@testable import Daemon
import XCTest

/// The nice value of the daemon's heavy work (`HeavyWorkPriority`): ten levels below the daemon's
/// own, never past the kernel's 19, and nothing lowered when that leaves no level or when
/// `USEFULMAPD_HEAVY_NICE=0` asks for none.
final class HeavyWorkPriorityRuleTests: XCTestCase {
    func testTheHeavyWorkIsTheGivenLevelsBelowTheDaemonsOwnAndNeverPast19() {
        XCTAssertEqual(HeavyWorkPriority(steps: 10, base: 0).nice, 10)
        XCTAssertEqual(HeavyWorkPriority(steps: 10, base: 5).nice, 15, "a daemon started with nice 5")
        XCTAssertEqual(HeavyWorkPriority(steps: 10, base: 15).nice, 19, "clamped to the kernel's lowest priority")
        XCTAssertEqual(HeavyWorkPriority(steps: 10, base: -5).nice, 5, "a daemon given a higher priority by its unit")
    }

    func testNothingIsLoweredWhenNoLevelIsLeftOrNoneIsAsked() {
        XCTAssertNil(HeavyWorkPriority(steps: 0, base: 0).nice, "USEFULMAPD_HEAVY_NICE=0")
        XCTAssertNil(HeavyWorkPriority(steps: 10, base: 19).nice, "already the lowest priority")
        XCTAssertNil(HeavyWorkPriority(steps: -3, base: 0).nice, "a negative step is none")
    }

    func testAThreadIsLoweredToTheHeavyValueOnceAndNeverRaisedBack() throws {
        let priority = HeavyWorkPriority(steps: 3, base: HeavyWorkPriority.currentThreadNice())
        let target = try XCTUnwrap(priority.nice)
        let observed = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var nices: [Int32] = []
        let thread = Thread { // a thread of its own: the test's thread keeps its priority
            priority.lowerCurrentThread()
            nices.append(HeavyWorkPriority.currentThreadNice())
            priority.lowerCurrentThread()
            HeavyWorkPriority.lower(toNice: target - 1) // never back up
            nices.append(HeavyWorkPriority.currentThreadNice())
            observed.signal()
        }
        thread.start()
        observed.wait()
        XCTAssertEqual(nices, [target, target])
    }
}
