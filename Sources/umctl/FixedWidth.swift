/// Text left-aligned in a column of `width` UTF-16 units: padded with spaces, or cut when
/// longer, as Foundation's `padding(toLength:withPad:startingAt:)` did for the help lines.
enum FixedWidth {
    static func cell(_ text: String, width: Int) -> String {
        let units = text.utf16.count
        guard units <= width else { return String(decoding: Array(text.utf16.prefix(width)), as: UTF16.self) }
        return text + String(repeating: " ", count: width - units)
    }
}
