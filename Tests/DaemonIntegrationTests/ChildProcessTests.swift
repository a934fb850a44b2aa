import Foundation
import Glibc
import WireProtocol
import XCTest

/// Children of the daemon (planetsplitter during an import, the Routino workers) must not
/// outlive it, even when it is killed with SIGKILL and cannot clean up. Each test makes a
/// child that cannot end on its own (planetsplitter waiting for its input, a hung worker), so
/// only the parent-death signal can end it.
final class ChildProcessTests: XCTestCase {
    /// The processes whose parent is `parent`: pid → the file name of the program.
    static func children(of parent: pid_t) -> [pid_t: String] {
        var found: [pid_t: String] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry), let fields = statFields(pid), fields.count > 1, pid_t(fields[1]) == parent,
                  let commandLine = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")) else { continue }
            let program = String(decoding: commandLine.prefix { $0 != 0 }, as: UTF8.self)
            found[pid] = (program as NSString).lastPathComponent
        }
        return found
    }

    /// `/proc/PID/stat` after the command name: state, ppid, …
    static func statFields(_ pid: pid_t) -> [Substring]? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: end)...].split(separator: " ")
    }

    /// Still running: present and not a zombie (dead, waiting for its new parent to reap it).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let state = statFields(pid)?.first else { return false }
        return state != "Z"
    }

    /// Waits for a client whose daemon was killed: it must see the connection end (a leftover
    /// child holding the connection would keep it waiting, so it is stopped after a while).
    func assertClientEnds(_ client: Process, file: StaticString = #filePath, line: UInt = #line) {
        for _ in 0..<3_000 where client.isRunning { usleep(10_000) }
        XCTAssertFalse(client.isRunning, "the client still waits", file: file, line: line)
        if client.isRunning { client.terminate() }
        client.waitUntilExit()
    }

    /// Waits until `daemon` has a child named `name`, kills the daemon with SIGKILL, and
    /// checks that the child ends.
    func assertChildDiesWithTheDaemon(_ daemon: Process, of harness: DaemonHarness, named name: String,
                                      file: StaticString = #filePath, line: UInt = #line) throws {
        var child: pid_t?
        for _ in 0..<6_000 {
            child = Self.children(of: daemon.processIdentifier).first { $0.value == name }?.key
            if child != nil { break }
            usleep(10_000)
        }
        let pid = try XCTUnwrap(child, "no \(name) among \(Self.children(of: daemon.processIdentifier)): \(harness.log)",
                                file: file, line: line)
        kill(daemon.processIdentifier, SIGKILL)
        daemon.waitUntilExit()
        // The parent-death signal is sent as the daemon dies; the kernel delivers it soon after.
        for _ in 0..<1_000 where Self.isRunning(pid) { usleep(10_000) }
        XCTAssertFalse(Self.isRunning(pid), "\(name) (pid \(pid)) outlived the daemon", file: file, line: line)
        kill(pid, SIGKILL)
    }

    func testKillingTheDaemonDuringAnImportLeavesNoPlanetsplitter() throws {
        let harness = try startDaemon(assertingCleanExit: false)
        // Tampere's streets keep planetsplitter busy for a second or more: long enough to be
        // seen (the check looks every 10 ms) and killed under it.
        let osm = DaemonHarness.tampereFolder.appendingPathComponent("tampere.osm.pbf").path
        let socket = harness.socketPath
        let ended = DispatchSemaphore(value: 0)
        let box = ResultBox<RegionImportDocument>()
        Thread.detachNewThread {
            box.value = Result {
                let client = try WireClient(socketPath: socket)
                return try runToEnd { try await client.call(Endpoints.regionImport, Params.RegionImport(name: "tampere", osm: osm, gtfs: [])) }
            }
            ended.signal()
        }
        try assertChildDiesWithTheDaemon(try XCTUnwrap(harness.process), of: harness, named: "planetsplitter")
        XCTAssertEqual(ended.wait(timeout: .now() + 30), .success, "the import's client still waits")
        guard case .failure? = box.value else { return XCTFail("the import's client sees the connection lost") }
    }

    func testKillingTheDaemonWithAHungRoutinoWorkerLeavesNoWorker() throws {
        let harness = try makeDaemon(regionsFrom: try TampereRegion.dataDirectory())
        // A worker that says ready, then never reads or answers again.
        let worker = harness.directory.appendingPathComponent("hung-worker").path
        try "#!/bin/sh\necho ready\nexec sleep 100000\n".write(toFile: worker, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(worker, 0o755), 0)
        let daemon = try harness.launchDaemon(environment: ["USEFULMAP_ROUTINO_WORKER": worker])
        try harness.waitUntilServing(daemon)
        let umctl = Process()
        umctl.executableURL = URL(fileURLWithPath: DaemonHarness.umctl)
        umctl.arguments = ["compare", Tampere.keskustori, Tampere.tampereTalo, "--at", Tampere.morning,
                           "--socket", harness.socketPath]
        umctl.standardOutput = FileHandle.nullDevice
        umctl.standardError = FileHandle.nullDevice
        try umctl.run()
        try assertChildDiesWithTheDaemon(daemon, of: harness, named: "sleep")
        assertClientEnds(umctl)
    }
}
