extension StringProtocol {
    /// The text without leading and trailing blanks: tabs, Unicode space separators and the
    /// zero-width space, exactly what Foundation's `trimmingCharacters(in: .whitespaces)`
    /// removes (line breaks stay). Ours so that umctl needs no full Foundation.
    public func trimmingBlanks() -> String {
        func isBlank(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x09, 0x20, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: true
            default: false
            }
        }
        let scalars = String(self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !isBlank($0) }),
              let last = scalars.lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(scalars[first...last])
    }
}
