/// The one order of search results, in a region and across regions:
///
/// 1. match: exact, then prefix, then words, then fuzzy (fewer typos first); an exact name in
///    one region beats prefixes in another;
/// 2. nearness to the search's reference point (`--near`, the current location or the trip's
///    other end), in steps: within 1 km, 5 km, 25 km, farther;
/// 3. importance (stations and main roads first, single addresses last);
/// 4. distance, then shorter name, then name.
public enum PlaceRanking {
    static let nearnessSteps = [1_000.0, 5_000, 25_000]

    public static func precedes(_ a: PlaceSearchResult, _ b: PlaceSearchResult) -> Bool {
        if a.match != b.match { return a.match < b.match }
        if a.typoRank != b.typoRank { return a.typoRank < b.typoRank }
        let nearA = nearness(a.distance), nearB = nearness(b.distance)
        if nearA != nearB { return nearA < nearB }
        if a.importance != b.importance { return a.importance > b.importance }
        if let da = a.distance, let db = b.distance, da != db { return da < db }
        if a.name.count != b.name.count { return a.name.count < b.name.count }
        return a.name < b.name
    }

    static func nearness(_ distance: Double?) -> Int {
        guard let distance else { return 0 }
        return nearnessSteps.firstIndex { distance <= $0 } ?? nearnessSteps.count
    }
}
