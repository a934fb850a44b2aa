/// A word as a POSIX shell reads it back unchanged, for command lines umctl prints for copying:
/// as it is when it holds only characters no shell treats specially, else in single quotes.
///
/// ```swift
/// ShellWord.quoted("1001_20220112@08:10:00")  // 1001_20220112@08:10:00
/// ShellWord.quoted("Bus 3's trip")            // 'Bus 3'\''s trip'
/// ```
enum ShellWord {
    static func quoted(_ word: String) -> String {
        // `=` first is zsh's path expansion. The quotes are escaped byte by byte: a `'` with a
        // combining mark after it is one Character, which a Character search would pass over.
        let plain = !word.isEmpty && !word.hasPrefix("=") && word.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || "@%+=:,./_-".unicodeScalars.contains(scalar)
        }
        guard !plain else { return word }
        let escaped = word.utf8.flatMap { $0 == UInt8(ascii: "'") ? Array(#"'\''"#.utf8) : [$0] }
        return "'" + String(decoding: escaped, as: UTF8.self) + "'"
    }
}
