import Foundation
import Planner
import Store
import TestSupport
import XCTest

/// "Nothing lost": a writer killed at any moment leaves a sound database holding every write
/// it acknowledged, and two processes sharing a file do not corrupt it.
final class CrashSafetyTests: XCTestCase {
    var directory: TemporaryDirectory!
    var path: String { directory.path("usefulmap.sqlite") }

    override func setUpWithError() throws { directory = try TemporaryDirectory("crash") }
    override func tearDown() { directory.remove() }

    /// What the children acknowledged, in order.
    struct Acknowledged {
        var plans: [Int64: (title: String, plan: RoutePlan)] = [:]
        var searches: [String] = []
        var routes: [String] = []

        mutating func read(_ lines: [String], tag: String) throws {
            var step = 0
            for line in lines where line.hasPrefix("ACK ") {
                let parts = line.split(separator: " ", maxSplits: 3).map(String.init)
                switch parts[1] {
                case "plan":
                    let id = try XCTUnwrap(Int64(parts[2]), line)
                    let json = try XCTUnwrap(Data(base64Encoded: parts[3]), "bad base64 in \(line.prefix(80))")
                    plans[id] = ("\(tag)-\(step)", try JSONDecoder().decode(RoutePlan.self, from: json))
                case "search":
                    searches.append(parts[2])
                case "route":
                    routes.append(parts.dropFirst(2).joined(separator: " "))
                    step += 1
                default:
                    XCTFail("unexpected line \(line)")
                }
            }
        }
    }

    /// Checks a history list (newest first) against the committed entries, after adding the
    /// one entry that may have been committed just before the kill but never acknowledged
    /// (`candidate`: the entry the child was writing next). Such an entry legitimately stays.
    func assertHistory(_ stored: [String], committed: inout [String], candidate: String, _ what: String,
                       file: StaticString = #filePath, line: UInt = #line) {
        if stored.first == candidate { committed.append(candidate) }
        XCTAssertEqual(stored, Array(committed.reversed().prefix(Store.historyLimit)), what, file: file, line: line)
    }

    func testWriterKilledFiftyTimesAtRandomMomentsLosesNoAcknowledgedWrite() throws {
        var random = SeededRandom(seed: 1_642_000_000)
        var acknowledged = Acknowledged()
        var committedSearches: [String] = []
        var committedRoutes: [String] = []
        var kills = 0
        for run in 0..<50 {
            let tag = "r\(run)"
            let child = try CrashChild(["write", path, tag])
            usleep(UInt32.random(in: 5_000...350_000, using: &random))
            child.kill()
            let lines = child.finish()
            XCTAssertFalse(lines.contains { $0.hasPrefix("ERROR") }, "run \(run): \(lines.filter { $0.hasPrefix("ERROR") })")
            if child.wasKilled { kills += 1 }
            var thisRun = Acknowledged()
            try thisRun.read(lines, tag: tag)
            try acknowledged.read(lines, tag: tag)

            let store = try Store(path: path)
            XCTAssertEqual(try store.read(Maintenance.integrityCheck()), ["ok"], "run \(run)")
            let listed = Set(try store.read(Plans.list()).map(\.id))
            XCTAssertTrue(Set(acknowledged.plans.keys).isSubset(of: listed),
                          "run \(run): acknowledged plans missing: \(Set(acknowledged.plans.keys).subtracting(listed).sorted())")
            for (id, saved) in thisRun.plans {
                let loaded = try store.read(Plans.load(id))
                XCTAssertEqual(loaded.title, saved.title, "run \(run) plan \(id)")
                XCTAssertEqual(loaded.plan, saved.plan, "run \(run) plan \(id)")
            }
            committedSearches += thisRun.searches
            committedRoutes += thisRun.routes
            assertHistory(try store.read(History.searches()).map(\.query), committed: &committedSearches,
                          candidate: "\(tag)-\(thisRun.searches.count)", "run \(run) search history")
            assertHistory(try store.read(History.routes()).map(\.from.name), committed: &committedRoutes,
                          candidate: "\(tag) stop \(thisRun.routes.count).0", "run \(run) route history")
        }
        XCTAssertEqual(kills, 50, "every child was still writing when it was killed")
        XCTAssertGreaterThan(acknowledged.plans.count, 50, "the children got far enough to test something")
        let store = try Store(path: path)
        for (id, saved) in acknowledged.plans {
            XCTAssertEqual(try store.read(Plans.load(id)).plan, saved.plan, "plan \(id) at the end")
        }
    }

