import WireProtocol

/// What umctl prints for a person is safe on a terminal: names from OpenStreetMap, GTFS or
/// other users can hold control characters (ESC[2J clears the screen, OSC 52 sets the
/// clipboard, CR overwrites a line). Each becomes a visible symbol (`␛`, `␍`, `␊`, `�`), so
/// nobody's text can act on the terminal or forge a line. `--json` output stays exact.
///
/// ```swift
/// print(TerminalText.safe(try command.render(TerminalText.safe(result)), keepingNewlines: true))
/// ```
enum TerminalText {
    /// `text` with C0 controls, DEL and C1 controls replaced; with `keepingNewlines`, "\n"
    /// stays (for whole output whose line ends umctl wrote itself).
    static func safe(_ text: String, keepingNewlines: Bool = false) -> String {
        func isControl(_ scalar: Unicode.Scalar) -> Bool { Self.isControl(scalar, keepingNewlines: keepingNewlines) }
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else { result.append(scalar); continue }
            switch scalar.value {
            case ..<0x20: result.append(Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}") // ␀…␟
            case 0x7F: result.append("\u{2421}") // ␡
            default: result.append("\u{FFFD}")
            }
        }
        return String(result)
    }

    /// Every string of a daemon answer (keys too) made safe, newlines included.
    static func safe(_ value: JSONValue) -> JSONValue {
        // The usual answer has nothing to replace: kept as it came, not rebuilt (every object's
        // keys hashed again cost a `umctl status` about 8 % of its instructions).
        guard !isSafe(value) else { return value }
        switch value {
        case .string(let text): return .string(safe(text))
        case .array(let items): return .array(items.map(safe))
        case .object(let fields): return .object(Dictionary(fields.map { (safe($0.key), safe($0.value)) }, uniquingKeysWith: { a, _ in a }))
        default: return value
        }
    }

    private static func isControl(_ scalar: Unicode.Scalar, keepingNewlines: Bool) -> Bool {
        (scalar.value < 0x20 && !(keepingNewlines && scalar == "\n")) || (0x7F...0x9F).contains(scalar.value)
    }

    /// Whether no string of `value`, keys included, holds a character `safe` replaces.
    private static func isSafe(_ value: JSONValue) -> Bool {
        func isSafe(_ text: String) -> Bool { !text.unicodeScalars.contains { isControl($0, keepingNewlines: false) } }
        switch value {
        case .string(let text): return isSafe(text)
        case .array(let items): return items.allSatisfy(Self.isSafe)
        case .object(let fields): return fields.allSatisfy { isSafe($0.key) && Self.isSafe($0.value) }
        default: return true
        }
    }

    static func safe(_ notification: WireNotification) -> WireNotification {
        WireNotification(method: safe(notification.method), params: safe(notification.params))
    }
}
