import Foundation

/// Extra work an import does inside the new region version before it goes live, such as the
/// transit timetable. It writes into `stagingDirectory`; if it throws, the import fails and the
/// previous version of the region stays in use.
///
/// The steps run one after another on a thread of their own, started with planetsplitter and the
/// place index. A step made with `run:` waits until both are built; one made with
/// `besideStreets:` waits itself, only where it needs them (`RegionImportStreets`).
///
/// ```swift
/// let gtfs = RegionImportStep(name: "transit timetable", sources: [feedURL]) { staging, progress in
///     progress(RegionImportProgress(phase: "transit timetable", detail: "stops"))
///     try TimetableBuilder.build(feed: feedURL, into: staging)
///     try PlaceIndex.addStops(stops, toRegionDirectory: staging)
///     return RegionImportStep.Outcome(timeZone: RegionTimeZoneDecision(zone: "Europe/Helsinki", source: "feed"),
///                                     providesTransit: true)
/// }
/// ```
public struct RegionImportStep: Sendable {
    /// Shown in progress and recorded in the manifest's `steps`.
    public var name: String
    /// Files the step reads; their sha256 joins the manifest, so a changed feed is not skipped.
    public var sources: [URL]
    /// How large each of `sources` may be (checked by size before the import reads it); nil: any size.
    public var sourceLimit: SourceSizeLimit?
    private let body: @Sendable (URL, RegionImportStreets, (RegionImportProgress) -> Void) throws -> Outcome

    /// What a step found that the manifest records.
    public struct Outcome: Sendable {
        /// The zone its sources state (a GTFS feed's `agency_timezone`), if any.
        public var timeZone: RegionTimeZoneDecision?
        /// True when it wrote a transit timetable.
        public var providesTransit: Bool
        /// Rows per kind it counted (`stops_beyond_streets`…), added to the manifest's counts.
        public var counts: [String: Int]
        /// Languages its sources are written in (a GTFS feed's `feed_lang`, `agency_lang`), as codes.
        public var languages: [String]

        public init(timeZone: RegionTimeZoneDecision? = nil, providesTransit: Bool = false, counts: [String: Int] = [:],
                    languages: [String] = []) {
            self.timeZone = timeZone
            self.providesTransit = providesTransit
            self.counts = counts
            self.languages = languages
        }
    }

    /// A step that starts once the streets (routing database, place index, street layer) are built.
    public init(name: String, sources: [URL] = [], sourceLimit: SourceSizeLimit? = nil,
                run: @escaping @Sendable (_ stagingDirectory: URL, _ progress: (RegionImportProgress) -> Void) throws -> Outcome) {
        self.init(name: name, sources: sources, sourceLimit: sourceLimit) { staging, streets, progress in
            try streets.waitForAll()
            return try run(staging, progress)
        }
    }

    /// A step that starts with the streets and waits for them itself (`RegionImportStreets`).
    public init(name: String, sources: [URL] = [], sourceLimit: SourceSizeLimit? = nil,
                besideStreets: @escaping @Sendable (_ stagingDirectory: URL, _ streets: RegionImportStreets,
                                                    _ progress: (RegionImportProgress) -> Void) throws -> Outcome) {
        self.name = name
        self.sources = sources
        self.sourceLimit = sourceLimit
        self.body = besideStreets
    }

    /// Runs the step alone in `stagingDirectory`, whose streets are already complete.
    /// - parameter isCancelled: true stops the step's long work (`RegionImportStreets.isStopping`).
    @discardableResult
    /// - parameter keptStreetsOf: the region version whose streets the staging directory holds
    ///   (linked, unchanged), when a rebuild kept them.
    public func run(stagingDirectory: URL, isCancelled: @escaping @Sendable () -> Bool = { false }, keptStreetsOf: URL? = nil,
                    progress: (RegionImportProgress) -> Void) throws -> Outcome {
        try body(stagingDirectory, .built(stop: isCancelled, keptFrom: keptStreetsOf), progress)
    }

    /// Runs the step in an import, beside the streets being built.
    func run(stagingDirectory: URL, streets: RegionImportStreets, progress: (RegionImportProgress) -> Void) throws -> Outcome {
        try body(stagingDirectory, streets, progress)
    }
}
