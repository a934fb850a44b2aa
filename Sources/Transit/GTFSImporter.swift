import Foundation

/// Imports GTFS zips into a region directory (`transit.sqlite`).
///
/// ```swift
/// let report = try GTFSImporter().importFeeds([tampereZip], intoRegionDirectory: region)
/// print(report.summary)
/// ```
/// A feed that is not a zip, lacks a required file or column, or goes past one of `limits`,
/// fails the whole import with a `TransitError` naming it, and the region keeps its previous
/// timetable.
public struct GTFSImporter: Sendable {
    /// Metres: stops closer than this get a walking footpath between them.
    public var footpathRadius: Double = 400
    /// Seconds needed to change vehicles at one stop (and the least any footpath takes)
    /// where transfers.txt says nothing.
    public var defaultMinimumTransferSeconds: Int = 60
    /// Sizes, compression ratio, line length and memory a feed may use.
    public var limits = GTFSLimits()

    public init() {}

    /// - parameter walking: times the footpaths between stops (all in one batch); a pair it
    ///   cannot answer falls back to `StraightLineWalking`.
    /// - parameter stopsReady: given the imported stops (as `TransitRouter.stops` lists them,
    ///   with the feed each came from: 1 for the first of `feeds`, as two feeds may share a stop
    ///   id) once they are final, on the calling thread, so that a caller indexing them need
    ///   not load the timetable it has just written.
    public func importFeeds(_ feeds: [URL], intoRegionDirectory regionDirectory: URL,
                            walking: any WalkingTimeEstimator = StraightLineWalking(),
                            progress: @Sendable (TransitImportProgress) -> Void = { _ in },
                            stopsReady: ([(feed: Int, stop: TransitStop)]) -> Void = { _ in }) throws -> GTFSImportReport {
        let start = DispatchTime.now().uptimeNanoseconds
        let (timetable, built, feedOfStop) = try buildTimetableListingStopFeeds(feeds, partsDirectory: regionDirectory, walking: walking,
                                                                                progress: progress)
        stopsReady(zip(feedOfStop, timetable.stops.map(TransitStop.init)).map { (feed: $0, stop: $1) })
        var report = built
        progress(TransitImportProgress(feed: feeds.map(\.lastPathComponent).joined(separator: ", "), step: "writing", rows: timetable.tripIDs.count))
        report.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        try TimetableStore(regionDirectory: regionDirectory).save(timetable, report: report)
        report.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return report
    }

    /// The report saved by the region's last import, or `nil` when it has none.
    public static func lastReport(regionDirectory: URL) throws -> GTFSImportReport? {
        try TimetableStore(regionDirectory: regionDirectory).savedReport()
    }

    /// Feed `position`'s part: the one kept in `partsDirectory` when it is this feed's, else the
    /// feed parsed alone (and its part written there).
    private func part(of feed: URL, position: Int, partsDirectory: URL?, memory: ImportMemoryBudget,
                      progress: @Sendable (TransitImportProgress) -> Void) throws -> (FeedPart, kept: Bool) {
        let key = try FeedPart.Key(feed: feed, limits: limits)
        let file = partsDirectory.map { FeedPart.fileURL(regionDirectory: $0, position: position) }
        if let file, let kept = FeedPart.kept(at: file, key: key) {
            progress(TransitImportProgress(feed: feed.lastPathComponent, step: "kept from the version before", rows: kept.builder.trips.count))
            return (kept, true)
        }
        var builder = TimetableBuilder()
        var report = GTFSImportReport()
        try GTFSFeedReader(url: feed, limits: limits, memory: memory).read(into: &builder, report: &report, progress: progress)
        let part = FeedPart(key: key, builder: builder, report: report)
        if let file {
            if let directory = partsDirectory { try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
            try part.write(to: file)
        }
        return (part, false)
    }

    /// Reads and builds without storing (tests and the store share it).
    func buildTimetable(_ feeds: [URL], walking: any WalkingTimeEstimator,
                        progress: @Sendable (TransitImportProgress) -> Void = { _ in }) throws -> (Timetable, GTFSImportReport) {
        let (timetable, report, _) = try buildTimetableListingStopFeeds(feeds, partsDirectory: nil, walking: walking, progress: progress)
        return (timetable, report)
    }

    /// `buildTimetable`, also returning each stop's feed (1 for the first), in stop order.
    /// - parameter partsDirectory: where each feed's part is kept (`FeedPart`): one already there
    ///   for the same feed (linked from the version before) is merged instead of parsing the
    ///   feed, any other feed's is written; nil parses every feed and keeps nothing.
    private func buildTimetableListingStopFeeds(_ feeds: [URL], partsDirectory: URL?, walking: any WalkingTimeEstimator,
                                                progress: @Sendable (TransitImportProgress) -> Void)
        throws -> (Timetable, GTFSImportReport, [Int]) {
        guard !feeds.isEmpty else { throw TransitError.noFeeds }
        var builder = TimetableBuilder()
        var report = GTFSImportReport()
        let memory = ImportMemoryBudget(limitBytes: limits.maxImportMemoryBytes)
        // Feed by feed: one feed's text tables and rows are freed before the next is read, so the
        // import holds the merged trips plus the largest feed's working set, not every feed's.
        for (k, feed) in feeds.enumerated() {
            let (part, kept) = try part(of: feed, position: k + 1, partsDirectory: partsDirectory, memory: memory, progress: progress)
            try builder.append(part.builder)
            report.add(feed: part.report)
            if kept { report.feedsKept += 1 }
        }
        let names = feeds.map(\.lastPathComponent).joined(separator: ", ")
        progress(TransitImportProgress(feed: names, step: "footpaths", rows: 0))
        let (timetable, footpathCounts) = try builder.build(
            footpathRadius: footpathRadius, defaultChangeSeconds: defaultMinimumTransferSeconds, walking: walking,
            checkMemory: { try memory.check(feed: names, file: "stops.txt (footpaths between its stops)") })
        report.timeZone = timetable.timeZoneID
        report.stops = timetable.stops.count
        report.routes = timetable.routes.count
        report.trips = timetable.tripIDs.count
        report.stopTimes = timetable.arrivals.count
        report.patterns = timetable.patterns.count
        report.footpaths = timetable.footTargets.count
        report.streetTimedFootpaths = footpathCounts.streetTimed
        report.straightLineFootpaths = footpathCounts.straightLine
        return (timetable, report, builder.stopFeeds)
    }
}
