import Foundation

/// Extra work an import does inside the new region version before it goes live, such as the
/// transit timetable. It writes into `stagingDirectory`; if it throws, the import fails and the
/// previous version of the region stays in use.
///
/// ```swift
/// let gtfs = RegionImportStep(name: "transit timetable", sources: [feedURL]) { staging, progress in
///     progress(RegionImportProgress(phase: "transit timetable", detail: "stops"))
///     try TimetableBuilder.build(feed: feedURL, into: staging)
///     try PlaceIndex.addStops(stops, toRegionDirectory: staging)
/// }
/// ```
public struct RegionImportStep: Sendable {
    /// Shown in progress and recorded in the manifest's `steps`.
    public var name: String
    /// Files the step reads; their sha256 joins the manifest, so a changed feed is not skipped.
    public var sources: [URL]
    private let body: @Sendable (URL, (RegionImportProgress) -> Void) throws -> Void

    public init(name: String, sources: [URL] = [],
                run: @escaping @Sendable (_ stagingDirectory: URL, _ progress: (RegionImportProgress) -> Void) throws -> Void) {
        self.name = name
        self.sources = sources
        self.body = run
    }

    public func run(stagingDirectory: URL, progress: (RegionImportProgress) -> Void) throws {
        try body(stagingDirectory, progress)
    }
}
