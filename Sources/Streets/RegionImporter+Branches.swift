import Foundation
import Synchronization

extension RegionImporter {
    /// What the streets and the additional steps put in a new region version.
    struct BuiltVersion {
        var routingCounts: [String: Int]
        var places: PlacesSummary
        var outcomes: [RegionImportStep.Outcome]
    }

    /// What the manifest needs from the OpenStreetMap pass of the place index.
    struct PlacesSummary: Sendable {
        var nodeCount: Int
        var wayCount: Int
        var boundingBox: RegionBoundingBox
        /// Languages of the map's names (`OSMPlaceExtractor.Extract.languages`).
        var languages: [String]
    }

    /// Builds the routing database (planetsplitter, on this thread: its child dies with it),
    /// the place index and street layer (a thread of their own: they read the OSM file
    /// themselves and need nothing of planetsplitter's), and runs the additional steps (a third
    /// thread, waiting for the streets only where they need them, see `RegionImportStreets`),
    /// all at once. The import takes about as long as its longest chain, planetsplitter then the
    /// footpaths, instead of the sum.
    ///
    /// The first part to fail stops the others (planetsplitter is killed, a step waiting for
    /// the streets is released) and its error is the import's, naming its phase; all three
    /// have ended before this returns or throws, so the caller may remove `staging`.
    /// - throws: `CancellationError` when `isCancelled`, else the error of the part that failed
    ///   (planetsplitter's, then the place index's, then a step's, when several did).
    func buildStreetsAndSteps(osm: URL, staging: URL, planetsplitter: URL, steps: [RegionImportStep],
                              progress: @escaping @Sendable (RegionImportProgress) -> Void) throws -> BuiltVersion {
        let failing = FailureFlag()
        let isCancelled = self.isCancelled
        let stop: @Sendable () -> Bool = { isCancelled() || failing.isSet }
        let streets = RegionImportStreets(stop: stop)
        let importer = self
        let places = ImportPromise<PlacesSummary>.onThread("import-places") {
            do {
                let summary = try importer.indexPlaces(osm: osm, staging: staging, stop: stop, progress: progress)
                streets.placeIndex.settle(.success(()))
                return summary
            } catch {
                failing.set()
                streets.placeIndex.settle(.failure(error))
                throw error
            }
        }
        let outcomes = ImportPromise<[RegionImportStep.Outcome]>.onThread("import-steps") {
            do {
                return try importer.runSteps(steps, staging: staging, streets: streets, stop: stop, progress: progress)
            } catch {
                failing.set()
                throw error
            }
        }
        let routing = Result {
            try buildRoutingDatabase(osm: osm, into: staging, planetsplitter: planetsplitter, stop: stop, progress: progress)
        }
        if case .failure = routing { failing.set() }
        streets.routingDatabase.settle(routing.map { _ in })
        let placesResult = places.result(), outcomesResult = outcomes.result()

        if isCancelled() { throw CancellationError() }
        // A part stopped because another failed says so with these two; the other's error is the one.
        for case .failure(let error) in [routing.map { _ in }, placesResult.map { _ in }, outcomesResult.map { _ in }]
            where !(error is CancellationError) && !(error is RegionImportStreets.NotBuilt) {
            throw error
        }
        return BuiltVersion(routingCounts: try routing.get(), places: try placesResult.get(), outcomes: try outcomesResult.get())
    }

    /// Reads the OSM file's places and streets, and writes the place index and the street layer into `staging`.
    /// Stops reading when `stop` says so (the import was cancelled, or another part failed).
    private func indexPlaces(osm: URL, staging: URL, stop: @escaping @Sendable () -> Bool,
                             progress: (RegionImportProgress) -> Void) throws -> PlacesSummary {
        progress(RegionImportProgress(phase: "indexing places", fraction: 0))
        let extract = try withoutActuallyEscaping(progress) { report in
            try OSMPlaceExtractor.extract(from: osm, progress: { nodes, ways in
                report(RegionImportProgress(phase: "indexing places", detail: "\(nodes) nodes, \(ways) ways"))
            }, shouldStop: stop)
        }
        try PlaceIndex.build(in: staging, places: extract.places, addresses: extract.addresses,
                             interpolations: extract.interpolations)
        try StreetLayer.write(extract.streets, regionDirectory: staging)
        try extract.components.write(regionDirectory: staging)
        progress(RegionImportProgress(phase: "indexing places", fraction: 1, detail: "\(extract.places.count) places"))
        return PlacesSummary(nodeCount: extract.nodeCount, wayCount: extract.wayCount, boundingBox: extract.boundingBox,
                             languages: extract.languages)
    }

    /// The additional steps, in order; an error that is not a `StreetsError` is named after its step.
    private func runSteps(_ steps: [RegionImportStep], staging: URL, streets: RegionImportStreets, stop: () -> Bool,
                          progress: (RegionImportProgress) -> Void) throws -> [RegionImportStep.Outcome] {
        var outcomes: [RegionImportStep.Outcome] = []
        for step in steps {
            if stop() { throw CancellationError() }
            progress(RegionImportProgress(phase: step.name, fraction: 0))
            do {
                outcomes.append(try step.run(stagingDirectory: staging, streets: streets, progress: progress))
            } catch let error as StreetsError {
                throw error
            } catch let error as RegionImportStreets.NotBuilt {
                throw error
            } catch is CancellationError {
                throw CancellationError()  // stopped: the import says why (cancelled, or the part that failed)
            } catch {
                throw StreetsError.importFailed(phase: step.name, message: "\(error)")
            }
            progress(RegionImportProgress(phase: step.name, fraction: 1))
        }
        return outcomes
    }
}

/// Set once by the first part of an import that fails, so that the others stop.
private final class FailureFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    func set() { flag.store(true, ordering: .relaxed) }
    var isSet: Bool { flag.load(ordering: .relaxed) }
}
