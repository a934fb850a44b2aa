@testable import Daemon
import Synchronization
import XCTest

/// Issue 26 (speed): counting `/proc/self/fd` on every accept was a tenth of a new
/// connection's cost. Far from the open-file limit the last count stands in (plus three
/// descriptors for each connection admitted since and a margin for others' files); near it,
/// every accept counts, so that the table never fills.
final class DescriptorBudgetTests: XCTestCase {
    /// How often a budget counted what is open.
    final class Counts: Sendable {
        private let counted = Mutex(0)
        func add() { counted.withLock { $0 += 1 } }
        var value: Int { counted.withLock { $0 } }
    }

    /// A budget whose process has `open()` descriptors open under `limit`, and how often it counted them.
    func countingBudget(recountSeconds: Double = 3600, open: @escaping @Sendable () -> Int, limit: Int) -> (DescriptorBudget, Counts) {
        let counts = Counts()
        return (DescriptorBudget(recountSeconds: recountSeconds, countOpen: { counts.add(); return open() }, readLimit: { limit }), counts)
    }

    func testFarFromTheLimitTheLastCountStandsInForTheNextAdmissions() {
        let (budget, counts) = countingBudget(open: { 20 }, limit: 100_000)
        for _ in 0..<100 { XCTAssertTrue(budget.admitsConnection().admitted) }
        XCTAssertEqual(counts.value, 1)
    }

    func testNearTheLimitEveryAdmissionCountsAndTheCountRefuses() {
        let open = Mutex(100)
        let (budget, counts) = countingBudget(open: { open.withLock { $0 } }, limit: 256)
        // 256 = 125 open + 3 for the connection + 64 reserved + 64 for passed files (a quarter of the limit).
        XCTAssertTrue(budget.admitsConnection().admitted)
        XCTAssertTrue(budget.admitsConnection().admitted)
        XCTAssertEqual(counts.value, 2, "each admission counted")
        open.withLock { $0 = 125 }
        XCTAssertTrue(budget.admitsConnection().admitted)
        open.withLock { $0 = 126 }
        let refused = budget.admitsConnection()
        XCTAssertFalse(refused.admitted)
        XCTAssertEqual(refused.open, 126, "the refusal names the count")
        XCTAssertEqual(refused.limit, 256)
    }

    func testEachConnectionAdmittedSinceTheCountBringsTheNextCountNearer() {
        let limit = 1024, cap = DescriptorBudget.maximumPassedFiles
        let (budget, counts) = countingBudget(open: { 10 }, limit: limit)
        var admissions = 0
        while counts.value < 2, admissions < 1000 {
            let admission = budget.admitsConnection()
            XCTAssertTrue(admission.admitted)
            XCTAssertLessThanOrEqual(admission.open + DescriptorBudget.perConnection + DescriptorBudget.reserved + cap, limit)
            admissions += 1
        }
        // Counted again once 10 + 3 per admitted connection + the margin no longer fit beside the rest.
        XCTAssertEqual(counts.value, 2)
        let fitting = (limit - 10 - DescriptorBudget.othersMargin - DescriptorBudget.perConnection - DescriptorBudget.reserved - cap)
            / DescriptorBudget.perConnection
        XCTAssertEqual(admissions, fitting + 2, "the first count, then \(fitting) on its bound, then the second count")
    }

    func testAnOldCountIsTakenAgain() {
        let (budget, counts) = countingBudget(recountSeconds: 0, open: { 20 }, limit: 100_000)
        for _ in 0..<3 { XCTAssertTrue(budget.admitsConnection().admitted) }
        XCTAssertEqual(counts.value, 3)
    }
}
