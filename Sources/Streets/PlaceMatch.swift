/// How well a result's name matches the text searched, best first. Across regions an exact
/// match always comes before a prefix, and a prefix before a fuzzy one.
public enum PlaceMatch: Int, Sendable, Codable, Comparable, Hashable {
    /// The whole name (or the address, or the category asked for).
    case exact
    /// The name starts with the text.
    case prefix
    /// Each word of the text starts one of the name's words.
    case words
    /// Within one or two wrong, missing, extra or swapped letters.
    case fuzzy

    public static func < (a: PlaceMatch, b: PlaceMatch) -> Bool { a.rawValue < b.rawValue }

    public var word: String {
        switch self {
        case .exact: "exact"
        case .prefix: "prefix"
        case .words: "words"
        case .fuzzy: "fuzzy"
        }
    }
}
