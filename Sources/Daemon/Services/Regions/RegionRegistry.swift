import Foundation
import Planner
import Streets
import Synchronization

/// The imported regions as the daemon uses them, one `RegionHandle` per live region version:
/// which region a point or a trip is in, its time zone, and searches over every region.
///
/// Only this daemon imports, changes or removes regions in its data directory, and it calls
/// `invalidate` when it does; the handles are read once and then reused.
public final class RegionRegistry: Sendable {
    public let catalog: RegionCatalog
    private let streets: any LegEngine
    private let transit: any LegEngine
    private let counters: DaemonCounters
    /// The realtime feeds' states, shown with each region.
    /// The realtime feeds' states (which `region.list` and `status` show).
    let live: LiveFeedBoard?
    private let loaded = Mutex<[RegionHandle]?>(nil)

    public init(dataDirectory: URL, streets: any LegEngine, transit: any LegEngine,
                counters: DaemonCounters = DaemonCounters(), live: LiveFeedBoard? = nil) {
        catalog = RegionCatalog(dataDirectory: dataDirectory)
        self.streets = streets
        self.transit = transit
        self.counters = counters
        self.live = live
    }

    // MARK: - The regions

    /// Every live region, by name.
    public func handles() throws -> [RegionHandle] {
        if let cached = loaded.withLock({ $0 }) { return cached }
        let manifests = try catalog.regions()
        return loaded.withLock { loaded in
            if let cached = loaded { return cached }
            let handles = manifests.map { manifest in
                let link = catalog.directory(of: manifest.name)
                let directory = (try? FileManager.default.destinationOfSymbolicLink(atPath: link.path))
                    .map { catalog.regionsDirectory.appendingPathComponent($0, isDirectory: true) } ?? link
                return RegionHandle(manifest: manifest, directory: directory, streets: streets, transit: transit, counters: counters)
            }
            loaded = handles
            return handles
        }
    }

    public func regions() throws -> [RegionManifest] { try handles().map(\.manifest) }

    /// Every region, or `DaemonError.noRegion` when none is imported.
    @discardableResult
    public func requireRegions() throws -> [RegionHandle] {
        let all = try handles()
        guard !all.isEmpty else { throw DaemonError.noRegion }
        return all
    }

    /// - throws: `DaemonError.notFound` naming the regions there are.
    public func handle(named name: String) throws -> RegionHandle {
        let all = try requireRegions()
        guard let handle = all.first(where: { $0.name == name }) else {
            throw DaemonError.notFound("no region named \(name) (imported: \(all.map(\.name).joined(separator: ", ")))")
        }
        return handle
    }

    /// The regions containing `coordinate`, smallest first (overlapping regions: the most specific answers).
    public func handles(containing coordinate: Coordinate) throws -> [RegionHandle] {
        try handles().filter { $0.contains(coordinate) }.sorted { $0.manifest.boundingBox.area < $1.manifest.boundingBox.area }
    }

    /// The smallest region containing both ends of a trip.
    /// - throws: `RoutingError.unsupportedInRegion` naming the region of each end when no one region holds both.
    public func tripRegion(from: Place, to: Place) throws -> RegionHandle {
        let all = try requireRegions()
        let fromRegions = try handles(containing: from.coordinate), toRegions = try handles(containing: to.coordinate)
        if let shared = fromRegions.first(where: { region in toRegions.contains { $0 === region } }) { return shared }
        func whereIs(_ place: Place, _ regions: [RegionHandle]) -> String {
            regions.isEmpty ? "\(place.name) is outside every imported region (\(all.map(\.name).joined(separator: ", ")))"
                : "\(place.name) is in region \(regions.map(\.name).joined(separator: " and "))"
        }
        if fromRegions.isEmpty || toRegions.isEmpty {
            throw RoutingError.unsupportedInRegion([whereIs(from, fromRegions), whereIs(to, toRegions)]
                .filter { $0.contains("outside") }.joined(separator: "; "))
        }
        throw RoutingError.unsupportedInRegion(
            "the trip's ends are in different regions: \(whereIs(from, fromRegions)), \(whereIs(to, toRegions)); a trip must stay inside one region")
    }

    /// The smallest region holding every place of a plan (`places` in order, its ends first and
    /// last): a plan stays inside one region like a trip does.
    /// - throws: `RoutingError.unsupportedInRegion`: as `tripRegion` for the ends, else naming the
    ///   first place outside the region of the ends when no region holds them all.
    public func planRegion(through places: [Place]) throws -> RegionHandle {
        guard let first = places.first, let last = places.last, places.count >= 2 else {
            throw DaemonError.invalidParams("a plan needs at least two places")
        }
        let ends = try tripRegion(from: first, to: last)
        let holdingAll = try handles(containing: first.coordinate).filter { region in
            try places.allSatisfy { place in try handles(containing: place.coordinate).contains { $0 === region } }
        }
        if let smallest = holdingAll.first { return smallest }
        let outside = try places.first { try !handles(containing: $0.coordinate).contains { $0 === ends } } ?? last
        let regions = try handles(containing: outside.coordinate)
        let whereItIs = regions.isEmpty ? "outside every imported region" : "in region \(regions.map(\.name).joined(separator: " and "))"
        throw RoutingError.unsupportedInRegion(
            "\(outside.name) is \(whereItIs), not in region \(ends.name) with the plan's ends; a plan must stay inside one region")
    }

    /// The region a plan is in, where text typed into its edits is looked up; nil when no one region holds it.
    public func regionName(of plan: RoutePlan) -> String? {
        (try? planRegion(through: plan.nodes.map(\.place)))?.name
    }

