import Foundation
import Glibc
import WireProtocol

/// A real `usefulmapd` (built beside this executable) on a temporary data directory, or one
/// already running on `--socket=PATH`. Stopped and removed with `stop()`.
final class BenchDaemon {
    let socketPath: String
    /// Nil for a daemon this process did not start.
    let process: Process?
    private let directory: URL?

    /// Starts a daemon; with `importTampere`, imports the shared Tampere data first.
    /// `environment` is added to this process's for the daemon.
    init(existingSocket: String? = nil, importTampere: Bool = false, arguments: [String] = [],
         environment: [String: String] = [:]) throws {
        if let existingSocket {
            socketPath = existingSocket
            process = nil
            directory = nil
            return
        }
        var template = Array("/tmp/umbench-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw BenchError("mkdtemp failed") }
        let directory = URL(fileURLWithPath: String(cString: made), isDirectory: true)
        self.directory = directory
        socketPath = directory.appendingPathComponent("usefulmapd.sock").path
        let daemon = Process()
        daemon.executableURL = Self.binaries.appendingPathComponent("usefulmapd")
        daemon.arguments = ["--data-dir", directory.appendingPathComponent("data").path, "--socket", socketPath,
                            "--log-level", "warning"] + arguments
        daemon.standardError = FileHandle.nullDevice
        daemon.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        try daemon.run()
        process = daemon
        var ready = false
        for _ in 0..<200 where !ready {
            if let client = try? WireClient(socketPath: socketPath) {
                ready = (try? runToEnd { try await client.call(Endpoints.status, Params.Empty()) }) != nil
            }
            if !ready { usleep(25_000) }
        }
        guard ready else {
            stop()
            throw BenchError("usefulmapd did not start")
        }
        if importTampere {
            let tampere = sharedDirectory().appendingPathComponent("data/tampere")
            let client = try WireClient(socketPath: socketPath)
            _ = try runToEnd {
                try await client.call(Endpoints.regionImport, Params.RegionImport(
                    name: "tampere", osm: tampere.appendingPathComponent("tampere.osm.pbf").path,
                    gtfs: [tampere.appendingPathComponent("tampere.zip").path]))
            }
        }
    }

    /// The folder of this executable, where `usefulmapd` is built too.
    static var binaries: URL {
        URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]).deletingLastPathComponent()
    }

    var isRunning: Bool { process?.isRunning ?? true }
    /// The daemon's process id, when this process started it.
    var processIdentifier: Int32? { process?.processIdentifier }

    /// The daemon's data directory, when this process started it.
    var dataDirectory: URL? { directory?.appendingPathComponent("data") }

    /// The daemon's resident memory (VmRSS) in MiB, when this process started it.
    var residentMiB: Double? { statusMiB("VmRSS:") }

    /// The daemon's peak resident memory so far (VmHWM) in MiB, when this process started it.
    var peakMiB: Double? { statusMiB("VmHWM:") }

    /// The daemon's anonymous resident memory (RssAnon: heap, stacks) in MiB.
    var anonymousMiB: Double? { statusMiB("RssAnon:") }

    /// The daemon's file-backed resident memory (RssFile: its code, libraries and mapped
    /// files, which the kernel can share and drop) in MiB.
    var fileBackedMiB: Double? { statusMiB("RssFile:") }

    /// "RSS 62.3 MiB (anonymous 30.1, file-backed 32.2)".
    var residentSummary: String {
        String(format: "RSS %.1f MiB (anonymous %.1f, file-backed %.1f)", residentMiB ?? 0, anonymousMiB ?? 0, fileBackedMiB ?? 0)
    }

    private func statusMiB(_ key: String) -> Double? {
        guard let pid = process?.processIdentifier,
              let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(key) {
            return (line.split(separator: " ").compactMap { Double($0) }.first ?? 0) / 1024
        }
        return nil
    }

    func stop() {
        if let process, process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            // Bounded: waitUntilExit has been seen never to return after the updates suite.
            for _ in 0..<1_000 where process.isRunning { usleep(10_000) }
        }
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }
}
