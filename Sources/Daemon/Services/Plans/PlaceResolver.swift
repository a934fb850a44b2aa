import Foundation
import Planner
import Streets

/// Turns what a person typed into a plan node: `@here` (the current location), `lat,lon`,
/// a saved place's name, or text that is searched in every region (first result), with how
/// the search matched (`ResolvedPlace`).
public struct PlaceResolver: Sendable {
    let regions: RegionRegistry
    let location: LocationState
    /// Looks up a saved place by exact name; nil when there is none.
    let savedPlace: @Sendable (String) async throws -> Place?

    public init(regions: RegionRegistry, location: LocationState, savedPlace: @escaping @Sendable (String) async throws -> Place?) {
        self.regions = regions
        self.location = location
        self.savedPlace = savedPlace
    }

    public static let hereToken = "@here"

    /// The one rule for which of a typed name's equally good matches is taken (four stops
    /// "Kaleva A" … "Kaleva D"), the same in `compare`, `plan.new`, `plan.insert` and `plan.move`:
    /// the one nearest the `near` typed, else the current location, else the search's own order.
    /// Never the plan's other places nor the node an edit replaces: the same text gives the same
    /// place in every command (trial 49 finding 8: "Kaleva" was Kaleva A in `plan new` and
    /// Kaleva B in `plan move`, searched near the old node).
    static func nearness(near: Coordinate?, location: Coordinate?) -> Coordinate? { near ?? location }

    /// - parameter near: equal matches are ranked by distance from it; default the current
    ///   location (`nearness`).
    /// - parameter region: search text only in this region.
    /// - parameter planRegion: the region of the plan the place joins: text is looked up there
    ///   first, and elsewhere only when that region has no match (so the plan's check can name
    ///   the region where it is).
    /// - throws: `DaemonError.noLocation` for `@here` without a fix, `.invalidParams` for a bad
    ///   coordinate or empty text, `.noRegion` when text must be searched and nothing is imported,
    ///   `.notFound` for an unknown region, `.placeNotFound` when the search finds nothing,
    ///   `.placeElsewhere` when the plan's region has only a fuzzy match and another the exact name.
    public func resolve(_ text: String, near: Coordinate? = nil, region: String? = nil,
                        planRegion: String? = nil) async throws -> ResolvedPlace {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let node = try await resolveWithoutSearch(text) { return ResolvedPlace(text: trimmed, unsearched: node) }
        let near = Self.nearness(near: near, location: location.current?.coordinate)
        if region == nil, let planRegion {
            if let hit = try regions.search(trimmed, near: near, preferring: near, region: planRegion, limit: 1).first {
                try checkNoExactElsewhere(trimmed, hit.result, in: planRegion, near: near)
                return ResolvedPlace(text: trimmed, found: hit.result, region: hit.region)
            }
            // Not in the plan's region: found elsewhere, the plan's own check names where.
        }
        return try searched(trimmed, near: near, region: region)
    }

    /// Only where `text` is (a `--near`, a `where`): coordinates are taken as they are, without
    /// the reverse geocode that names them as a plan node.
    public func point(of text: String, region: String? = nil) async throws -> Coordinate {
        try await located(text, region: region).place.coordinate
    }

    /// A `near` typed as text, with how it matched; nil without one. Coordinates are taken as
    /// they are (named by their numbers, not reverse geocoded).
    public func nearPlace(_ text: String?, region: String? = nil) async throws -> ResolvedPlace? {
        guard let text else { return nil }
        return try await located(text, region: region)
    }

    /// `text` as a place whose position is all that counts: coordinates as they are, else `resolve`.
    private func located(_ text: String, region: String?) async throws -> ResolvedPlace {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let coordinate = try Self.coordinate(from: trimmed) {
            return ResolvedPlace(text: trimmed, unsearched: PlanNode(place: Place(name: Self.label(coordinate), coordinate: coordinate,
                                                                                 kind: .coordinate)))
        }
        return try await resolve(text, region: region)
    }

    /// `point(of:region:)` of a `near` that may be absent; nil without one.
    public func nearPoint(_ text: String?, region: String? = nil) async throws -> Coordinate? {
        try await nearPlace(text, region: region)?.place.coordinate
    }

