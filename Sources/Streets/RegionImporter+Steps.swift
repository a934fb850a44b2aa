import Foundation
import Glibc

extension RegionImporter {
    /// Rebuilds only the additional steps of region `name` (a new GTFS feed: the timetable and
    /// the stops of the place index) on top of its current streets, in a new version that goes
    /// live atomically like an import. The routing database, the street layer and the rest are
    /// hard links to the current version's files (nothing rewrites them); the place index is
    /// copied and its stops removed, so the steps add the new feed's stops alone. The zone
    /// stays the region's.
    /// - parameter osm: the current OSM source, recorded again as it is.
    /// - throws: `StreetsError` (`region_not_found`, `import_in_progress`, `import_failed`,
    ///   `source_not_found`, `source_too_large`), `CancellationError`, or what a step threw.
    public func rebuildSteps(name: String, additionalSteps: [RegionImportStep],
                             progress: @Sendable (RegionImportProgress) -> Void) throws -> RegionImportResult {
        let clock = Date()
        let started = Date(timeIntervalSince1970: clock.timeIntervalSince1970.rounded(.down))
        guard RegionCatalog.isValidName(name) else { throw StreetsError.invalidRegionName(name) }
        for step in additionalSteps {
            for file in step.sources {
                guard Self.sourceProblem(file.path) == nil else { throw StreetsError.sourceNotFound(file.path) }
                if let limit = step.sourceLimit { try limit.check(size: try Self.size(of: file), of: file.path) }
            }
        }
        let catalog = RegionCatalog(dataDirectory: dataDirectory)
        let lock = try RegionLock(catalog: catalog, name: name)
        defer { lock.release() }
        removeLeftovers(of: name, catalog: catalog)
        guard let current = try catalog.region(named: name), let osmSource = current.sources.first(where: { $0.role == "osm" }) else {
            throw StreetsError.regionNotFound(name)
        }
        let currentDirectory = catalog.directory(of: name).resolvingSymlinksInPath()

        progress(RegionImportProgress(phase: "checking sources", fraction: 0))
        var sources = [osmSource]
        for step in additionalSteps {
            for file in step.sources {
                var source = try Self.describe(file, role: step.name, givenPath: givenPaths[file.path], isCancelled: isCancelled)
                source.origin = origins[file.path]
                sources.append(source)
            }
        }

        let version = ".\(name).\(Int(started.timeIntervalSince1970))-\(UUID().uuidString.prefix(8).lowercased())"
        let staging = catalog.regionsDirectory.appendingPathComponent(version, isDirectory: true)
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        do {
            progress(RegionImportProgress(phase: "keeping the streets", fraction: 0))
            try keepStreets(from: currentDirectory, in: staging)
            try PlaceIndex.removeStops(fromRegionDirectory: staging)
            progress(RegionImportProgress(phase: "keeping the streets", fraction: 1))
            var counts = current.counts
            for step in additionalSteps {
                try checkCancelled()
                progress(RegionImportProgress(phase: step.name, fraction: 0))
                let outcome: RegionImportStep.Outcome
                do {
                    outcome = try step.run(stagingDirectory: staging, isCancelled: isCancelled, keptStreetsOf: currentDirectory,
                                           progress: progress)
                } catch let error as StreetsError {
                    throw error
                } catch is CancellationError {
                    throw CancellationError()
                } catch {
                    throw StreetsError.importFailed(phase: step.name, message: "\(error)")
                }
                counts.merge(outcome.counts) { $1 }
                progress(RegionImportProgress(phase: step.name, fraction: 1))
            }
            let placeCounts = try PlaceIndex(regionDirectory: staging).counts()
            counts["places"] = placeCounts.values.reduce(0, +)
            for (kind, count) in placeCounts { counts[kind.plural] = count }
            var manifest = current
            manifest.sources = sources
            manifest.importedAt = started
            manifest.importDuration = Date().timeIntervalSince(clock)
            manifest.steps = additionalSteps.map(\.name)
            manifest.hasTransit = !additionalSteps.isEmpty
            manifest.counts = counts
            try manifest.write(to: staging)
            try checkCancelled()
            progress(RegionImportProgress(phase: "switching", fraction: 0))
            try switchVersion(of: name, to: version, catalog: catalog)
            progress(RegionImportProgress(phase: "switching", fraction: 1, detail: "region \(name) is live"))
            return RegionImportResult(manifest: manifest, skipped: false)
        } catch {
            try? FileManager.default.removeItem(at: staging)
            throw error
        }
    }

    /// The files of `current` that the steps do not write: hard links (a copy where the file
    /// system refuses one), and a real copy of the place index, which the steps change.
    private func keepStreets(from current: URL, in staging: URL) throws {
        let fm = FileManager.default
        let rebuilt: Set<String> = ["manifest.json", "transit.sqlite", "transit.sqlite-wal", "transit.sqlite-shm",
                                    "places.sqlite-wal", "places.sqlite-shm"]
        for entry in try fm.contentsOfDirectory(atPath: current.path) where !rebuilt.contains(entry) && !entry.hasPrefix(".") {
            let from = current.appendingPathComponent(entry), to = staging.appendingPathComponent(entry)
            do {
                if entry == PlaceIndex.fileName || link(from.path, to.path) != 0 {
                    try fm.copyItem(at: from, to: to)
                }
            } catch {
                throw StreetsError.importFailed(phase: "keeping the streets", message: "cannot copy \(entry): \(error)")
            }
        }
    }
}
