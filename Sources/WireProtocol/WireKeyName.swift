/// How a Swift property name is spelled on the wire and back, exactly as `WireCodec`'s
/// `JSONEncoder` (`.convertToSnakeCase`) and `JSONDecoder` (`.convertFromSnakeCase`) spell it,
/// for the client's own coders (`JSONValueEncoder`, `JSONValueDecoder`).
///
/// ```swift
/// WireKeyName.snakeCase("myURLProperty")  // "my_url_property"
/// WireKeyName.camelCase("trip_id")        // "tripId": a property `tripID` needs a CodingKey "tripId"
/// ```
///
/// Keys are ASCII in practice, and an ASCII key is converted byte by byte: the general path's
/// `Character` operations (case mapping, generic appends of substrings) cost a short-lived
/// client more than the rest of decoding an answer (issue 26); it stays for any other key.
enum WireKeyName {
    /// Words split where lower case turns upper, and before the last capital of a run of
    /// capitals followed by lower case; every word lower-cased and joined with `_`.
    static func snakeCase(_ key: String) -> String {
        if let converted = ASCIIKey.snakeCase(key) { return converted }
        let characters = Array(key)
        guard characters.count > 1 else { return key.lowercased() }
        var words: [ArraySlice<Character>] = []
        var wordStart = 0
        var searchStart = 1
        while let upper = characters[searchStart...].firstIndex(where: \.isUppercase) {
            words.append(characters[wordStart..<upper])
            guard let lower = characters[upper...].firstIndex(where: \.isLowercase) else {
                wordStart = upper
                break
            }
            if lower == upper + 1 {
                wordStart = upper
            } else {
                // A run of capitals is a word of its own, up to the capital before the lower case.
                words.append(characters[upper..<(lower - 1)])
                wordStart = lower - 1
            }
            searchStart = lower + 1
        }
        words.append(characters[wordStart...])
        return words.map { String($0).lowercased() }.joined(separator: "_")
    }

    /// Leading and trailing underscores kept; in between, the first word lower-cased and each
    /// later one capitalised (`is_open` → `isOpen`); a key without `_` is kept as it is.
    static func camelCase(_ key: String) -> String {
        if let converted = ASCIIKey.camelCase(key) { return converted }
        guard let first = key.firstIndex(where: { $0 != "_" }) else { return key }
        guard let last = key.lastIndex(where: { $0 != "_" }) else { return key }
        let core = key[first...last]
        let words = core.split(separator: "_")
        guard words.count > 1 else { return key }
        var result = String(key[..<first]) + words[0].lowercased()
        for word in words.dropFirst() {
            result += word.prefix(1).uppercased() + word.dropFirst().lowercased()
        }
        return result + key[key.index(after: last)...]
    }

    /// Keyed containers of `[String: Value]` use the standard library's own key type: those
    /// keys are data, and Foundation's coders leave them unconverted, so ours do too. Told
    /// apart by the type's name, which needs no dynamic cast.
    static func isDictionaryKey<Key: CodingKey>(_ type: Key.Type) -> Bool {
        _typeName(type, qualified: true) == "Swift._DictionaryCodingKey"
    }
}
