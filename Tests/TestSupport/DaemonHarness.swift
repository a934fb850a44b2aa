import Foundation
import Glibc
import WireProtocol
import XCTest

/// Runs the real `usefulmapd` and `umctl` binaries (built next to the test bundle) on a
/// temporary data directory and socket.
public final class DaemonHarness: @unchecked Sendable {
    public let directory: URL
    public let dataDirectory: URL
    public let socketPath: String
    public private(set) var process: Process?
    public private(set) var logFile: URL

    /// `.build/debug` (or wherever this test bundle was built).
    public static var binaries: URL {
        let bundle = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                         ?? CommandLine.arguments[0])
        var directory = bundle.deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("usefulmapd").path) { return directory }
            directory.deleteLastPathComponent()
        }
        return SharedData.repositoryRoot.appendingPathComponent(".build/debug")
    }

    public static var usefulmapd: String { binaries.appendingPathComponent("usefulmapd").path }
    public static var umctl: String { binaries.appendingPathComponent("umctl").path }

    /// The shared Tampere data (`SharedData.tampere`).
    public static var tampereFolder: URL { SharedData.tampere }

    /// A short temporary directory (socket paths must fit in 108 bytes).
    public static func temporaryDirectory() throws -> URL { try TemporaryDirectory.short().url }

    /// A harness on a new temporary directory; with `regionsFrom`, the imported regions of that
    /// data directory are copied in first (so the import happens once per run).
    public init(regionsFrom source: URL? = nil) throws {
        directory = try Self.temporaryDirectory()
        dataDirectory = directory.appendingPathComponent("data", isDirectory: true)
        socketPath = directory.appendingPathComponent("run/usefulmap/usefulmapd.sock").path
        logFile = directory.appendingPathComponent("usefulmapd.log")
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        if let source {
            try FileManager.default.copyItem(at: source.appendingPathComponent("regions"),
                                             to: dataDirectory.appendingPathComponent("regions"))
        }
    }

    deinit {
        terminate()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Stops the daemon if it still runs, asserting it exits 0 when `assertingCleanExit` (and
    /// waiting as long as it takes, as `stop()` does), and removes its files: a test case
    /// outlives its test, so `deinit` would come only at the end of the run.
    public func tearDown(assertingCleanExit: Bool = true, file: StaticString = #filePath, line: UInt = #line) {
        if assertingCleanExit, process != nil {
            XCTAssertEqual(stop(), 0, log, file: file, line: line)
        } else {
            terminate()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// SIGTERM, and SIGKILL 30 s later: a daemon that ignores SIGTERM must not hang the test run.
    private func terminate() {
        guard let process else { return }
        if process.isRunning {
            process.terminate()
            let deadline = Date().addingTimeInterval(30)
            while process.isRunning, Date() < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        self.process = nil
    }

    // MARK: - The daemon

    /// Starts usefulmapd and waits until it answers `status`; its stderr goes to `standardError`
    /// when given, else to `log`.
    /// - parameter launcher: a command that runs usefulmapd (`["/usr/bin/prlimit", "--nofile=256:256", "--"]`).
    public func start(extraArguments: [String] = [], environment: [String: String] = [:], standardError: FileHandle? = nil,
               launcher: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws {
        let process = try launchDaemon(extraArguments: extraArguments, environment: environment, standardError: standardError,
                                       launcher: launcher)
        self.process = process
        try waitUntilServing(process)
    }

    /// Starts usefulmapd without waiting (for tests that expect it to fail), in `folder` (the
    /// test run's working folder when nil).
    public func launchDaemon(extraArguments: [String] = [], environment: [String: String] = [:],
                      standardError: FileHandle? = nil, launcher: [String] = [], in folder: URL? = nil) throws -> Process {
        let process = Process()
        process.currentDirectoryURL = folder
        process.executableURL = URL(fileURLWithPath: launcher.first ?? Self.usefulmapd)
        process.arguments = Array(launcher.dropFirst()) + (launcher.isEmpty ? [] : [Self.usefulmapd])
            + ["--data-dir", dataDirectory.path, "--socket", socketPath, "--log-level", "debug", "--street-workers", "1"] + extraArguments
        var env = ProcessInfo.processInfo.environment
        for key in ["NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID", "USEFULMAP_CONFIG"] { env.removeValue(forKey: key) }
        env["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config").path
        // Never the developer's desktop bus: a test that wants notifications passes its own
        // dbus-run-session bus in `environment`; every other daemon finds no bus.
        env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=" + directory.appendingPathComponent("no-session-bus").path
        env.merge(environment) { _, new in new }
        process.environment = env
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let log = try FileHandle(forWritingTo: logFile)
        log.seekToEndOfFile()
        process.standardError = standardError ?? log
        process.standardOutput = standardError ?? log
        try process.run()
        return process
    }

    public func waitUntilServing(_ process: Process) throws {
        for _ in 0..<400 {
            if !process.isRunning { throw HarnessError("usefulmapd exited with \(process.terminationStatus): \(log)") }
            if let client = try? WireClient(socketPath: socketPath),
               (try? runToEnd { try await client.call(Endpoints.status, Params.Empty()) }) != nil { return }
            usleep(25_000)
        }
        throw HarnessError("usefulmapd did not start serving: \(log)")
    }

    /// Sends SIGTERM and waits; returns the exit status.
    @discardableResult
    public func stop() -> Int32 {
        guard let process else { return -1 }
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
        self.process = nil
        return process.terminationStatus
    }

    public var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    // MARK: - Clients

    public func client() throws -> WireClient { try WireClient(socketPath: socketPath) }

    /// Runs the real umctl with `--socket`, returning its exit status and output.
    @discardableResult
    public func umctl(_ arguments: [String], stdin: String? = nil) throws -> CommandResult {
        try Self.run(Self.umctl, arguments + ["--socket", socketPath], stdin: stdin, in: directory)
    }

    /// `umctl --json ...`, decoding the result; fails the test on a non-zero exit.
    public func json(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        let result = try umctl(arguments + ["--json"])
        XCTAssertEqual(result.status, 0, "umctl \(arguments.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        return try WireCodec.decoder.decode(JSONValue.self, from: Data(result.stdout.utf8))
    }

    /// A `umctl batch` file of `lines` in the harness's folder (removed with it); its path.
    public func writeBatch(_ lines: [String]) throws -> String {
        let path = directory.appendingPathComponent("batch-\(UUID().uuidString).txt").path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The daemon's counters.
    public func counters() throws -> CountersDocument {
        let client = try client()
        return try runToEnd { try await client.call(Endpoints.status, Params.Empty()).counters }
    }

    public struct CommandResult: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String

        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    public static func run(_ executable: String, _ arguments: [String], stdin: String? = nil, in directory: URL,
                    environment: [String: String]? = nil) throws -> CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let id = UUID().uuidString.prefix(8)
        let out = directory.appendingPathComponent("out-\(id)"), err = directory.appendingPathComponent("err-\(id)")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        if let stdin {
            let input = directory.appendingPathComponent("in-\(id)")
            try Data(stdin.utf8).write(to: input)
            process.standardInput = try FileHandle(forReadingFrom: input)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try process.run()
        process.waitUntilExit()
        return CommandResult(status: process.terminationStatus,
                             stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                             stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }
}

/// Tampere imported once per test run through the real daemon and `umctl region import`;
/// each test class copies the region into its own data directory.
public enum TampereRegion {
    nonisolated(unsafe) private static var imported: Result<URL, Error>?
    /// Removed when the test process exits.
    nonisolated(unsafe) private static var keptPath: String?
    private static let lock = NSLock()

    /// A data directory holding region `tampere` (streets, places, and the Nysse GTFS feed).
    public static func dataDirectory() throws -> URL {
        lock.lock()
        defer { lock.unlock() }
        if let imported { return try imported.get() }
        let result = Result { () throws -> URL in
            let folder = DaemonHarness.tampereFolder
            let osm = folder.appendingPathComponent("tampere.osm.pbf").path
            let gtfs = folder.appendingPathComponent("tampere.zip").path
            guard FileManager.default.fileExists(atPath: osm) else { throw HarnessError("no Tampere data at \(folder.path)") }
            let harness = try DaemonHarness()
            try harness.start()
            defer { harness.stop() }
            let result = try harness.umctl(["region", "import", "tampere", "--osm", osm, "--gtfs", gtfs])
            guard result.status == 0 else {
                throw HarnessError("import failed: \(result.stderr.suffix(2000))\ndaemon log: \(harness.log.suffix(4000))")
            }
            let keep = try DaemonHarness.temporaryDirectory()
            try FileManager.default.copyItem(at: harness.dataDirectory.appendingPathComponent("regions"),
                                             to: keep.appendingPathComponent("regions"))
            keptPath = keep.path
            atexit {
                if let path = TampereRegion.keptPath { try? FileManager.default.removeItem(atPath: path) }
            }
            return keep
        }
        imported = result
        return try result.get()
    }
}

/// Places in central Tampere and the good test day (a Wednesday inside the feed's period).
public enum Tampere {
    public static let keskustori = "61.49780,23.76100"
    public static let railwayStation = "61.49860,23.77360"
    public static let hervanta = "61.45020,23.85100"
    public static let tampereTalo = "61.49650,23.78180"
    public static let ratina = "61.49180,23.76390"
    public static let pyynikki = "61.49560,23.73140"
    public static let morning = "2022-01-12T08:00"
}
