import Foundation
import Planner

/// Turns what a person typed into a plan node: `@here` (the current location), `lat,lon`,
/// a saved place's name, or text that is searched in every region (first result).
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

    /// - parameter near: results are ranked by distance from it; default the current location.
    /// - parameter region: search text only in this region.
    /// - parameter planRegion: the region of the plan the place joins: text is looked up there
    ///   first, and elsewhere only when that region has no match (so the plan's check can name
    ///   the region where it is).
    /// - throws: `DaemonError.noLocation` for `@here` without a fix, `.invalidParams` for a bad
    ///   coordinate or empty text, `.noRegion` when text must be searched and nothing is imported,
    ///   `.notFound` for an unknown region, `.placeNotFound` when the search finds nothing.
    public func resolve(_ text: String, near: Coordinate? = nil, region: String? = nil, planRegion: String? = nil) async throws -> PlanNode {
        if let node = try await resolveWithoutSearch(text) { return node }
        let near = near ?? location.current?.coordinate
        if region == nil, let planRegion {
            do {
                return try searched(text, near: near, region: planRegion)
            } catch DaemonError.placeNotFound {
                // Not in the plan's region: found elsewhere, the plan's own check names where.
            }
        }
        return try searched(text, near: near, region: region)
    }

    /// Only where `text` is (a `--near`, a `where`): coordinates are taken as they are, without
    /// the reverse geocode that names them as a plan node.
    public func point(of text: String, region: String? = nil) async throws -> Coordinate {
        if let coordinate = try Self.coordinate(from: text.trimmingCharacters(in: .whitespaces)) { return coordinate }
        return try await resolve(text, region: region).place.coordinate
    }

    /// `point(of:region:)` of a `near` that may be absent; nil without one.
    public func nearPoint(_ text: String?, region: String? = nil) async throws -> Coordinate? {
        guard let text else { return nil }
        return try await point(of: text, region: region)
    }

    /// Places of one trip or plan, resolved together: the region is the one that holds a match
    /// for every text (the best matches: exact before prefix before typo, summed), and every
    /// text is searched within it, so one end's region decides where a short name of the other
    /// is looked up. Saved places, coordinates and `@here` narrow the regions to those holding
    /// them. Ties go to the region containing `near` (else the first fixed place, else the
    /// current location).
    /// - throws: `DaemonError.placeNotFound` for a text no region has; `RoutingError.unsupportedInRegion`
    ///   when no single region has them all, naming the best match of each text in each region.
    public func resolveTogether(_ texts: [String], near: Coordinate? = nil, region: String? = nil) async throws -> [PlanNode] {
        var fixed: [PlanNode?] = []
        for text in texts { fixed.append(try await resolveWithoutSearch(text)) }
        let searched = texts.indices.filter { fixed[$0] == nil }
        guard !searched.isEmpty else { return fixed.compactMap { $0 } }
        let anchor = near ?? fixed.compactMap { $0?.place.coordinate }.first ?? location.current?.coordinate
        let fixedPlaces = fixed.compactMap { $0?.place.coordinate }
        var candidates = try region.map { [try regions.handle(named: $0)] } ?? regions.requireRegions()
        let holdingFixed = try candidates.filter { handle in
            try fixedPlaces.allSatisfy { point in try regions.handles(containing: point).contains { $0 === handle } }
        }
        if !holdingFixed.isEmpty { candidates = holdingFixed }
        let home = try anchor.map { try regions.handles(containing: $0) } ?? []
        candidates.sort { a, b in
            let homeA = home.firstIndex { $0 === a } ?? home.count, homeB = home.firstIndex { $0 === b } ?? home.count
            return (homeA, a.name) < (homeB, b.name)
        }
        var best: (score: Int, nodes: [PlanNode])?
        var matches: [String] = [], foundSomewhere = Set<Int>()
        for handle in candidates {
            var nodes = fixed, score = 0, found: [String] = [], matchedHere = false
            for index in searched {
                let text = texts[index].trimmingCharacters(in: .whitespaces)
                if let hit = try regions.search(text, near: anchor, preferring: nil, region: handle.name, limit: 1).first {
                    nodes[index] = PlanNode(place: hit.result.place)
                    score += hit.result.match.rawValue * 1_000 + hit.result.typoRank
                    found.append("\"\(text)\" → \(hit.result.name)")
                    foundSomewhere.insert(index)
                    matchedHere = true
                } else {
                    found.append("no match for \"\(text)\"")
                }
            }
            if nodes.allSatisfy({ $0 != nil }), score < (best?.score ?? .max) { best = (score, nodes.compactMap { $0 }) }
            if matchedHere { matches.append("in region \(handle.name): \(found.joined(separator: ", "))") }
        }
        if let best { return best.nodes }
        if let missing = searched.first(where: { !foundSomewhere.contains($0) }) {
            throw DaemonError.placeNotFound(texts[missing].trimmingCharacters(in: .whitespaces) + (region.map { " in region \($0)" } ?? ""))
        }
        throw RoutingError.unsupportedInRegion("no single region has every place: " + matches.joined(separator: "; "))
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

    private func searched(_ text: String, near: Coordinate?, region: String?) throws -> PlanNode {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let first = try regions.search(trimmed, near: near, preferring: near, region: region, limit: 1).first else {
            throw DaemonError.placeNotFound(trimmed + (region.map { " in region \($0)" } ?? ""))
        }
        return PlanNode(place: first.result.place)
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
    /// A trip's two ends from what was typed (`resolveTogether`).
    func resolveTrip(_ from: String, _ to: String, near: String?, region: String?,
                     regions: RegionRegistry) async throws -> (PlanNode, PlanNode) {
        let nodes = try await resolveTogether([from, to], near: near, region: region, regions: regions)
        return (nodes[0], nodes[1])
    }

    /// Places typed for one trip or plan, resolved together; `near` is a place too, looked up in `region` when given.
    func resolveTogether(_ texts: [String], near: String?, region: String?, regions: RegionRegistry) async throws -> [PlanNode] {
        _ = try regions.requireRegions()
        let anchor = try await nearPoint(near, region: region)
        return try await resolveTogether(texts, near: anchor, region: region)
    }
}
