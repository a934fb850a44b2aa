import Fetching
import Foundation
import Streets

/// `region update`: checks each source of a region and rebuilds only what changed. A URL is
/// asked with a conditional request (`If-None-Match` / `If-Modified-Since`; a server without
/// validators sends the file, which is then compared by sha256); a file by its size and
/// modification time, then its sha256. A new GTFS feed rebuilds the timetable on the current
/// streets; a new OSM extract rebuilds the streets and the footpaths with them (a full
/// import). Either goes live atomically; nothing changed costs one request per URL source.
/// `region update R --feed F` checks feed F alone: no other source is asked, and the timetable
/// is rebuilt from F's new version, parsed alone, and the other feeds' parts kept at import
/// (`FeedPart`, merged when their zips are unchanged).
struct RegionUpdater: Sendable {
    let importer: RegionImporter
    let downloader: SourceDownloader
    let limits: ImportSourceLimits
    let transitImportStep: @Sendable ([URL]) -> RegionImportStep

    /// What the update rebuilt, as the wire says it.
    enum Rebuild: String, Sendable {
        case nothing
        case timetable
        case everything = "streets and timetable"
    }

    /// One source after its check: the file to import from, and whether it changed.
    struct Checked: Sendable {
        var role: String
        var shown: String
        var file: URL
        var origin: RegionSourceOrigin?
        var changed: Bool
        /// Why it could not be checked (then nothing of the region is rebuilt).
        var error: SourceFetchError?
        /// False for a source `update(feed:)` left alone: kept as it is, neither fetched nor checked.
        var checked = true
    }

    struct Outcome: Sendable {
        var rebuilt: Rebuild
        var checks: [Checked]
        var result: RegionImportResult?
        /// The first source that could not be checked.
        var failure: SourceFetchError? { checks.lazy.compactMap(\.error).first }
    }

    /// Checks `manifest`'s sources and rebuilds what changed (everything, with `force`).
    /// A source that could not be checked is named in the outcome, and nothing is rebuilt.
    /// - parameter feed: the position (among the GTFS feeds, from 0) of the only source to check:
    ///   the others are neither fetched nor read for a check, and are taken as they are kept (a
    ///   URL's copy, a file's path); a change rebuilds the timetable alone, even with `force`.
    /// - throws: what the rebuild threw (the region keeps its version), `CancellationError`,
    ///   `StreetsError.importInProgress`.
    func update(_ manifest: RegionManifest, force: Bool, feed: Int? = nil, isCancelled: @escaping @Sendable () -> Bool,
                progress: @escaping @Sendable (RegionImportProgress) -> Void) throws -> Outcome {
        var checks: [Checked] = []
        let feedSources = manifest.sources.indices.filter { manifest.sources[$0].role != "osm" }
        for (k, source) in manifest.sources.enumerated() {
            if isCancelled() { throw CancellationError() }
            if let feed, feedSources.firstIndex(of: k) != feed {
                checks.append(Checked(role: source.role, shown: source.origin.map { SourceURL.redacted($0.url) } ?? source.path,
                                      file: URL(fileURLWithPath: source.path), origin: source.origin, changed: false, checked: false))
                continue
            }
            do {
                checks.append(try check(source, region: manifest.name, force: force, isCancelled: isCancelled, progress: progress))
            } catch let error as SourceFetchError {
                checks.append(Checked(role: source.role, shown: source.origin.map { SourceURL.redacted($0.url) } ?? source.path,
                                      file: URL(fileURLWithPath: source.path), origin: source.origin, changed: false, error: error))
            }
        }
        if checks.contains(where: { $0.error != nil }) { return Outcome(rebuilt: .nothing, checks: checks, result: nil) }
        let osmChanged = checks.first { $0.role == "osm" }?.changed ?? false
        let feedsChanged = checks.contains { $0.role != "osm" && $0.changed }
        // `force` with one feed: that feed fetched whole and the timetable rebuilt, the streets kept.
        guard force || osmChanged || feedsChanged else { return Outcome(rebuilt: .nothing, checks: checks, result: nil) }
        // The rebuild's freed working memory back to the system, as after `region import`.
        defer { MemoryTrim.releaseFreePages() }

        var importer = importer
        importer.isCancelled = isCancelled
        for check in checks { importer.origins[check.file.path] = check.origin }
        let feeds = checks.filter { $0.role != "osm" }.map(\.file)
        let steps = feeds.isEmpty ? [] : [transitImportStep(feeds)]
        if feed == nil, force || osmChanged {
            guard let osm = checks.first(where: { $0.role == "osm" })?.file else { throw StreetsError.regionNotFound(manifest.name) }
            let result = try importer.importRegion(name: manifest.name, osm: osm, additionalSteps: steps,
                                                   timeZone: Self.keptZone(manifest), timeZoneSource: manifest.timeZoneSource ?? "",
                                                   force: true, progress: progress)
            return Outcome(rebuilt: .everything, checks: checks, result: result)
        }
        let result = try importer.rebuildSteps(name: manifest.name, additionalSteps: steps, progress: progress)
        return Outcome(rebuilt: .timetable, checks: checks, result: result)
    }

    /// The zone a full rebuild keeps: one given or set by the user (a zone a feed stated is
    /// decided again from the feeds).
    static func keptZone(_ manifest: RegionManifest) -> String? {
        guard let source = manifest.timeZoneSource,
              source.hasPrefix("given") || source.hasPrefix("set") || source.hasPrefix("kept") else { return nil }
        return manifest.timeZone
    }

    private func check(_ source: RegionSourceFile, region: String, force: Bool, isCancelled: @escaping @Sendable () -> Bool,
                       progress: @escaping @Sendable (RegionImportProgress) -> Void) throws -> Checked {
        let kind = source.role == "osm" ? "osm" : "gtfs"
        guard let origin = source.origin else {
            let file = URL(fileURLWithPath: source.path)
            guard RegionImporter.sourceProblem(source.path) == nil else {
                throw SourceFetchError(path: source.path, role: kind, reason: "can no longer be read")
            }
            let sameSizeAndTime = RegionImporter.currentSize(file) == source.size && source.modified != nil
                && RegionImporter.modified(file) == source.modified
            let changed = sameSizeAndTime ? false : try RegionImporter.sha256(ofFile: file, isCancelled: isCancelled) != source.sha256
            return Checked(role: source.role, shown: source.path, file: file, origin: nil, changed: changed)
        }
        let shown = SourceURL.redacted(origin.url)
        let fetched = try downloader.fetch(origin.url, region: region, role: kind, limit: kind == "osm" ? limits.osm : limits.feed,
                                           previous: force ? nil : source) { received, expected in
            progress(RegionImportProgress(phase: "downloading",
                                          fraction: expected.map { Double(received) / Double(max(1, $0)) },
                                          detail: "\(shown): \(ByteProgress.text(Int64(received), of: expected.map(Int64.init)))"))
            return !isCancelled()
        }
        // A server without validators sends the file again: the same bytes are no change.
        let changed = try !fetched.notModified
            && RegionImporter.sha256(ofFile: fetched.file, isCancelled: isCancelled) != source.sha256
        return Checked(role: source.role, shown: shown, file: fetched.file, origin: fetched.origin, changed: changed)
    }
}
