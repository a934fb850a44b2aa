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

    /// `se.slice` in a /proc sched file: the thread's slice in ns (Linux 6.6+ shows it).
    private func slice(at path: String) -> UInt64? {
        (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { text in
            text.split(separator: "\n").first { $0.hasPrefix("se.slice ") }.flatMap { UInt64($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
        }
    }

    /// `ThreadSlice`: with `USEFULMAPD_IO_SLICE_US=100` the threads that answer `status` ask for
    /// the shortest slice (Linux 6.12+), so they take a core from the heavy work as they wake;
    /// every other thread (the store's, Swift's pool, which grows from the I/O threads and
    /// inherits their slice until lowered) and the Routino workers keep the kernel's default.
    /// Without the variable every thread keeps the kernel's.
    func testAskedForTheIOThreadsGetTheShortestSliceAndTheHeavyWorkKeepsTheKernels() async throws {
        // Kernels before EEVDF (6.6) show no `se.slice`: nothing to check there.
        guard let kernels = slice(at: "/proc/\(getpid())/sched") else { throw XCTSkip("this kernel shows no slice (Linux 6.6+)") }
        let sliced = try startDaemon(regionsFrom: try TampereRegion.dataDirectory(), environment: ["USEFULMAPD_IO_SLICE_US": "100"])
        var open: [WireClient] = [] // each daemon's connection stays open while its threads are read
        for daemon in [harness!, sliced] {
            _ = try daemon.json(["plan", "new", Tampere.keskustori, Tampere.railwayStation, "--mode", "walk", "--at", Tampere.morning])
            open.append(try daemon.client())
            _ = try await open[open.count - 1].call(Endpoints.status, Params.Empty())
        }
        try XCTSkipIf(sliced.log.contains("keep the kernel's time slice"), "this kernel takes no slice of a thread's own (Linux 6.12+)")
        try checkSlices(of: sliced, answering: 100_000, heavy: kernels)
        try checkSlices(of: harness, answering: kernels, heavy: kernels)
        XCTAssertEqual(open.count, 2)
    }

    private func checkSlices(of daemon: DaemonHarness, answering expected: UInt64, heavy kernels: UInt64,
                             file: StaticString = #filePath, line: UInt = #line) throws {
        let pid = try XCTUnwrap(daemon.process?.processIdentifier)
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        var answering: [String] = [], others: [String: UInt64] = [:]
        for tid in tasks {
            // A thread may end between the listing and the reading (a connection closing).
            guard let name = task(at: "/proc/\(pid)/task/\(tid)/stat")?.name,
                  let shown = slice(at: "/proc/\(pid)/task/\(tid)/sched") else { continue }
            if name.hasPrefix("usefulmapd-conn") || name.hasPrefix("usefulmapd-acce") {
                answering.append(name)
                XCTAssertEqual(shown, expected, "\(name) answers status", file: file, line: line)
            } else {
                others["\(name) \(tid)"] = shown
            }
        }
        XCTAssertGreaterThanOrEqual(answering.count, 2, "the accept loop and a connection: \(tasks.count) threads", file: file, line: line)
        XCTAssertFalse(others.isEmpty, file: file, line: line)
        for (name, shown) in others {
            XCTAssertEqual(shown, kernels, "\(name): the kernel's default slice", file: file, line: line)
        }
        let workers = try FileManager.default.contentsOfDirectory(atPath: "/proc").filter { $0.allSatisfy(\.isNumber) }
            .filter { task(at: "/proc/\($0)/stat")?.parent == pid && task(at: "/proc/\($0)/stat")?.name.hasPrefix("usefulmap-routi") == true }
        XCTAssertFalse(workers.isEmpty, "the walk started the region's Routino workers", file: file, line: line)
        for worker in workers {
            XCTAssertEqual(slice(at: "/proc/\(worker)/sched"), kernels, "a Routino worker: the kernel's default slice", file: file, line: line)
        }
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
