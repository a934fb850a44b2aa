import FoundationEssentials
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

    /// `safe(value)` for a value parsed from `line`: kept as it is, without looking at its
    /// strings, when the line's bytes show it can hold no control (`isSafe(line:)`).
    static func safe(_ value: JSONValue, cameIn line: Data) -> JSONValue {
        isSafe(line: line) ? value : safe(value)
    }

    /// Whether no string parsed from this line of JSON can hold a control: none of its bytes is
    /// one, and it has no backslash, so no escape (`\u001b`, `\n`, `\u0085`, …) makes one. A
    /// line with a backslash anywhere (an escaped quote too) is not known safe. One pass over
    /// the bytes, where walking a `status` answer's strings was a tenth of `umctl status`.
    static func isSafe(line: Data) -> Bool {
        line.withUnsafeBytes { bytes in
            holdsNoMarker(bytes)
                || (!bytes.contains(UInt8(ascii: "\\")) && isSafe(bytes: bytes.bindMemory(to: UInt8.self), keepingNewlines: false))
        }
    }

    /// Whether `bytes` hold none of the bytes a control or an escape needs: below 0x20, DEL,
    /// the backslash, or 0xC2 (the lead byte of U+0080…U+00BF, the C1 controls among them).
    /// Eight bytes at a time (each test is exact for the word as a whole): the usual answer has
    /// none, and a byte-by-byte scan cost as much as walking its strings did.
    static func holdsNoMarker(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasByteBelow(_ limit: UInt64, _ word: UInt64) -> Bool { (word &- ones &* limit) & ~word & highs != 0 }
        func hasByte(_ byte: UInt64, _ word: UInt64) -> Bool { hasByteBelow(1, word ^ (ones &* byte)) }
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            if hasByteBelow(0x20, word) || hasByte(0x7F, word) || hasByte(0x5C, word) || hasByte(0xC2, word) { return false }
            offset += 8
        }
        return !bytes[offset...].contains { $0 < 0x20 || $0 == 0x7F || $0 == 0x5C || $0 == 0xC2 }
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
        return text.withUTF8 { isSafe(bytes: $0, keepingNewlines: keepingNewlines) }
    }

    /// Whether UTF-8 `bytes` hold no control (with `keepingNewlines`, but for "\n").
    private static func isSafe(bytes: UnsafeBufferPointer<UInt8>, keepingNewlines: Bool) -> Bool {
        var previous: UInt8 = 0
        for byte in bytes {
            if (byte < 0x20 && !(keepingNewlines && byte == 0x0A)) || byte == 0x7F || (previous == 0xC2 && byte <= 0x9F) {
                return false
            }
            previous = byte
        }
        return true
    }

    static func safe(_ notification: WireNotification) -> WireNotification {
        WireNotification(method: safe(notification.method), params: safe(notification.params))
    }
}
