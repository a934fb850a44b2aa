import Foundation
import Planner
import Store

/// The user's saved places offered while a name is typed (`search.complete`), before the map's
/// places: a saved place is what this user means by that name. A saved place matches when each
/// typed word starts one of its name's words, ignoring case and accents ("hom" finds "Home",
/// "work ta" finds "Work (Tampere)"); those whose whole name is the text come first, then by name.
enum SavedPlaceCompletion {
    static func matches(_ text: String, in places: [SavedPlace], limit: Int) -> [SavedPlace] {
        let typed = words(text)
        guard !typed.isEmpty, limit > 0 else { return [] }
        let found = places.filter { place in
            let name = words(place.name)
            return typed.allSatisfy { word in name.contains { $0.hasPrefix(word) } }
        }
        let isWhole = { (place: SavedPlace) in words(place.name) == typed }
        return found.sorted { a, b in
            isWhole(a) != isWhole(b) ? isWhole(a) : a.name.localizedStandardCompare(b.name) == .orderedAscending
        }.prefix(limit).map { $0 }
    }

    /// Lower-case words without accents, split at anything that is not a letter or a digit.
    private static func words(_ text: String) -> [String] {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
            .split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }
}