    /// Places of one trip or plan, resolved together (docs/streets.md, "Resolving a trip"): every
    /// text is searched in every candidate region, and the region chosen is the one whose
    /// matches are best: its worst match first (exact, category, another number on the street,
    /// a street without numbers, prefix, words, typo), then all of them, then how near the
    /// places lie to each other, then to `near` (else the first fixed place, else the current
    /// location), then the regions containing that point first. Saved places, coordinates and
    /// `@here` narrow the regions to those holding them.
    /// - throws: `DaemonError.placeNotFound` for a text no region has; `.placeElsewhere` when
    ///   the chosen region has only a prefix or typo for a text another region has exactly;
    ///   `RoutingError.unsupportedInRegion` when no single region has them all, naming the best
    ///   match of each text in each region.
    public func resolveTogether(_ texts: [String], near: Coordinate? = nil, region: String? = nil) async throws -> [ResolvedPlace] {
        var fixed: [PlanNode?] = []
        for text in texts { fixed.append(try await resolveWithoutSearch(text)) }
        let trimmed = texts.map { $0.trimmingCharacters(in: .whitespaces) }
        let searched = texts.indices.filter { fixed[$0] == nil }
        guard !searched.isEmpty else { return fixed.indices.compactMap { i in fixed[i].map { ResolvedPlace(text: trimmed[i], unsearched: $0) } } }
        let anchor = near ?? fixed.compactMap { $0?.place.coordinate }.first ?? location.current?.coordinate
        // Which of a text's equal matches is taken: the one rule of every command (`nearness`).
        let matchNear = Self.nearness(near: near, location: location.current?.coordinate)
        let fixedPlaces = fixed.compactMap { $0?.place.coordinate }
        var candidates = try region.map { [try regions.handle(named: $0)] } ?? regions.requireRegions()
        let holdingFixed = try candidates.filter { handle in
            try fixedPlaces.allSatisfy { point in try regions.handles(containing: point).contains { $0 === handle } }
        }
        if !holdingFixed.isEmpty { candidates = holdingFixed }
        let home = try anchor.map { try regions.handles(containing: $0) } ?? []
        var found: [(region: String, home: Int, hits: [Int: PlaceSearchResult])] = []
        for handle in candidates {
            var hits: [Int: PlaceSearchResult] = [:]
            for index in searched {
                hits[index] = try regions.search(trimmed[index], near: matchNear, preferring: nil, region: handle.name, limit: 1).first?.result
            }
            found.append((handle.name, home.firstIndex { $0 === handle } ?? home.count, hits))
        }
        let complete = found.filter { $0.hits.count == searched.count }
        func key(_ choice: (region: String, home: Int, hits: [Int: PlaceSearchResult])) -> [Int] {
            let qualities = choice.hits.values.map(PlaceRanking.quality)
            let points = texts.indices.map { fixed[$0]?.place.coordinate ?? choice.hits[$0]!.coordinate }
            let spread = zip(points, points.dropFirst()).map { $0.distance(to: $1) }.max() ?? 0
            let fromAnchor = anchor.map { point in points.map { $0.distance(to: point) }.min() ?? 0 }
            return [qualities.max() ?? 0, qualities.reduce(0, +), choice.hits.values.map(\.typoRank).reduce(0, +),
                    PlaceRanking.nearness(spread), PlaceRanking.nearness(fromAnchor), choice.home]
        }
        if let best = complete.min(by: { a, b in
            let keyA = key(a), keyB = key(b)
            return keyA != keyB ? keyA.lexicographicallyPrecedes(keyB) : a.region < b.region
        }) {
            for index in searched {
                guard let hit = best.hits[index], Self.givesWay(hit) else { continue }
                if let exact = found.first(where: { $0.region != best.region && $0.hits[index].map(PlaceRanking.quality) == 0 }),
                   let name = exact.hits[index]?.name {
                    throw DaemonError.placeElsewhere(text: trimmed[index], here: best.region, found: hit.name,
                                                     exact: name, region: exact.region)
                }
            }
            return texts.indices.map { index in
                if let node = fixed[index] { return ResolvedPlace(text: trimmed[index], unsearched: node) }
                return ResolvedPlace(text: trimmed[index], found: best.hits[index]!, region: best.region)
            }
        }
        if let missing = searched.first(where: { index in !found.contains { $0.hits[index] != nil } }) {
            throw DaemonError.placeNotFound(trimmed[missing] + (region.map { " in region \($0)" } ?? ""))
        }
        let matches = found.filter { !$0.hits.isEmpty }.sorted { ($0.home, $0.region) < ($1.home, $1.region) }.map { choice in
            "in region \(choice.region): " + searched.map { index in
                choice.hits[index].map { "\"\(trimmed[index])\" → \($0.name)" } ?? "no match for \"\(trimmed[index])\""
            }.joined(separator: ", ")
        }
        throw RoutingError.unsupportedInRegion("no single region has every place: " + matches.joined(separator: "; "))
    }

