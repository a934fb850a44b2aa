/// What a name given by a person (a saved place's name, a plan's title) may hold: text that can
/// be read and typed. Control characters (NUL, escape, newline, C1 codes) are refused before
/// anything is resolved or stored; a NUL would otherwise reach SQLite, which ends text there.
enum NameRule {
    static let description = "a name must not contain control characters (U+0000–U+001F, U+007F–U+009F)"

    /// - throws: `DaemonError.invalidParams` naming `field`, the first control character and the rule.
    static func check(_ name: String, field: String) throws(DaemonError) {
        guard let position = name.unicodeScalars.firstIndex(where: isControl) else { return }
        let scalar = name.unicodeScalars[position]
        let offset = name.unicodeScalars.distance(from: name.unicodeScalars.startIndex, to: position) + 1
        let code = String(scalar.value, radix: 16, uppercase: true)
        throw DaemonError.invalidParams(
            "\(field) holds the control character U+\(String(repeating: "0", count: max(0, 4 - code.count)))\(code) at character \(offset): \(description)")
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
