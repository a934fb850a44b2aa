/// How well a result's name matches the text searched, best first. Across regions an exact
/// match always comes before a category (or a name starting with the text's whole words), that
/// before a prefix, and a prefix before a fuzzy one (`PlaceRanking.quality` also weighs
/// approximate addresses).
public enum PlaceMatch: Int, Sendable, Codable, Comparable, Hashable {
    /// The whole name (or the address).
    case exact
    /// The name starts with the text's whole words ("Rautatieasema A" for "Rautatieasema"):
    /// as good as a category, so a stop named by a category word is not buried under the
    /// category's places far away.
    case leading
    /// The name has the text's whole words as words of it, not at its start ("Hotelli Kauppi"
    /// for "Kauppi"): a word typed whole names that place more surely than a longer word that
    /// merely starts with it ("Kauppiaankatu", a street across the city).
    case wholeWords
    /// A place of the kind a category word asked for ("pharmacy"), whatever its name.
    case category
    /// The name starts with the text.
    case prefix
    /// Each word of the text starts one of the name's words.
    case words
    /// Within one or two wrong, missing, extra or swapped letters; or named by all the text's
    /// words but one (`PlaceIndex.namesLeavingOutAWord`).
    case fuzzy

    public static func < (a: PlaceMatch, b: PlaceMatch) -> Bool { a.rawValue < b.rawValue }

    public var word: String {
        switch self {
        case .exact: "exact"
        case .leading: "prefix"
        case .wholeWords: "words"
        case .category: "category"
        case .prefix: "prefix"
        case .words: "words"
        case .fuzzy: "fuzzy"
        }
    }
}
