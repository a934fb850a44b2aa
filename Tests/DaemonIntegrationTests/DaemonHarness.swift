import Foundation
import Glibc
import WireProtocol
import XCTest

/// Runs the real `usefulmapd` and `umctl` binaries (built next to the test bundle) on a
/// temporary data directory and socket.
final class DaemonHarness: @unchecked Sendable {
    let directory: URL
    let dataDirectory: URL
    let socketPath: String
    private(set) var process: Process?
    private(set) var logFile: URL

    /// `.build/debug` (or wherever this test bundle was built).
    static var binaries: URL {
        let bundle = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                         ?? CommandLine.arguments[0])
        var directory = bundle.deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("usefulmapd").path) { return directory }
            directory.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug")
    }

    static var usefulmapd: String { binaries.appendingPathComponent("usefulmapd").path }
    static var umctl: String { binaries.appendingPathComponent("umctl").path }

    /// `$USEFULMAP_SHARED/data/tampere`, else `<repo root>/../shared/data/tampere`.
    static var tampereFolder: URL {
        if let shared = ProcessInfo.processInfo.environment["USEFULMAP_SHARED"], !shared.isEmpty {
            return URL(fileURLWithPath: shared).appendingPathComponent("data/tampere")
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("../shared/data/tampere").standardizedFileURL
    }

    /// A short temporary directory (socket paths must fit in 108 bytes).
    static func temporaryDirectory() throws -> URL {
        var template = Array("/tmp/umit-XXXXXX".utf8CString)
        guard let result = mkdtemp(&template) else { throw HarnessError("mkdtemp failed") }
        return URL(fileURLWithPath: String(cString: result), isDirectory: true)
    }

    /// A harness on a new temporary directory; with `regionsFrom`, the imported regions of that
    /// data directory are copied in first (so the import happens once per run).
    init(regionsFrom source: URL? = nil) throws {
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
        if let process, process.isRunning {
            process.terminate()
            // A daemon that ignores SIGTERM must not hang the test run.
            let deadline = Date().addingTimeInterval(30)
            while process.isRunning, Date() < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: - The daemon

    /// Starts usefulmapd and waits until it answers `status`; its stderr goes to `standardError`
    /// when given, else to `log`.
    /// - parameter launcher: a command that runs usefulmapd (`["/usr/bin/prlimit", "--nofile=256:256", "--"]`).
    func start(extraArguments: [String] = [], environment: [String: String] = [:], standardError: FileHandle? = nil,
               launcher: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws {
        let process = try launchDaemon(extraArguments: extraArguments, environment: environment, standardError: standardError,
                                       launcher: launcher)
        self.process = process
        try waitUntilServing(process)
    }

    /// Starts usefulmapd without waiting (for tests that expect it to fail).
    func launchDaemon(extraArguments: [String] = [], environment: [String: String] = [:],
                      standardError: FileHandle? = nil, launcher: [String] = []) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: launcher.first ?? Self.usefulmapd)
        process.arguments = Array(launcher.dropFirst()) + (launcher.isEmpty ? [] : [Self.usefulmapd])
            + ["--data-dir", dataDirectory.path, "--socket", socketPath, "--log-level", "debug", "--street-workers", "1"] + extraArguments
        var env = ProcessInfo.processInfo.environment
        for key in ["NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID", "USEFULMAP_CONFIG"] { env.removeValue(forKey: key) }
        env["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config").path
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

    func waitUntilServing(_ process: Process) throws {
        for _ in 0..<400 {
            if !process.isRunning { throw HarnessError("usefulmapd exited with \(process.terminationStatus): \(log)") }
            if let client = try? WireClient(socketPath: socketPath), (try? client.call(Endpoints.status, Params.Empty())) != nil { return }
            usleep(25_000)
        }
        throw HarnessError("usefulmapd did not start serving: \(log)")
    }

    /// Sends SIGTERM and waits; returns the exit status.
    @discardableResult
    func stop() -> Int32 {
        guard let process else { return -1 }
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
        self.process = nil
        return process.terminationStatus
    }

    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    // MARK: - Clients

    func client() throws -> WireClient { try WireClient(socketPath: socketPath) }

    /// Runs the real umctl with `--socket`, returning its exit status and output.
    @discardableResult
    func umctl(_ arguments: [String], stdin: String? = nil) throws -> CommandResult {
        try Self.run(Self.umctl, arguments + ["--socket", socketPath], stdin: stdin, in: directory)
    }

    /// `umctl --json ...`, decoding the result; fails the test on a non-zero exit.
    func json(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        let result = try umctl(arguments + ["--json"])
        XCTAssertEqual(result.status, 0, "umctl \(arguments.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        return try WireCodec.decoder.decode(JSONValue.self, from: Data(result.stdout.utf8))
    }

    /// The daemon's counters.
    func counters() throws -> CountersDocument {
        try client().call(Endpoints.status, Params.Empty()).counters
    }

    struct CommandResult {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ executable: String, _ arguments: [String], stdin: String? = nil, in directory: URL,
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

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Tampere imported once per test run through the real daemon and `umctl region import`;
/// each test class copies the region into its own data directory.
enum TampereRegion {
    nonisolated(unsafe) private static var imported: Result<URL, Error>?
    /// Removed when the test process exits.
    nonisolated(unsafe) private static var keptPath: String?
    private static let lock = NSLock()

    /// A data directory holding region `tampere` (streets, places, and the Nysse GTFS feed).
    static func dataDirectory() throws -> URL {
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
enum Tampere {
    static let keskustori = "61.49780,23.76100"
    static let railwayStation = "61.49860,23.77360"
    static let hervanta = "61.45020,23.85100"
    static let tampereTalo = "61.49650,23.78180"
    static let ratina = "61.49180,23.76390"
    static let pyynikki = "61.49560,23.73140"
    static let morning = "2022-01-12T08:00"
}
