/// How many terminal columns text takes: East Asian wide and fullwidth characters (CJK,
/// Hangul, most emoji) take two, combining marks and zero-width characters none, everything
/// else one. `Render.table` pads by it, so columns stay aligned whatever the names hold.
enum DisplayWidth {
    static func of(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + width($1) }
    }

    /// `text` followed by spaces up to `columns` (never cut).
    static func padded(_ text: String, to columns: Int) -> String {
        text + String(repeating: " ", count: max(0, columns - of(text)))
    }

    /// A number right-aligned in `columns` (`" 9"` beside `"10"`).
    static func number(_ value: Int, width columns: Int) -> String {
        let text = String(value)
        return String(repeating: " ", count: max(0, columns - text.count)) + text
    }

    static func width(_ scalar: Unicode.Scalar) -> Int {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if scalar.value == 0x200B || (0xFE00...0xFE0F).contains(scalar.value) { return 0 }
        if properties.isEmojiPresentation { return 2 }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}
