import Foundation
import Planner
@testable import Streets
import XCTest

/// The pool's process management, with tiny shell-script workers that speak the line protocol.
final class RoutinoWorkerPoolTests: XCTestCase {
    func script(_ body: String) throws -> String {
        let directory = try TampereFixture.temporaryDirectory("fake-worker", removedAfter: self)
        let file = directory.appendingPathComponent("worker.sh")
        try Data("#!/bin/sh\n\(body)\n".utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
        return file.path
    }

    func pool(_ executable: String, workers: Int = 1, recycleAfter: Int = 100, answerTimeout: Double = 60) -> RoutinoWorkerPool {
        RoutinoWorkerPool(.init(executable: executable, database: "/nonexistent", workers: workers,
                                recycleAfterFailedRoutes: recycleAfter, answerTimeout: answerTimeout, afterRequestSent: nil))
    }

    func testHungWorkerIsKilledAndTheQueryFailsInsteadOfWaitingForever() async throws {
        let pool = pool(try script("echo ready; while read line; do sleep 30; done"), answerTimeout: 0.2)
        defer { pool.shutdown() }
        do {
            _ = try await pool.ask("route walk 1 2 3 4")
            XCTFail("a worker that never answers must not hang the query")
        } catch let error as RoutingError {
            XCTAssertEqual(error.code, "engine_failure")
            XCTAssertTrue(error.message.contains("no answer in time"), error.message)
        }
    }

    func testWorkerIsRecycledAfterTheConfiguredNumberOfFailedRoutes() async throws {
        // Answers every query with a failed route, tagged with its process id.
        let pool = pool(try script("echo ready; while read line; do echo \"error no_route $$\"; done"), recycleAfter: 2)
        defer { pool.shutdown() }
        var pids: [String] = []
        for _ in 0..<5 { pids.append(String(try await pool.ask("route walk 1 2 3 4").split(separator: " ").last ?? "")) }
        XCTAssertEqual(pids[0], pids[1])
        XCTAssertNotEqual(pids[1], pids[2], "the worker that failed twice was replaced")
        XCTAssertEqual(pids[2], pids[3])
        XCTAssertNotEqual(pids[3], pids[4])
    }

    func testSuccessfulRoutesDoNotRecycleTheWorker() async throws {
        let pool = pool(try script("echo ready; while read line; do echo \"ok 1.0 1.0 $$,0\"; done"), recycleAfter: 1)
        defer { pool.shutdown() }
        var answers: Set<String> = []
        for _ in 0..<4 { answers.insert(try await pool.ask("route walk 1 2 3 4")) }
        XCTAssertEqual(answers.count, 1, "one worker answered every query")
    }

    func testWorkerThatCannotStartGivesEngineFailureWithItsReason() async throws {
        let pool = pool(try script("echo 'fatal cannot load the Routino database'; exit 1"))
        defer { pool.shutdown() }
        do {
            _ = try await pool.ask("ping")
            XCTFail("a worker that cannot start answers nothing")
        } catch let error as RoutingError {
            XCTAssertEqual(error.code, "engine_failure")
            XCTAssertTrue(error.message.contains("cannot load the Routino database"), error.message)
        }
    }

    func testRealWorkerWorksInADeletedDirectorySoFileOutputCannotLitter() async throws {
        let fixture = try TampereFixture.shared()
        let executable = try StreetRouter.locateWorker()
        let pool = RoutinoWorkerPool(.init(
            executable: executable, database: RegionCatalog(dataDirectory: fixture.dataDirectory).directory(of: "tampere").path,
            workers: 1, recycleAfterFailedRoutes: 100, afterRequestSent: { pid in
                let cwd = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd")) ?? ""
                XCTAssertTrue(cwd.hasSuffix("(deleted)"), "worker cwd is \(cwd)")
            }))
        defer { pool.shutdown() }
        let pong = try await pool.ask("ping")
        XCTAssertEqual(pong, "pong")
        let rejected = try await pool.ask("bogus")
        XCTAssertEqual(rejected, "error bad_request unknown command bogus")
    }

    /// A batch is cut into one lane per worker (footpaths sorted by stop find each stop's road
    /// once per worker that has it): each worker answers a run of neighbouring requests, then
    /// helps the other from its far end, so its requests form at most two runs; all are
    /// answered once, in order. Handed out one at a time from one queue, they would interleave.
    func testABatchGivesEachWorkerAContiguousRunOfTheRequests() throws {
        let pool = pool(try script("echo ready; while read line; do echo \"$$ $line\"; done"), workers: 2)
        defer { pool.shutdown() }
        let requests = (0..<400).map { "r\($0)" }
        let answers = try pool.askAll(requests).map { try $0.get() }
        var byWorker: [Substring: [Int]] = [:]
        for (index, answer) in answers.enumerated() {
            let fields = answer.split(separator: " ")
            XCTAssertEqual(fields.last.map(String.init), requests[index], "answers in request order")
            byWorker[fields[0], default: []].append(index)
        }
        for (worker, indices) in byWorker {
            let runs = 1 + zip(indices, indices.dropFirst()).filter { $1 != $0 + 1 }.count
            XCTAssertLessThanOrEqual(runs, 2, "worker \(worker) answered \(indices)")
        }
    }
}

extension RoutinoWorkerPool {
    /// `askAll` for a batch that is never stopped: the tests' shorthand.
    func askAll(_ requests: [String]) -> [Result<String, Error>] {
        askAll(requests, unlessStopped: { false })!
    }
}
