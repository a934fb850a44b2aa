import Planner
import Store
import Streets
import WireProtocol

extension WireDocuments {
    /// A search result on the wire.
    static func searchResult(_ result: PlaceSearchResult, region: String?) -> SearchResultDocument {
        SearchResultDocument(name: result.name, lat: result.coordinate.latitude, lon: result.coordinate.longitude,
                             region: region, kind: result.kind.rawValue, category: result.category,
                             distanceM: result.distance.map(whole), address: result.address,
                             match: result.match.word, approximate: result.approximate)
    }

    /// A search's answer: the results, and "did you mean" when only typos matched.
    static func search(_ found: [RegionRegistry.RegionalResult]) -> SearchDocument {
        let onlyTypos = !found.isEmpty && found.allSatisfy { $0.result.match == .fuzzy }
        return SearchDocument(results: found.map { searchResult($0.result, region: $0.region) },
                              didYouMean: onlyTypos ? found.first.map { $0.result.typoOf ?? $0.result.name } : nil)
    }

    /// A saved place as `search.complete` offers it: kind `saved`, its note as the address line.
    static func savedSearchResult(_ saved: SavedPlace) -> SearchResultDocument {
        SearchResultDocument(name: saved.name, lat: saved.place.coordinate.latitude, lon: saved.place.coordinate.longitude,
                             kind: "saved", category: nil, distanceM: nil, address: saved.note, match: "prefix")
    }

    /// `where`'s answer for `coordinate`.
    static func whereIs(_ coordinate: Coordinate, region: String?, found: ReverseGeocode?) -> WhereDocument {
        WhereDocument(lat: coordinate.latitude, lon: coordinate.longitude, region: region, label: found?.label,
                      address: found?.address.map { searchResult($0, region: region) },
                      place: found?.place.map { searchResult($0, region: region) },
                      street: found?.street.map { searchResult($0, region: region) })
    }
}
