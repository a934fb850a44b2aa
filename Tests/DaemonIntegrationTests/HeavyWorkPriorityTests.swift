import Foundation
import Glibc
import WireProtocol
import XCTest

/// Issue 27 (speed): the daemon's heavy work (the store's threads, the Routino workers, plans
/// computed on the shared pool) runs ten nice levels below the connections' I/O threads, which
/// answer `status` themselves and keep the daemon's own priority, also when they are started
/// after the heavy work was lowered (`HeavyWorkPriority`, docs/operations.md).
final class HeavyWorkPriorityTests: TampereDaemonTestCase {
    /// A thread or process as /proc shows it.
    private struct Task {
        var name: String
        var parent: Int32
        var nice: Int32
    }

    /// `/proc/…/stat`: the name is in parentheses; after it come state, ppid, … nice (the 19th field).
    private func task(at path: String) -> Task? {
        guard let stat = try? String(contentsOfFile: path, encoding: .utf8),
              let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 16, let parent = Int32(fields[1]), let nice = Int32(fields[16]) else { return nil }
        return Task(name: String(stat[stat.index(after: open)..<close]), parent: parent, nice: nice)
    }

    private func threads(of pid: Int32) throws -> [Task] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").compactMap { task(at: "/proc/\(pid)/task/\($0)/stat") }
    }

    private func children(of pid: Int32) throws -> [Task] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc").filter { $0.allSatisfy(\.isNumber) }
            .compactMap { task(at: "/proc/\($0)/stat") }.filter { $0.parent == pid }
    }

    func testTheHeavyWorkRunsBelowTheIOThreadsWhichKeepTheDaemonsPriority() async throws {
        let pid = try XCTUnwrap(harness.process?.processIdentifier)
        let base = try XCTUnwrap(task(at: "/proc/\(pid)/stat")).nice
        try XCTSkipIf(base > 9, "the daemon runs at nice \(base): ten levels lower is past the kernel's 19")
        // A walk is routed by the Routino workers, and saved by the store's writer.
        _ = try harness.json(["plan", "new", Tampere.keskustori, Tampere.railwayStation, "--mode", "walk", "--at", Tampere.morning])
        // A connection made after the shared pool ran heavy work: its I/O thread is the accept
        // loop's child, never a lowered thread's.
        let late = try harness.client()
        _ = try await late.call(Endpoints.status, Params.Empty())

        let threads = try threads(of: pid)
        let connections = threads.filter { $0.name.hasPrefix("usefulmapd-conn") }
        XCTAssertFalse(connections.isEmpty, "\(threads.map(\.name))")
        for thread in connections + threads.filter({ $0.name.hasPrefix("usefulmapd-acce") }) {
            XCTAssertEqual(thread.nice, base, "\(thread.name) answers status: the daemon's own priority")
        }
        let store = threads.filter { $0.name.hasPrefix("store-") }
        XCTAssertEqual(store.count, 4, "the writer and three readers: \(threads.map(\.name))")
        for thread in store {
            XCTAssertEqual(thread.nice, base + 10, "\(thread.name): heavy")
        }
        let workers = try children(of: pid).filter { $0.name.hasPrefix("usefulmap-routi") }
        XCTAssertFalse(workers.isEmpty, "the walk started the region's Routino workers")
        for worker in workers {
            XCTAssertEqual(worker.nice, base + 10, "a Routino worker: heavy")
        }
    }
}
