import Foundation
import Planner
import SQLite
@testable import Store
import TestSupport
import XCTest

/// The store's own threads: the async API runs SQLite on the writer or a reader thread, never
/// on the calling task's thread of the cooperative pool, and a blocking call from a task is
/// stopped in debug builds.
final class StoreThreadsTests: XCTestCase {
    var directory: TemporaryDirectory!

    override func setUpWithError() throws { directory = try TemporaryDirectory("threads") }
    override func tearDown() { directory.remove() }

    private struct Caller: Sendable, Equatable {
        var role: StoreThreads.Role?
        var inTask: Bool
    }

    private static func caller() -> Caller {
        Caller(role: StatementCache.current?.role, inTask: withUnsafeCurrentTask { $0 != nil })
    }

    func testAsyncWritesRunOnTheWriterThreadAndReadsOnAReaderThreadNeverInTheCallersTask() async throws {
        let store = try Store(path: directory.path("usefulmap.sqlite"))
        let writing = try await store.write(StoreWrite { _ in Self.caller() })
        XCTAssertEqual(writing, Caller(role: .writer, inTask: false), "a write runs on the writer thread, outside any task")
        let reading = try await store.read(StoreRead { _ in Self.caller() })
        XCTAssertEqual(reading, Caller(role: .reader, inTask: false), "a read runs on a reader thread, outside any task")
        XCTAssertNil(StatementCache.current, "the test itself runs on a thread of the cooperative pool")

        let place = SavedPlace(name: "Home", place: Place(name: "Home", coordinate: Coordinate(latitude: 61.49, longitude: 23.76)))
        try await store.write(Places.save(place))
        let places = try await store.read(Places.all())
        XCTAssertEqual(places.map(\.name), ["Home"])
    }

    func testReadsAreAnsweredWhileTheWriterWaitsForAnotherConnectionsLock() async throws {
        let path = directory.path("usefulmap.sqlite")
        let store = try Store(path: path)
        let place = SavedPlace(name: "Home", place: Place(name: "Home", coordinate: Coordinate(latitude: 61.49, longitude: 23.76)))
        try await store.write(Places.save(place))
        let lock = try Database(path: path, mode: .readWrite)
        try lock.execute("BEGIN IMMEDIATE") // the store's writer now waits on SQLite's busy timeout
        let write = Task { try await store.write(Places.remove(named: "Home")) }
        let places = try await store.read(Places.all()) // a reader answers meanwhile, from the last commit
        XCTAssertEqual(places.map(\.name), ["Home"])
        try lock.execute("COMMIT")
        try await write.value
        let after = try await store.read(Places.all())
        XCTAssertEqual(after, [], "the queued write landed once the lock was released")
    }

    func testBlockingCallsFromPlainThreadsStillWork() throws {
        let store = try Store(path: directory.path("usefulmap.sqlite"))
        XCTAssertNil(withUnsafeCurrentTask { $0 }, "a synchronous test runs outside any task")
        let id = try store.write(Plans.create(try RoutePlan(nodes: [PlanNode(place: Place(name: "A", coordinate: Coordinate(latitude: 61.49, longitude: 23.76))),
                                                             PlanNode(place: Place(name: "B", coordinate: Coordinate(latitude: 61.45, longitude: 23.85)))],
                                                     modes: [.walk]), title: "t"))
        XCTAssertEqual(try store.read(Plans.load(id)).title, "t")
    }

    func testABlockingStoreCallFromATaskStopsADebugBuild() throws {
        #if DEBUG
        let child = try CrashChild(["blocking-in-task", directory.path("usefulmap.sqlite")])
        let lines = child.finish()
        XCTAssertEqual(child.process.terminationReason, .uncaughtSignal, "the child stopped at the assertion: \(lines)")
        XCTAssertFalse(lines.contains("RETURNED"), "\(lines)")
        XCTAssertTrue(lines.joined(separator: "\n").contains("cooperative pool"), "\(lines)")
        #else
        throw XCTSkip("the check is a debug-build assertion")
        #endif
    }
}