    /// The zone of the smallest region containing `coordinate`; the machine's for nil or a point
    /// outside every region.
    public func timeZone(for coordinate: Coordinate?) -> TimeZone {
        guard let coordinate, let region = try? handles(containing: coordinate).first else { return TimeZone.current }
        return region.timeZone
    }

    /// The zone of a trip's region (where the times typed for it are read), else of its origin.
    public func timeZone(from: Place, to: Place) -> TimeZone {
        (try? tripRegion(from: from, to: to).timeZone) ?? timeZone(for: from.coordinate)
    }

    // MARK: - Searching every region

    /// A search result and the region it came from.
    public struct RegionalResult: Sendable {
        public var region: String
        public var result: PlaceSearchResult
    }

    /// Text searched in every region (or only in `region`), the answers ranked as one list by
    /// `PlaceRanking`: an exact name in one region before a prefix in another. Equal answers
    /// keep the regions' order: those containing `preferring` (smallest first), then the rest.
    /// - parameter complete: completions of text as it is typed (`PlaceIndex.complete`).
    /// - throws: `DaemonError.noRegion`, `.notFound` for an unknown `region`, `.invalidParams` for
    ///   overlong text, `RoutingError` when an index fails.
    public func search(_ text: String, near: Coordinate?, preferring: Coordinate?, region: String? = nil,
                       kinds: Set<PlaceSearchKind>? = nil, within: RegionBoundingBox? = nil, limit: Int,
                       complete: Bool = false) throws -> [RegionalResult] {
        let order = try searchOrder(preferring: preferring, region: region)
        var results: [(order: Int, regional: RegionalResult)] = []
        for (position, handle) in order.enumerated() {
            try asPlaceIndexError(region: handle.name) {
                let index = try handle.placeIndex()
                let found = complete
                    ? try index.complete(text, near: near, kinds: kinds, within: within, limit: limit)
                    : try index.search(text, near: near, kinds: kinds, within: within, limit: limit,
                                       languages: handle.manifest.languages.map(Set.init))
                results += found.map { (position, RegionalResult(region: handle.name, result: $0)) }
            }
        }
        return results.sorted { a, b in
            if PlaceRanking.precedes(a.regional.result, b.regional.result) { return true }
            if PlaceRanking.precedes(b.regional.result, a.regional.result) { return false }
            return a.order < b.order
        }.prefix(limit).map(\.regional)
    }

    /// For each region a search of `text` asks (as `search`) whose languages its category word is
    /// not of: "apteekki is Finnish; in saopaulo: farmacia / pharmacy" (`PlaceCategory.languageNote`).
    /// Near a place inside regions (`preferring`), only those: the search is about them, and a note
    /// on a region it merely falls back to would speak of places the user did not ask for.
    public func categoryLanguageNotes(_ text: String, preferring: Coordinate?, region: String?) throws -> [String] {
        let home = region == nil ? try preferring.map { try handles(containing: $0) } ?? [] : []
        return try (home.isEmpty ? searchOrder(preferring: preferring, region: region) : home).compactMap { handle in
            handle.manifest.languages.flatMap {
                PlaceIndex.categoryLanguageNote(for: text, languages: Set($0), regionName: handle.name)
            }
        }
    }

    /// What is at `coordinate`, from the smallest region containing it; nil outside every region.
    public func reverse(_ coordinate: Coordinate) throws -> (region: String, found: ReverseGeocode)? {
        guard let handle = try handles(containing: coordinate).first else { return nil }
        return try asPlaceIndexError(region: handle.name) { (handle.name, try handle.placeIndex().reverse(coordinate)) }
    }

    /// The regions a search asks, in order: `region` alone, else those containing `preferring`
    /// (smallest first), then every other.
    private func searchOrder(preferring: Coordinate?, region: String?) throws -> [RegionHandle] {
        if let region { return [try handle(named: region)] }
        let home = try preferring.map { try handles(containing: $0) } ?? []
        return home + (try requireRegions()).filter { region in !home.contains { $0 === region } }
    }

    /// A place index's errors as the daemon's: bad text is the caller's, the rest the engine's.
    private func asPlaceIndexError<T>(region: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch StreetsError.invalidQuery(let message) {
            throw DaemonError.invalidParams(message)
        } catch let error as StreetsError {
            throw RoutingError.engineFailure("region \(region): \(error.description)")
        }
    }

    // MARK: - Changes

    /// Reads the regions again after an import, a `region.set` or a removal of `name`: the
    /// handle of `name` and of any region whose version changed is closed, the others are kept
    /// (their open routers stay warm).
    public func invalidate(_ name: String) {
        let previous = loaded.withLock { loaded in
            defer { loaded = nil }
            return loaded ?? []
        }
        func unchanged(_ handle: RegionHandle) -> RegionHandle? {
            previous.first { $0.name == handle.name && $0.directory == handle.directory && $0.name != name }
        }
        let fresh = try? handles()
        if let fresh {
            loaded.withLock { loaded in loaded = fresh.map { unchanged($0) ?? $0 } }
        }
        for old in previous where fresh.map({ fresh in !fresh.contains { unchanged($0) === old } }) ?? true {
            old.close()
        }
    }

    /// Closes every region's workers (daemon shutdown).
    public func closeAll() {
        let all = loaded.withLock { loaded in
            defer { loaded = nil }
            return loaded ?? []
        }
        for handle in all { handle.close() }
    }
}

extension RegionRegistry {
    /// The zone a plan's times are read and shown in: its region's, as set now (a `region.set`
    /// re-times every plan of the region the next time it is shown).
    func timeZone(of plan: RoutePlan) -> TimeZone {
        guard let first = plan.nodes.first, let last = plan.nodes.last else { return TimeZone.current }
        return timeZone(from: first.place, to: last.place)
    }
}