    /// A prefix, words or a typo give way to an exact name in another region.
    static func givesWay(_ hit: PlaceSearchResult) -> Bool {
        [.prefix, .typo].contains(hit.matchKind)
    }

    /// Throws `placeElsewhere` when `hit`, the best match in `region`, is only a prefix or a typo
    /// and another region has the text exactly.
    private func checkNoExactElsewhere(_ text: String, _ hit: PlaceSearchResult, in region: String, near: Coordinate?) throws {
        guard Self.givesWay(hit) else { return }
        let exact = try regions.search(text, near: near, preferring: near, limit: 5).first {
            $0.region != region && PlaceRanking.quality($0.result) == 0
        }
        if let exact {
            throw DaemonError.placeElsewhere(text: text, here: region, found: hit.name, exact: exact.result.name, region: exact.region)
        }
    }

    /// `@here`, `lat,lon` or a saved place's name; nil for text that must be searched.
    func resolveWithoutSearch(_ text: String) async throws -> PlanNode? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw DaemonError.invalidParams("a place must not be empty") }
        if trimmed == Self.hereToken {
            guard let fix = location.current else { throw DaemonError.noLocation }
            return PlanNode(place: Place(name: "Current location", coordinate: fix.coordinate), isCurrentLocation: true)
        }
        if let coordinate = try Self.coordinate(from: trimmed) {
            return PlanNode(place: Place(name: name(of: coordinate), coordinate: coordinate, kind: .coordinate))
        }
        if let saved = try await savedPlace(trimmed) {
            return PlanNode(place: saved)
        }
        return nil
    }

    private func searched(_ trimmed: String, near: Coordinate?, region: String?) throws -> ResolvedPlace {
        guard let first = try regions.search(trimmed, near: near, preferring: near, region: region, limit: 1).first else {
            throw DaemonError.placeNotFound(trimmed + (region.map { " in region \($0)" } ?? ""))
        }
        return ResolvedPlace(text: trimmed, found: first.result, region: first.region)
    }

    /// `61.4981,23.7610` (spaces allowed after the comma). Nil when the text is not two numbers;
    /// throws when it is two numbers that are not a valid coordinate.
    public static func coordinate(from text: String) throws -> Coordinate? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) else { return nil }
        let coordinate = Coordinate(latitude: lat, longitude: lon)
        guard coordinate.isValid else {
            throw DaemonError.invalidParams("invalid coordinate \(text): latitude must be within ±90 and longitude within ±180")
        }
        return coordinate
    }

    /// What a place given as coordinates is called: "near Hämeenkatu 10" (`ReverseGeocode.label`),
    /// else the coordinates. A failing index only costs the name, so it is not an error here.
    func name(of coordinate: Coordinate) -> String {
        ((try? regions.reverse(coordinate))?.found.label) ?? Self.label(coordinate)
    }

    static func label(_ coordinate: Coordinate) -> String {
        String(format: "%.5f,%.5f", locale: Locale(identifier: "en_US_POSIX"), coordinate.latitude, coordinate.longitude)
    }
}

extension PlaceResolver {
    /// A trip's two ends from what was typed (`resolveTogether`), and its `near` when typed.
    func resolveTrip(_ from: String, _ to: String, near: String?, region: String?,
                     regions: RegionRegistry) async throws -> (from: ResolvedPlace, to: ResolvedPlace, near: ResolvedPlace?) {
        let resolved = try await resolveTogether([from, to], near: near, region: region, regions: regions)
        return (resolved.places[0], resolved.places[1], resolved.near)
    }

    /// Places typed for one trip or plan, resolved together; `near` is a place too, looked up in `region` when given.
    /// - throws: also `PlannerError.samePlaceTypedTwice` when two texts in a row, typed apart,
    ///   became one place (trial 51: `Kalevan kirkko` unquoted read as two places, "Kalevan
    ///   kirkko A would be at both ends"): said here, for every plan and trip typed together.
    func resolveTogether(_ texts: [String], near: String?, region: String?,
                         regions: RegionRegistry) async throws -> (places: [ResolvedPlace], near: ResolvedPlace?) {
        _ = try regions.requireRegions()
        let anchor = try await nearPlace(near, region: region)
        let places = try await resolveTogether(texts, near: anchor?.place.coordinate, region: region)
        for index in places.indices.dropLast() where places[index].node.place.id == places[index + 1].node.place.id
            && texts[index] != texts[index + 1] {
            throw PlannerError.samePlaceTypedTwice(name: places[index].node.place.name, texts: [texts[index], texts[index + 1]])
        }
        return (places, anchor)
    }
}