    /// Issue 27: writes from many threads queue together and share one commit (group commit);
    /// every one acknowledged before the kill is still there.
    func testWritersOnEightThreadsKilledAtRandomMomentsLoseNoAcknowledgedWriteOfTheirSharedCommits() throws {
        var random = SeededRandom(seed: 27)
        var acknowledged: Set<String> = []
        for run in 0..<12 {
            let child = try CrashChild(["save-places", path, "r\(run)", "8"])
            usleep(UInt32.random(in: 50_000...400_000, using: &random))
            child.kill()
            let lines = child.finish()
            XCTAssertFalse(lines.contains { $0.hasPrefix("ERROR") }, "run \(run): \(lines.filter { $0.hasPrefix("ERROR") })")
            XCTAssertTrue(child.wasKilled, "run \(run): the child was still writing when it was killed")
            acknowledged.formUnion(lines.filter { $0.hasPrefix("ACK place ") }.map { String($0.dropFirst("ACK place ".count)) })

            let store = try Store(path: path)
            XCTAssertEqual(try store.read(Maintenance.integrityCheck()), ["ok"], "run \(run)")
            let stored = Set(try store.read(Places.all()).map(\.name))
            XCTAssertTrue(acknowledged.isSubset(of: stored),
                          "run \(run): acknowledged places missing: \(acknowledged.subtracting(stored).sorted().prefix(5))")
        }
        XCTAssertGreaterThan(acknowledged.count, 100, "the children got far enough to test something")
    }

    /// A process that opened a new file between another's two looks at it (no migration record
    /// yet, then the first migration's tables) called it a foreign database and refused it.
    /// Many processes open many new files at once; every one of them opens.
    func testProcessesOpeningTheSameNewFileAtOnceNeverTakeItForAForeignDatabase() throws {
        for round in 0..<60 {
            let file = directory.path("new-\(round).sqlite")
            let children = try (0..<4).map { _ in try CrashChild(["open", file]) }
            for (index, child) in children.enumerated() {
                let lines = child.finish()
                XCTAssertEqual(lines, ["OPENED"], "round \(round), child \(index)")
            }
        }
    }

    func testTwoProcessesWritingTheSameNewFileAtOnceBothSucceedWithoutCorruption() throws {
        let children = try ["a", "b"].map { try CrashChild(["write", path, $0, "40"]) }
        var acknowledged = Acknowledged()
        for (child, tag) in zip(children, ["a", "b"]) {
            let lines = child.finish()
            XCTAssertEqual(child.process.terminationStatus, 0, "child \(tag): \(lines.filter { !$0.hasPrefix("ACK") })")
            try acknowledged.read(lines, tag: tag)
        }
        XCTAssertEqual(acknowledged.plans.count, 80)
        let store = try Store(path: path)
        XCTAssertEqual(try store.read(Maintenance.integrityCheck()), ["ok"])
        XCTAssertEqual(try store.read(Maintenance.appliedMigrations()).map(\.version), Migration.embedded.map(\.version),
                       "each migration applied once even though both processes opened a new file")
        for (id, saved) in acknowledged.plans {
            let loaded = try store.read(Plans.load(id))
            XCTAssertEqual(loaded.title, saved.title)
            XCTAssertEqual(loaded.plan, saved.plan)
        }
        let history = try store.read(History.searches()).map(\.query)
        XCTAssertEqual(history.count, Store.historyLimit)
        XCTAssertTrue(Set(history).isSubset(of: Set(acknowledged.searches)))
    }
}
