import Foundation

/// The streets of a region version being imported, as an additional step sees them: the step
/// starts beside planetsplitter and the place index and waits here for the part it needs, so an import takes about as long as its longest chain instead of
/// the sum of its parts.
///
/// ```swift
/// let step = RegionImportStep(name: "transit timetable", sources: [feed]) { staging, streets, progress in
///     try streets.waitForPlaceIndex()                     // places.sqlite and the street layer are
///     let feed = try GTFSFeed.read(feed)                  // beside planetsplitter
///     try PlaceIndex.addStops(feed.stops, toRegionDirectory: staging)
///     try streets.waitForRoutingDatabase()                // Routino's files are in `staging`
///     let footpaths = try time(feed.footpaths, in: staging)
///     return RegionImportStep.Outcome(providesTransit: true)
/// }
/// ```
public final class RegionImportStreets: Sendable {
    /// What a wait throws when that part of the streets failed or was stopped: the import then
    /// fails with the streets' own error, not the step's.
    public struct NotBuilt: Error, CustomStringConvertible {
        /// "the routing database" or "the place index".
        public var part: String
        public var description: String { "\(part) of the new region version was not built" }
    }

    let routingDatabase: ImportPromise<Void>
    let placeIndex: ImportPromise<Void>
    private let stop: @Sendable () -> Bool
    /// The region version these streets were kept from (`region update` of a feed: the same
    /// files, linked): what was measured on them there, such as footpath times, still holds.
    /// Nil for streets built by this import.
    public let keptFrom: URL?

    init(routingDatabase: ImportPromise<Void> = ImportPromise(), placeIndex: ImportPromise<Void> = ImportPromise(),
         stop: @escaping @Sendable () -> Bool = { false }, keptFrom: URL? = nil) {
        self.routingDatabase = routingDatabase
        self.placeIndex = placeIndex
        self.stop = stop
        self.keptFrom = keptFrom
    }

    /// Streets already complete in the directory (a step run alone, or on a kept region's streets).
    /// - parameter stop: true once the import is cancelled.
    /// - parameter keptFrom: the region version they were kept from, if any.
    static func built(stop: @escaping @Sendable () -> Bool = { false }, keptFrom: URL? = nil) -> RegionImportStreets {
        RegionImportStreets(routingDatabase: ImportPromise(kept: ()), placeIndex: ImportPromise(kept: ()), stop: stop, keptFrom: keptFrom)
    }

    /// True once the import is stopping (cancelled, or another part of it failed): a step's long
    /// work (timing footpaths) polls it and throws `CancellationError` rather than finish a
    /// version that will never go live.
    public var isStopping: Bool { stop() }

    /// Blocks until Routino's database (planetsplitter's output) is complete in the staging directory.
    /// - throws: `NotBuilt` when planetsplitter failed or the import is stopping.
    public func waitForRoutingDatabase() throws {
        guard case .success = routingDatabase.result() else { throw NotBuilt(part: "the routing database") }
    }

    /// Blocks until the place index (`places.sqlite`) and the street layer are complete in the
    /// staging directory.
    /// - throws: `NotBuilt` when indexing the places failed or the import is stopping.
    public func waitForPlaceIndex() throws {
        guard case .success = placeIndex.result() else { throw NotBuilt(part: "the place index") }
    }

    /// Blocks until both are complete.
    public func waitForAll() throws {
        try waitForRoutingDatabase()
        try waitForPlaceIndex()
    }
}
