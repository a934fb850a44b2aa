@testable import Daemon
import Foundation
import XCTest

/// EEVDF's per-thread slice (`ThreadSlice`, Linux 6.12+): asked for (`USEFULMAPD_IO_SLICE_US`),
/// the I/O threads get the shortest and keep their nice value, and the heavy work the kernel's
/// default, also when it runs on a thread an I/O thread started (a thread inherits its starter's
/// slice). Nothing is asked by default.
final class ThreadSliceTests: XCTestCase {
    /// Runs `body` on a thread of its own (the test's thread keeps its slice) and returns what it gave.
    private func onNewThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: T?
        Thread {
            result = body()
            done.signal()
        }.start()
        done.wait()
        return result!
    }

    /// The kernel's default slice, as a thread that asked for none shows it; skips before Linux 6.12.
    private func kernelDefault() throws -> UInt64 {
        let shown = onNewThread { () -> (refused: Int32, short: UInt64?, kernels: UInt64?) in
            let refused = ThreadSlice.setCurrentThread(nanoseconds: 100_000)
            let short = ThreadSlice.currentThreadSlice()
            ThreadSlice.setCurrentThread(nanoseconds: nil)
            return (refused, short, ThreadSlice.currentThreadSlice())
        }
        try XCTSkipIf(shown.refused != 0 || shown.short != 100_000, "this kernel takes no slice of a thread's own (Linux 6.12+)")
        return try XCTUnwrap(shown.kernels)
    }

    func testTheSliceIsReadFromProcsSchedFile() {
        let text = "policy                                       :                    0\n"
            + "prio                                         :                  120\n"
            + "se.slice                                     :               100000\n"
        XCTAssertEqual(ThreadSlice.slice(inSchedFile: text), 100_000)
        XCTAssertNil(ThreadSlice.slice(inSchedFile: "se.sum_exec_runtime : 0.02\n"), "an older kernel shows none")
    }

    func testASliceAskedForIsClampedToTheKernelsBoundsAndZeroIsTheKernelsDefault() {
        let slice = ThreadSlice(answeringMicroseconds: 10, heavyMicroseconds: 1_000_000)
        XCTAssertEqual(slice.answering, 100_000, "0.1 ms, the shortest the kernel gives")
        XCTAssertEqual(slice.heavy, 100_000_000, "100 ms, the longest")
        XCTAssertNil(ThreadSlice(answeringMicroseconds: 0, heavyMicroseconds: nil).answering, "0: the kernel's, nothing asked")
        XCTAssertEqual(ThreadSlice(answeringMicroseconds: 3_000, heavyMicroseconds: 0).answering, 3_000_000)
    }

    func testEveryThreadKeepsTheKernelsSliceUnlessTheEnvironmentAsks() {
        XCTAssertNil(ThreadSlice.current.answering, "unless \(ThreadSlice.answeringVariable) asks (not set in the tests)")
        XCTAssertNil(ThreadSlice.current.heavy, "unless \(ThreadSlice.heavyVariable) asks")
    }

    /// `USEFULMAPD_IO_SLICE_US=100`, as the bench's runs with the slice.
    private let shortest = ThreadSlice(answeringMicroseconds: 100, heavyMicroseconds: nil)

    func testAnAnsweringThreadGetsTheShortestSliceAndKeepsItsNiceValue() throws {
        let kernels = try kernelDefault()
        XCTAssertGreaterThan(kernels, 100_000)
        let shown = onNewThread { [shortest] () -> (UInt64?, Int32, Int32) in
            HeavyWorkPriority.lower(toNice: HeavyWorkPriority.currentThreadNice() + 1)
            let nice = HeavyWorkPriority.currentThreadNice()
            _ = shortest.giveAnsweringSlice()
            return (ThreadSlice.currentThreadSlice(), nice, HeavyWorkPriority.currentThreadNice())
        }
        XCTAssertEqual(shown.0, 100_000)
        XCTAssertEqual(shown.2, shown.1, "sched_setattr sets the nice value too: the thread's own is kept")
    }

    func testHeavyWorkOnAThreadAnAnsweringThreadStartedGetsTheKernelsSliceBack() throws {
        let kernels = try kernelDefault()
        let shown = onNewThread { [shortest] () -> (inherited: UInt64?, heavy: UInt64?) in
            _ = shortest.giveAnsweringSlice()
            // Swift's shared pool grows from whichever thread queues work: here an I/O thread's child.
            let child = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var seen: (UInt64?, UInt64?) = (nil, nil)
            Thread {
                let inherited = ThreadSlice.currentThreadSlice()
                shortest.giveHeavySlice() // what `HeavyWorkPriority.lowerCurrentThread` does with the daemon's
                seen = (inherited, ThreadSlice.currentThreadSlice())
                child.signal()
            }.start()
            child.wait()
            return seen
        }
        XCTAssertEqual(shown.inherited, 100_000, "a thread inherits its starter's slice")
        XCTAssertEqual(shown.heavy, kernels, "heavy work: the kernel's default slice again")
    }
}
