import Foundation
import Glibc

/// A real HTTP server on 127.0.0.1 for tests that fetch over the network: Python's
/// `http.server` (local_http_server.py, next to this file) serving `directory` on a port the
/// system picks. Files get `ETag` and `Last-Modified`, conditional requests 304 and ranges
/// 206. Misbehaviour by path:
///
/// | path | answer |
/// | --- | --- |
/// | `/status/<code>` | that status |
/// | `/redirect/<path>` | 302 to `/<path>` |
/// | `/redirect-port/<port>/<path>` | 302 to `http://127.0.0.1:<port>/<path>` (another server) |
/// | `/redirect-loop` | 302 to itself |
/// | `/redirect-file` | 302 to `file:///etc/passwd` |
/// | `/stall/<file>` | headers, then nothing |
/// | `/cut/<file>` | promises the whole file, sends half, closes |
/// | `/cut-once/<file>` | as `/cut/` the first time, then the file as usual (ranges too) |
/// | `/huge` | `Content-Length` of 200 MB, and no body |
/// | `/html/<anything>` | 200 with an HTML error page |
/// | `/chunked/<file>` | the file chunked, with no `Content-Length` |
/// | `/noheaders/<file>` | the file without validators, ignoring conditions and ranges |
public final class LocalHTTPServer: @unchecked Sendable {
    public let directory: URL
    public let port: Int
    private let process: Process
    private let logFile: URL

    public init(directory: URL) throws {
        self.directory = directory
        logFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("usefulmap-http-\(UUID().uuidString).log")
        try Data().write(to: logFile)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("local_http_server.py")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script.path, directory.path, logFile.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let line = Self.firstLine(of: output.fileHandleForReading)
        guard let port = Int(line) else {
            process.terminate()
            throw LocalHTTPServerError.didNotStart(line)
        }
        self.port = port
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT/path`.
    public func url(_ path: String) -> String {
        "http://127.0.0.1:\(port)/" + (path.hasPrefix("/") ? String(path.dropFirst()) : path)
    }

    /// Every request answered so far, oldest first (logged before the answer is sent).
    public func requests() -> [LoggedRequest] {
        guard let text = try? String(contentsOf: logFile, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return LoggedRequest(method: object["method"] as? String ?? "", path: object["path"] as? String ?? "",
                                 ifNoneMatch: object["if_none_match"] as? String,
                                 ifModifiedSince: object["if_modified_since"] as? String,
                                 range: object["range"] as? String, status: object["status"] as? Int ?? 0)
        }
    }

    /// Forgets the requests logged so far.
    public func clearRequests() {
        try? Data().write(to: logFile)
    }

    public func stop() {
        if process.isRunning {
            process.terminate()
            // Bounded: waitUntilExit has been seen never to return inside a benchmark's task.
            for _ in 0..<200 where process.isRunning { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        try? FileManager.default.removeItem(at: logFile)
    }

    private static func firstLine(of handle: FileHandle) -> String {
        var bytes = Data()
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            bytes.append(chunk)
            if bytes.contains(UInt8(ascii: "\n")) { break }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.split(separator: "\n").first.map(String.init) ?? text
    }
}

/// One request the server answered.
public struct LoggedRequest: Sendable, Equatable {
    public var method: String
    public var path: String
    public var ifNoneMatch: String?
    public var ifModifiedSince: String?
    public var range: String?
    public var status: Int
}

public enum LocalHTTPServerError: Error {
    case didNotStart(String)
}
