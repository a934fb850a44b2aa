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
        guard !isSafe(text, keepingNewlines: keepingNewlines) else { return text }
        func isControl(_ scalar: Unicode.Scalar) -> Bool { Self.isControl(scalar, keepingNewlines: keepingNewlines) }
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
        switch value {
        case .string(let text): return isSafe(text)
        case .array(let items): return items.allSatisfy(Self.isSafe)
        case .object(let fields): return fields.allSatisfy { isSafe($0.key) && Self.isSafe($0.value) }
        default: return true
        }
    }

    /// Whether `text` holds no control (with `keepingNewlines`, but for "\n"), read byte by
    /// byte: a C0 control or DEL is one byte, a C1 control (U+0080…U+009F) the two bytes
    /// C2 80…C2 9F, and no other character's UTF-8 holds either (decoding every string's
    /// scalars was a tenth of `umctl status`).
    static func isSafe(_ text: String, keepingNewlines: Bool = false) -> Bool {
        var text = text // a native string: its bytes are read in place, not copied
        return text.withUTF8 { bytes in
            var previous: UInt8 = 0
            for byte in bytes {
                if (byte < 0x20 && !(keepingNewlines && byte == 0x0A)) || byte == 0x7F || (previous == 0xC2 && byte <= 0x9F) {
                    return false
                }
                previous = byte
            }
            return true
        }
    }

    static func safe(_ notification: WireNotification) -> WireNotification {
        WireNotification(method: safe(notification.method), params: safe(notification.params))
    }
}
