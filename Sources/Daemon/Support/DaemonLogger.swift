import Foundation
import Glibc
import Synchronization

/// Log severities, ordered, with their syslog numbers (journald reads a `<N>` line prefix).
public enum LogLevel: String, Sendable, CaseIterable, Comparable {
    case debug, info, notice, warning, error

    var syslogPriority: Int {
        switch self {
        case .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        }
    }

    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.syslogPriority > b.syslogPriority }
}

/// Writes one line per event to stderr: `<6>message key=value ...`. Under systemd the
/// journal turns the prefix into the priority; on a terminal it is still readable.
/// Per-request context (request id, plan id, method) travels as metadata, not in the text.
/// Control characters in the message and values are escaped (`\n`, `\u{1B}`), so text from a
/// client (a request id, a place name) can neither break a line nor forge one.
public struct DaemonLogger: Sendable {
    public var level: LogLevel
    public var metadata: [String: String]
    private let sink: @Sendable (String) -> Void

    public init(level: LogLevel, metadata: [String: String] = [:],
                sink: @escaping @Sendable (String) -> Void = DaemonLogger.standardError) {
        self.level = level
        self.metadata = metadata
        self.sink = sink
    }

    /// A logger carrying extra metadata.
    public func with(_ extra: [String: String]) -> DaemonLogger {
        var copy = self
        copy.metadata.merge(extra) { _, new in new }
        return copy
    }

    /// `message` and `extra` are only made when the level is logged: a debug line's formatting
    /// (an elapsed time, a description) costs nothing while debug is off.
    public func log(_ messageLevel: LogLevel, _ message: @autoclosure () -> String,
                    _ extra: @autoclosure () -> [String: String] = [:]) {
        guard messageLevel >= level else { return }
        var line = "<\(messageLevel.syslogPriority)>\(Self.escaped(message()))"
        let all = metadata.merging(extra()) { _, new in new }
        for key in all.keys.sorted() {
            line += " \(Self.escaped(key))=\(quoted(all[key] ?? ""))"
        }
        sink(line + "\n")
    }

    public func debug(_ message: @autoclosure () -> String, _ extra: @autoclosure () -> [String: String] = [:]) {
        log(.debug, message(), extra())
    }
    public func info(_ message: @autoclosure () -> String, _ extra: @autoclosure () -> [String: String] = [:]) {
        log(.info, message(), extra())
    }
    public func notice(_ message: @autoclosure () -> String, _ extra: @autoclosure () -> [String: String] = [:]) {
        log(.notice, message(), extra())
    }
    public func warning(_ message: @autoclosure () -> String, _ extra: @autoclosure () -> [String: String] = [:]) {
        log(.warning, message(), extra())
    }
    public func error(_ message: @autoclosure () -> String, _ extra: @autoclosure () -> [String: String] = [:]) {
        log(.error, message(), extra())
    }

    private func quoted(_ raw: String) -> String {
        let value = Self.escaped(raw)
        return value.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" }) || value.isEmpty
            ? "\"" + value.replacingOccurrences(of: "\"", with: "\\\"") + "\"" : value
    }

    /// `text` with backslashes doubled and control characters written as `\n`, `\r`, `\t` or
    /// `\u{1B}`: one log line per event, whatever a client sent.
    private static func escaped(_ text: String) -> String {
        func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
            scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\\"
        }
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\\": result += "\\\\"
            case _ where needsEscape(scalar): result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static let lock = Mutex(())
    private static let dropped = Atomic<Int>(0)
    /// Set after a write found stderr not writable within a second, so that a reader that
    /// stopped reading costs later lines no wait until one gets through again.
    private static let stalled = Atomic<Bool>(false)

    /// Lines the standard-error sink could not write (a full disk, a reader gone or stalled),
    /// shown in `status` as `counters.log_lines_dropped`.
    public static var droppedLines: Int { dropped.load(ordering: .relaxed) }

    /// Whole lines, never interleaved between threads. A line that cannot be written is
    /// dropped and counted: logging never stops or kills the daemon.
    public static let standardError: @Sendable (String) -> Void = { line in
        let written = lock.withLock { _ in writeToStandardError(line) }
        if !written { dropped.add(1, ordering: .relaxed) }
    }

    /// Writes `text` to stderr with plain `write(2)`, which reports a failure instead of
    /// raising as `FileHandle.write` does (SIGILL on `2>/dev/full`, or once a pipe's reader
    /// has gone; SIGPIPE is ignored). Returns whether all of it was written.
    @discardableResult
    public static func writeToStandardError(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            var descriptor = pollfd(fd: STDERR_FILENO, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&descriptor, 1, stalled.load(ordering: .relaxed) ? 0 : 1000)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else {
                stalled.store(true, ordering: .relaxed)
                return false
            }
            let count = bytes[offset...].withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        stalled.store(false, ordering: .relaxed)
        return true
    }
}
