import Foundation
import Glibc
import Synchronization

/// Import progress for a person on stderr. On a terminal: one line rewritten in place (`\r`,
/// cleared to its end, cut to the terminal's width so it never wraps), ended by `finish()`
/// before the answer is printed. Anywhere else (a pipe, a file, a log): one line per update.
final class ProgressLine: Sendable {
    static let standardError = ProgressLine(descriptor: STDERR_FILENO)

    private let descriptor: Int32
    private let isTerminal: Bool
    /// True while a rewritten line is on the terminal without its newline.
    private let lineOpen = Mutex(false)

    init(descriptor: Int32) {
        self.descriptor = descriptor
        isTerminal = isatty(descriptor) == 1
    }

    /// "47% transit timetable: timing footpaths on the streets: 1200 of 3400".
    static func text(phase: String, detail: String, overall: Double?, fraction: Double?) -> String {
        let percent = (overall ?? fraction).map { String(format: "%3.0f%% ", $0 * 100) } ?? "     "
        return TerminalText.safe("\(percent)\(phase)\(detail.isEmpty ? "" : ": \(detail)")", keepingNewlines: false)
    }

    func show(_ text: String) {
        guard isTerminal else { return write(text + "\n") }
        let fitted = String(text.prefix(max(20, width - 1)))
        lineOpen.withLock { lineOpen in
            lineOpen = true
            write("\r\u{1B}[K" + fitted)
        }
    }

    /// Ends the rewritten line, if one is open, so the next output starts on its own line.
    func finish() {
        lineOpen.withLock { lineOpen in
            if lineOpen { write("\n") }
            lineOpen = false
        }
    }

    private var width: Int {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    private func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
