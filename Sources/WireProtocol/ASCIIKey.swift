/// `WireKeyName`'s conversions for a key of ASCII bytes only, with the same rules spelled on
/// bytes; nil for any other key (the general path converts it).
enum ASCIIKey {
    /// As `WireKeyName.snakeCase`, or nil when `key` is not ASCII.
    static func snakeCase(_ key: String) -> String? {
        let bytes = Array(key.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        guard bytes.contains(where: isUpper) else { return key }
        guard bytes.count > 1 else { return String(decoding: bytes.map(lowered), as: UTF8.self) }
        var words: [Range<Int>] = []
        var wordStart = 0
        var searchStart = 1
        while let upper = bytes[searchStart...].firstIndex(where: isUpper) {
            words.append(wordStart..<upper)
            guard let lower = bytes[upper...].firstIndex(where: isLower) else {
                wordStart = upper
                break
            }
            if lower == upper + 1 {
                wordStart = upper
            } else {
                // A run of capitals is a word of its own, up to the capital before the lower case.
                words.append(upper..<(lower - 1))
                wordStart = lower - 1
            }
            searchStart = lower + 1
        }
        words.append(wordStart..<bytes.count)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + words.count)
        for (index, word) in words.enumerated() {
            if index > 0 { result.append(UInt8(ascii: "_")) }
            for position in word { result.append(lowered(bytes[position])) }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// As `WireKeyName.camelCase`, or nil when `key` is not ASCII.
    static func camelCase(_ key: String) -> String? {
        let bytes = Array(key.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        let underscore = UInt8(ascii: "_")
        guard bytes.contains(underscore) else { return key }
        guard let first = bytes.firstIndex(where: { $0 != underscore }),
              let last = bytes.lastIndex(where: { $0 != underscore }) else { return key }
        let words = bytes[first...last].split(separator: underscore)
        guard words.count > 1 else { return key }
        var result = Array(bytes[..<first])
        result.reserveCapacity(bytes.count)
        for (index, word) in words.enumerated() {
            for (offset, byte) in zip(word.indices, word) {
                result.append(index > 0 && offset == word.startIndex ? raised(byte) : lowered(byte))
            }
        }
        result.append(contentsOf: bytes[(last + 1)...])
        return String(decoding: result, as: UTF8.self)
    }

    private static func isUpper(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
    private static func isLower(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") }
    private static func lowered(_ byte: UInt8) -> UInt8 { isUpper(byte) ? byte + 32 : byte }
    private static func raised(_ byte: UInt8) -> UInt8 { isLower(byte) ? byte - 32 : byte }
}
