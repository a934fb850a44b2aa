import Foundation
import Planner
@testable import Store
import TestSupport
import Synchronization
import XCTest

/// Issue 27 (speed): the writes queued while one commits share one transaction and its fsync
/// (`GroupCommit`), and each keeps its own all-or-nothing and its own answer.
final class GroupCommitTests: XCTestCase {
    var directory: TemporaryDirectory!
    var store: Store!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory("group")
        store = try Store(path: directory.path("usefulmap.sqlite"))
    }

    override func tearDown() {
        store = nil
        directory.remove()
    }

    private func place(_ number: Int) -> Place {
        Place(name: "Stop \(number)", coordinate: Coordinate(latitude: 61.45 + Double(number) / 1000, longitude: 23.76))
    }

    /// Holds the writer thread in a write of its own until `release`, so that the writes made
    /// meanwhile queue behind it and are taken together.
    private final class HeldWriter: @unchecked Sendable {
        private let gate = DispatchSemaphore(value: 0)
        private let done = DispatchSemaphore(value: 0)

        init(_ store: Store) {
            let entered = DispatchSemaphore(value: 0)
            Thread.detachNewThread { [gate, done] in
                _ = try? store.write(StoreWrite { _ in
                    entered.signal()
                    gate.wait()
                })
                done.signal()
            }
            entered.wait()
        }

        func release() {
            gate.signal()
            done.wait()
        }
    }

    /// Runs each of `writes` on a plain thread of its own, all waiting for the writer at once;
    /// returns their outcomes once every one is queued, `held` let go and all answered.
    private func queueTogether(_ writes: [@Sendable () throws -> Void], behind held: HeldWriter) -> [Result<Void, Error>] {
        let outcomes = Mutex<[Int: Result<Void, Error>]>([:])
        let group = DispatchGroup()
        for (index, write) in writes.enumerated() {
            group.enter()
            Thread.detachNewThread {
                let outcome = Result { try write() }
                outcomes.withLock { $0[index] = outcome }
                group.leave()
            }
        }
        // Every write waits for the writer (at most 30 s, so a write that never queues fails the test).
        for _ in 0..<30_000 where store.queuedWrites < writes.count { usleep(1_000) }
        XCTAssertEqual(store.queuedWrites, writes.count, "every write queued behind the held one")
        held.release()
        group.wait()
        return outcomes.withLock { outcomes in writes.indices.map { outcomes[$0]! } }
    }

    func testWritesQueuedWhileOneCommitsAreCommittedAsOneGroupAndAFailingOneLeavesTheOthersStored() throws {
        try store.write(Places.save(SavedPlace(name: "Taken", place: place(0))))
        let before = store.groupCommits
        let held = HeldWriter(store)
        let store = store!
        var writes: [@Sendable () throws -> Void] = (1...7).map { number in
            { try store.write(Places.save(SavedPlace(name: "Place \(number)", place: Place(
                name: "Stop \(number)", coordinate: Coordinate(latitude: 61.45 + Double(number) / 1000, longitude: 23.76))))) }
        }
        // Refused inside its transaction: "Taken" is another place's name.
        writes.insert({ try store.write(Places.save(SavedPlace(name: "Taken", place: Place(
            name: "Elsewhere", coordinate: Coordinate(latitude: 61.5, longitude: 23.8))))) }, at: 3)
        let outcomes = queueTogether(writes, behind: held)

        for (index, outcome) in outcomes.enumerated() where index != 3 {
            XCTAssertNoThrow(try outcome.get(), "write \(index)")
        }
        XCTAssertThrowsError(try outcomes[3].get()) { error in
            XCTAssertEqual((error as? StoreError)?.code, "duplicate", "\(error)")
        }
        XCTAssertEqual(try store.read(Places.all()).map(\.name), ["Place 1", "Place 2", "Place 3", "Place 4", "Place 5", "Place 6", "Place 7", "Taken"])
        XCTAssertEqual(try store.read(Places.named("Taken"))?.place.name, "Stop 0", "the refused write changed nothing")
        let after = store.groupCommits
        XCTAssertEqual(after.groups - before.groups, 1, "the eight queued writes shared one commit")
        XCTAssertEqual(after.jobs - before.jobs, 8)
        XCTAssertEqual(after.largest, 8)
        XCTAssertEqual(try store.read(Maintenance.integrityCheck()), ["ok"])
    }

    func testAWriteWhoseFailureEndsTheGroupsTransactionMakesEveryWriteRunAloneAndEachIsStoredOnce() throws {
        // As SQLite does under some failures (a full disk, an I/O error): the whole transaction
        // is rolled back under the failing write, the group's other writes with it.
        struct Broken: Error {}
        let before = store.groupCommits
        let held = HeldWriter(store)
        let store = store!
        var writes: [@Sendable () throws -> Void] = (1...5).map { number in
            { _ = try store.write(Plans.create(try RoutePlan(nodes: [
                PlanNode(place: Place(name: "From \(number)", coordinate: Coordinate(latitude: 61.49, longitude: 23.76))),
                PlanNode(place: Place(name: "To \(number)", coordinate: Coordinate(latitude: 61.45, longitude: 23.85))),
            ], modes: [.walk]), title: "plan \(number)")) }
        }
        writes.insert({ try store.write(StoreWrite { db in
            try db.database.execute("ROLLBACK")
            throw Broken()
        }) }, at: 2)
        let outcomes = queueTogether(writes, behind: held)

        for (index, outcome) in outcomes.enumerated() where index != 2 {
            XCTAssertNoThrow(try outcome.get(), "write \(index)")
        }
        XCTAssertThrowsError(try outcomes[2].get())
        XCTAssertEqual(try store.read(Plans.list()).map(\.title).sorted(), ["plan 1", "plan 2", "plan 3", "plan 4", "plan 5"],
                       "each plan stored once: none lost with the group, none stored twice when run again alone")
        XCTAssertEqual(store.groupCommits.groups, before.groups, "the broken group committed nothing")
        XCTAssertEqual(try store.read(Maintenance.integrityCheck()), ["ok"])
    }
}
