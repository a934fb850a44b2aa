/// A closed set of words a param takes (modes, paces, presets, formats, access levels), read once
/// when the params are decoded: a value outside the set is refused there as `invalid_params`,
/// naming the param and the words it takes, so no handler checks the string again.
public protocol WireWord: RawRepresentable<String>, CaseIterable, Codable, Hashable, Sendable {}

extension WireWord {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let word = Self(rawValue: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "\"\(text)\" must be \(Self.allowedWords)"))
        }
        self = word
    }

    /// The words in declaration order, as a person reads a list: "walk, transit, car or bike".
    public static var allowedWords: String {
        let words = allCases.map(\.rawValue)
        guard let last = words.last, words.count > 1 else { return words.joined() }
        return words.dropLast().joined(separator: ", ") + " or " + last
    }
}
