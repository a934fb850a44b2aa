/// A language the category words are written in (`PlaceCategory`), by its ISO 639-1 code.
///
/// A region's languages (`RegionManifest.languages`) are those its map and feeds are written in,
/// and English always; a category word asks for its category only in a region of its language.
public struct PlaceLanguage: Hashable, Sendable {
    /// ISO 639-1 code: "en", "fi", "pt".
    public var code: String
    /// The language in English: "Finnish".
    public var name: String

    /// The table's languages, in the order docs/streets.md lists them.
    public static let all: [PlaceLanguage] = [
        .init(code: "en", name: "English"), .init(code: "fi", name: "Finnish"), .init(code: "sv", name: "Swedish"),
        .init(code: "pt", name: "Portuguese"), .init(code: "es", name: "Spanish"), .init(code: "de", name: "German"),
        .init(code: "fr", name: "French"),
    ]

    /// Every region has English words.
    public static let always = "en"

    /// The language's name in English, or its code when it is not one of the table's.
    public static func name(of code: String) -> String {
        all.first { $0.code == code }?.name ?? code
    }

    /// A language code as OSM keys (`name:pt`) and GTFS (`feed_lang`, `agency_lang`: BCP 47, "pt-BR")
    /// give it: its first part, lowercased; nil for anything that is not two or three letters.
    public static func code(of tag: String) -> String? {
        let first = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? ""
        guard (2...3).contains(first.count), first.allSatisfy({ $0 >= "a" && $0 <= "z" }) else { return nil }
        return first
    }
}
