/// "Street number" as people type it, read into its parts.
///
/// ```swift
/// AddressQuery(folded: "hameenkatu 10 b")          // street "hameenkatu", number 10, suffix "b"
/// AddressQuery(folded: "10 downing street")        // street "downing street", number 10
/// AddressQuery(folded: "avenida paulista, 1000")   // street "avenida paulista", number 1000
/// AddressQuery(folded: "hameenkatu 10, 33100 tampere")   // … with postcode "33100", city "tampere"
/// ```
///
/// Text is folded first (`PlaceIndex.fold`). A query without a house number, or without a street
/// beside it, is not an address query (nil).
public struct AddressQuery: Hashable, Sendable {
    /// The street's words, folded, joined by single spaces.
    public var street: String
    /// The house number's digits.
    public var number: Int
    /// A letter or "-2" after the number ("10 B" → "b", "10a" → "a"), folded; "" when none.
    public var suffix: String
    /// A postcode after a comma.
    public var postcode: String?
    /// A city (or district) after a comma, folded.
    public var city: String?

    public init?(folded text: String) {
        let parts = text.split(separator: ",").map { PlaceIndex.words(String($0)) }.filter { !$0.isEmpty }
        guard let first = parts.first else { return nil }
        var qualifiers = Array(parts.dropFirst())
        var found = AddressQuery.split(first)
        // "Avenida Paulista, 1000": the number comes after the comma.
        if found == nil, let second = qualifiers.first, let number = AddressQuery.houseNumber(second) {
            found = (first, number.number, number.suffix)
            qualifiers.removeFirst()
        }
        guard let (street, number, suffix) = found, !street.isEmpty else { return nil }
        self.street = street.joined(separator: " ")
        self.number = number
        self.suffix = suffix
        for qualifier in qualifiers {
            for word in qualifier {
                if word.allSatisfy(\.isNumber) {
                    postcode = postcode ?? word
                } else {
                    city = city.map { "\($0) \(word)" } ?? word
                }
            }
        }
    }

    /// Splits "street… number [suffix]" or "number [suffix] street…".
    private static func split(_ words: [String]) -> (street: [String], number: Int, suffix: String)? {
        // Number last, optionally followed by a one-letter (or one-digit staircase) suffix.
        for suffixLength in [0, 1] where words.count >= 2 + suffixLength {
            let numberIndex = words.count - 1 - suffixLength
            let tail = Array(words[numberIndex...])
            if let parsed = houseNumber(tail) { return (Array(words[..<numberIndex]), parsed.number, parsed.suffix) }
        }
        // Number first: "10 Downing Street", "10b Downing Street".
        if words.count >= 2, let parsed = houseNumber([words[0]]), !words[1].allSatisfy(\.isNumber) {
            return (Array(words.dropFirst()), parsed.number, parsed.suffix)
        }
        return nil
    }

    /// "10", "10b", "10 b" (a single letter) as a number and suffix; nil otherwise.
    static func houseNumber(_ words: [String]) -> (number: Int, suffix: String)? {
        guard let first = words.first, words.count <= 2 else { return nil }
        let digits = first.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 6, let number = Int(digits) else { return nil }
        var suffix = String(first.dropFirst(digits.count))
        if words.count == 2 {
            guard suffix.isEmpty, words[1].count == 1, words[1].first?.isLetter == true else { return nil }
            suffix = words[1]
        }
        guard suffix.count <= 2, suffix.allSatisfy(\.isLetter) else { return nil }
        return (number, suffix)
    }

    /// A stored house number ("10", "10 B", "10b", "12-14") read the same way: number and suffix.
    static func parseStored(_ housenumber: String) -> (number: Int, suffix: String)? {
        let folded = PlaceIndex.fold(housenumber)
        let digits = folded.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let number = Int(digits.prefix(9)) else { return nil }
        let rest = folded.dropFirst(digits.count).filter { $0.isLetter }
        return (number, String(rest.prefix(2)))
    }
}
