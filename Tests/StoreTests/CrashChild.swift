import Foundation
import XCTest

/// Runs the `store-crash-child` helper executable (built beside the test bundle) and
/// collects the lines it prints.
final class CrashChild: @unchecked Sendable {
    let process = Process()
    private let output = Pipe()
    private let done = DispatchSemaphore(value: 0)
    private var collected = Data()

    static func executable() throws -> URL {
        let fileManager = FileManager.default
        var candidates: [URL] = []
        if let first = CommandLine.arguments.first {
            candidates.append(URL(fileURLWithPath: first).deletingLastPathComponent())
        }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        candidates.append(Bundle.main.bundleURL)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug"))
        for directory in candidates {
            let url = directory.appendingPathComponent("store-crash-child")
            if fileManager.isExecutableFile(atPath: url.path) { return url }
        }
        throw XCTSkip("store-crash-child is not built (looked in \(candidates.map(\.path)))")
    }

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = try Self.executable()
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // Drain the pipe as the child writes, so it never blocks on a full pipe.
        let reader = output.fileHandleForReading
        Thread.detachNewThread { [self] in
            let data = reader.readDataToEndOfFile()
            collected = data
            done.signal()
        }
    }

    /// SIGKILL: no chance to flush, close or clean up.
    func kill() {
        _ = Foundation.kill(process.processIdentifier, SIGKILL)
    }

    /// Waits for the child to end and returns every line it printed.
    func finish() -> [String] {
        process.waitUntilExit()
        done.wait()
        return String(decoding: collected, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    var wasKilled: Bool { process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL }
}
