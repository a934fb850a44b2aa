/// The one order of search results, in a region and across regions:
///
/// 1. quality of the match (`quality`): the exact name or address, then a place of the category
///    asked for or a name starting with the text's whole words, then another number on the street asked for, then a street without numbers for
///    an address, then prefixes, words, and typos (fewer first); so an exact name in one region
///    beats a prefix in another, and an address with its number beats a numberless namesake;
/// 2. nearness to the search's reference point (`--near`, the current location or the trip's
///    other end), in steps: within 1 km, 5 km, 25 km, farther;
/// 3. importance (stations and main roads first, single addresses last);
/// 4. a named place before an unnamed one ("Cafe Europa" before a cafe without a name);
/// 5. distance, then shorter name, then name.
public enum PlaceRanking {
    /// The steps of nearness: within 1 km, 5 km, 25 km, farther.
    static let nearnessSteps = [1_000.0, 5_000, 25_000]

    public static func precedes(_ a: PlaceSearchResult, _ b: PlaceSearchResult) -> Bool {
        let qualityA = quality(a), qualityB = quality(b)
        if qualityA != qualityB { return qualityA < qualityB }
        if a.typoRank != b.typoRank { return a.typoRank < b.typoRank }
        let nearA = nearness(a.distance), nearB = nearness(b.distance)
        if nearA != nearB { return nearA < nearB }
        if a.importance != b.importance { return a.importance > b.importance }
        if a.isUnnamed != b.isUnnamed { return !a.isUnnamed }
        if let da = a.distance, let db = b.distance, da != db { return da < db }
        if a.name.count != b.name.count { return a.name.count < b.name.count }
        return a.name < b.name
    }

    /// How well a result answers the text, lower is better: 0 the exact name or address, 1 a
    /// place of the category asked for or a name holding the text's whole words (at its start or not), 2 another number on the street (or one interpolated),
    /// 3 the street itself when it has no numbers, 4 a prefix, 5 words, 6 a typo.
    public static func quality(_ result: PlaceSearchResult) -> Int {
        switch result.match {
        case .exact: result.approximate == nil ? 0 : result.kind == .street ? 3 : 2
        case .category, .leading, .wholeWords: 1
        case .prefix: 4
        case .words: 5
        case .fuzzy: 6
        }
    }

    public static func nearness(_ distance: Double?) -> Int {
        guard let distance else { return 0 }
        return nearnessSteps.firstIndex { distance <= $0 } ?? nearnessSteps.count
    }
}
