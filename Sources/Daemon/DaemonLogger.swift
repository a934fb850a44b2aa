import Foundation
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

    public func log(_ messageLevel: LogLevel, _ message: @autoclosure () -> String, _ extra: [String: String] = [:]) {
        guard messageLevel >= level else { return }
        var line = "<\(messageLevel.syslogPriority)>\(Self.escaped(message()))"
        let all = metadata.merging(extra) { _, new in new }
        for key in all.keys.sorted() {
            line += " \(Self.escaped(key))=\(quoted(all[key] ?? ""))"
        }
        sink(line + "\n")
    }

    public func debug(_ message: @autoclosure () -> String, _ extra: [String: String] = [:]) { log(.debug, message(), extra) }
    public func info(_ message: @autoclosure () -> String, _ extra: [String: String] = [:]) { log(.info, message(), extra) }
    public func notice(_ message: @autoclosure () -> String, _ extra: [String: String] = [:]) { log(.notice, message(), extra) }
    public func warning(_ message: @autoclosure () -> String, _ extra: [String: String] = [:]) { log(.warning, message(), extra) }
    public func error(_ message: @autoclosure () -> String, _ extra: [String: String] = [:]) { log(.error, message(), extra) }

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

    /// Whole lines, never interleaved between threads.
    public static let standardError: @Sendable (String) -> Void = { line in
        lock.withLock { _ in FileHandle.standardError.write(Data(line.utf8)) }
    }
}
