@testable import Daemon
import Synchronization
import XCTest

/// Issue 26 (speed): counting `/proc/self/fd` on every accept was a tenth of a new
/// connection's cost. Far from the open-file limit the last count stands in (plus three
/// descriptors for each connection admitted since and a margin for others' files); near it,
/// every accept counts, so that the table never fills.
final class DescriptorBudgetTests: XCTestCase {
    func testFarFromTheLimitTheLastCountStandsInForTheNextAdmissions() {
        let counts = Mutex(0)
        let budget = DescriptorBudget(recountSeconds: 3600, countOpen: { counts.withLock { $0 += 1 }; return 20 },
                                      readLimit: { 100_000 })
        for _ in 0..<100 { XCTAssertTrue(budget.admitsConnection().admitted) }
        XCTAssertEqual(counts.withLock { $0 }, 1)
    }

    func testNearTheLimitEveryAdmissionCountsAndTheCountRefuses() {
        let counts = Mutex(0), open = Mutex(100)
        let budget = DescriptorBudget(recountSeconds: 3600, countOpen: { counts.withLock { $0 += 1 }; return open.withLock { $0 } },
                                      readLimit: { 256 })
        // 256 = 125 open + 3 for the connection + 64 reserved + 64 for passed files (a quarter of the limit).
        XCTAssertTrue(budget.admitsConnection().admitted)
        XCTAssertTrue(budget.admitsConnection().admitted)
        XCTAssertEqual(counts.withLock { $0 }, 2, "each admission counted")
        open.withLock { $0 = 125 }
        XCTAssertTrue(budget.admitsConnection().admitted)
        open.withLock { $0 = 126 }
        let refused = budget.admitsConnection()
        XCTAssertFalse(refused.admitted)
        XCTAssertEqual(refused.open, 126, "the refusal names the count")
        XCTAssertEqual(refused.limit, 256)
    }

    func testEachConnectionAdmittedSinceTheCountBringsTheNextCountNearer() {
        let counts = Mutex(0)
        let limit = 1024, cap = DescriptorBudget.maximumPassedFiles
        let budget = DescriptorBudget(recountSeconds: 3600, countOpen: { counts.withLock { $0 += 1 }; return 10 },
                                      readLimit: { limit })
        var admissions = 0
        while counts.withLock({ $0 }) < 2, admissions < 1000 {
            let admission = budget.admitsConnection()
            XCTAssertTrue(admission.admitted)
            XCTAssertLessThanOrEqual(admission.open + DescriptorBudget.perConnection + DescriptorBudget.reserved + cap, limit)
            admissions += 1
        }
        // Counted again once 10 + 3 per admitted connection + the margin no longer fit beside the rest.
        XCTAssertEqual(counts.withLock { $0 }, 2)
        let fitting = (limit - 10 - DescriptorBudget.othersMargin - DescriptorBudget.perConnection - DescriptorBudget.reserved - cap)
            / DescriptorBudget.perConnection
        XCTAssertEqual(admissions, fitting + 2, "the first count, then \(fitting) on its bound, then the second count")
    }

    func testAnOldCountIsTakenAgain() {
        let counts = Mutex(0)
        let budget = DescriptorBudget(recountSeconds: 0, countOpen: { counts.withLock { $0 += 1 }; return 20 },
                                      readLimit: { 100_000 })
        for _ in 0..<3 { XCTAssertTrue(budget.admitsConnection().admitted) }
        XCTAssertEqual(counts.withLock { $0 }, 3)
    }
}
