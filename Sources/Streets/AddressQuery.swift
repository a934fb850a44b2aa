/// "Street number" as people type it, read into its parts.
///
/// ```swift
/// AddressQuery(folded: "hameenkatu 10 b")          // street "hameenkatu", number 10, suffix "b"
/// AddressQuery(folded: "10 downing street")        // street "downing street", number 10
/// AddressQuery(folded: "avenida paulista, 1000")   // street "avenida paulista", number 1000
/// AddressQuery(folded: "hameenkatu 10, 33100 tampere")   // … with postcode "33100", city "tampere"
/// AddressQuery(folded: "rua da consolacao 920, 01302-000 sao paulo")   // postcode "01302000", city "sao paulo"
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
    /// A postcode after a comma, normalized (`normalizedPostcode`).
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
        qualifierWords = qualifiers.flatMap { $0 }
        self = reading(postcodes: [])
    }

    /// The words after the comma(s), folded: a postcode and a city, in any country's forms.
    public var qualifierWords: [String] = []

    /// The postcode and city read from `qualifierWords` with the postcodes a region knows
    /// (`normalizedPostcode` of its `addr:postcode` values): the longest run of words that is
    /// one of them is the postcode ("01302 000", "1234 ab", "sw1a 1aa"), the other words the
    /// city. Without a known run, the words holding digits are the postcode (one the region
    /// does not know, so it rules the region's addresses out).
    public func reading(postcodes: Set<String>) -> AddressQuery {
        var query = self
        let words = qualifierWords
        var postcodeRange: Range<Int>?
        search: for length in stride(from: min(3, words.count), through: 1, by: -1) where !words.isEmpty {
            for start in 0...(words.count - length) where postcodes.contains(words[start..<(start + length)].joined()) {
                postcodeRange = start..<(start + length)
                break search
            }
        }
        let cityWords: [String]
        if let range = postcodeRange {
            query.postcode = words[range].joined()
            cityWords = Array(words[..<range.lowerBound] + words[range.upperBound...])
        } else {
            let numbered = words.filter { word in word.contains { $0.isNumber } }
            query.postcode = numbered.isEmpty ? nil : numbered.joined()
            cityWords = words.filter { word in !word.contains { $0.isNumber } }
        }
        query.city = cityWords.isEmpty ? nil : cityWords.joined(separator: " ")
        return query
    }

    /// A postcode as compared: folded, letters and digits only ("01302-000" → "01302000",
    /// "1234 AB" → "1234ab", "SW1A 1AA" → "sw1a1aa").
    public static func normalizedPostcode(_ postcode: String) -> String {
        PlaceIndex.words(PlaceIndex.fold(postcode)).joined()
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
