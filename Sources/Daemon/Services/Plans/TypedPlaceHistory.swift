import Foundation
import Planner
import Store

/// Places typed as text into `compare`, `plan.new` and `plan.insert` go into search history
/// like a `search` does: the text and the place it found, with its region. A saved place's
/// name, coordinates and `@here` are not searches, so they are not recorded.
struct TypedPlaceHistory: Sendable {
    /// What was typed and the place the search picked.
    struct Typed: Sendable, Hashable {
        var text: String
        var place: Place
    }

    let regions: RegionRegistry
    let clock: any WallClock

    /// `text` with the place it resolved to, when resolving it needed a search; else nil. The
    /// place says which: only search results have an address, street, poi or stop kind (a saved
    /// place is `saved`, coordinates `coordinate`, `@here` none), so nothing is resolved again.
    func typed(_ text: String, resolved: Place) -> Typed? {
        guard let kind = resolved.kind, Self.searchedKinds.contains(kind) else { return nil }
        return Typed(text: text.trimmingCharacters(in: .whitespaces), place: resolved)
    }

    static let searchedKinds: Set<PlaceKind> = [.address, .street, .poi, .transitStop]

    /// The search history entries for `typed`, to be stored with the request's own write.
    func entries(_ typed: [Typed]) -> [SearchHistoryEntry] {
        typed.map { entry in
            // The region whose index found it: the (first) one containing the place.
            let region = (try? regions.handles(containing: entry.place.coordinate))?.first?.name
            return SearchHistoryEntry(query: entry.text, place: entry.place, date: clock.now(), region: region)
        }
    }
}
