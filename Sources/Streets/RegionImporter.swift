import CLibMD
import Foundation
import Glibc
import Planner

/// Imports an OpenStreetMap extract as a region: Routino's routing database (`planetsplitter`),
/// the place index and any additional steps, at once (`buildStreetsAndSteps`), all in a new
/// version directory that replaces the current one atomically at the end.
///
/// ```swift
/// let importer = RegionImporter(dataDirectory: dataDir)
/// let result = try importer.importRegion(name: "tampere", osm: pbf) { progress in
///     print(progress.phase, progress.fraction ?? "", progress.detail)
/// }
/// ```
///
/// A failed or interrupted import leaves the previous version working; its leftovers are
/// removed by the next import of the same region.
public struct RegionImporter: Sendable {
    public let dataDirectory: URL
    /// `planetsplitter`; found on `PATH` (Debian package `routino`) unless given.
    public var planetsplitter: URL?
    /// The path the manifest records for a source read through another path (a file the
    /// client passed open, read through a link): read path → the path the user gave.
    public var givenPaths: [String: String] = [:]
    /// Sources fetched by URL: read path → where it came from, which the manifest records.
    public var origins: [String: RegionSourceOrigin] = [:]
    /// Polled between phases and while planetsplitter runs: true stops the import
    /// (`CancellationError`; planetsplitter is killed, the staging version removed, the current
    /// version stays). A running additional step (the transit timetable) finishes its work first.
    public var isCancelled: @Sendable () -> Bool = { false }
    /// How large the OSM file may be; a step's sources have the step's `sourceLimit`.
    public var osmLimit = Self.defaultOSMLimit

    /// 16 GiB: a large country's extract (Germany's is about 4 GiB); Europe's needs more.
    public static let defaultOSMLimit = SourceSizeLimit(bytes: 16 << 30, kind: "an OSM file", setting: "osm_max_mb")

    public init(dataDirectory: URL, planetsplitter: URL? = nil) {
        self.dataDirectory = dataDirectory
        self.planetsplitter = planetsplitter
    }

    /// Imports `osm` (`.osm` or `.osm.pbf`) as region `name`.
    /// - parameter timeZone: the region's IANA zone. Without it, the zone a step reports (a GTFS
    ///   feed's `agency_timezone`), else the zone of the nearest principal location in the system's
    ///   time-zone database (`zoneTable`, see `RegionTimeZones`); the manifest records which.
    /// - parameter timeZoneSource: how the given `timeZone` was decided, for the manifest.
    /// - parameter force: import even when the sources are identical to the current version's.
    /// - throws: `StreetsError` (`invalid_region_name`, `source_not_found`, `unsupported_source_format`,
    ///   `invalid_time_zone`, `time_zone_undecided`, `import_in_progress`, `import_failed`), or what an
    ///   additional step threw.
    public func importRegion(name: String, osm: URL, additionalSteps: [RegionImportStep] = [],
                             timeZone: String? = nil, timeZoneSource: String = "given with --time-zone", force: Bool = false,
                             zoneTable: @Sendable () throws -> RegionTimeZones = RegionTimeZones.systemTable,
                             progress: @escaping @Sendable (RegionImportProgress) -> Void) throws -> RegionImportResult {
        let phases = RegionImportPhases(steps: additionalSteps.map(\.name))
        return try importing(name: name, osm: osm, additionalSteps: additionalSteps, timeZone: timeZone,
                             timeZoneSource: timeZoneSource, force: force, zoneTable: zoneTable) { update in
            phases.report(update, to: progress)
        }
    }

    private func importing(name: String, osm: URL, additionalSteps: [RegionImportStep], timeZone: String?,
                           timeZoneSource: String, force: Bool, zoneTable: @Sendable () throws -> RegionTimeZones,
                           progress: @escaping @Sendable (RegionImportProgress) -> Void) throws -> RegionImportResult {
        let clock = Date()
        // Whole seconds: the manifest's ISO 8601 dates must read back equal to what was written.
        let started = Date(timeIntervalSince1970: clock.timeIntervalSince1970.rounded(.down))
        guard RegionCatalog.isValidName(name) else { throw StreetsError.invalidRegionName(name) }
        let lowercased = osm.lastPathComponent.lowercased()
        guard lowercased.hasSuffix(".pbf") || lowercased.hasSuffix(".osm") else {
            throw StreetsError.unsupportedSourceFormat(givenPaths[osm.path] ?? osm.path)
        }
        if let timeZone, !RegionTimeZones.isKnown(timeZone) { throw StreetsError.invalidTimeZone(timeZone) }
        let limited = [(osm, osmLimit)] + additionalSteps.flatMap { step in step.sources.map { ($0, step.sourceLimit) } }
        for (file, limit) in limited {
            let shown = givenPaths[file.path] ?? file.path
            switch Self.sourceProblem(file.path) {
            case .unreadable?: throw StreetsError.sourceNotFound(shown)
            case .notARegularFile?: throw StreetsError.importFailed(phase: "checking sources", message: "\(shown) is not a regular file")
            case nil: break
            }
            // By its size, before reading it: hashing a sparse terabyte would hold the region for hours.
            if let limit { try limit.check(size: try Self.size(of: file), of: shown) }
        }
        let executable = try planetsplitter ?? Self.findPlanetsplitter()

        let catalog = RegionCatalog(dataDirectory: dataDirectory)
        let lock = try RegionLock(catalog: catalog, name: name)
        defer { lock.release() }
        removeLeftovers(of: name, catalog: catalog)

        progress(RegionImportProgress(phase: "checking sources", fraction: 0))
        let roles = [(osm, "osm")] + additionalSteps.flatMap { step in step.sources.map { ($0, step.name) } }
        let sizes = try roles.map { try Self.size(of: $0.0) }
        let totalBytes = max(1, sizes.reduce(0, +))
        var hashedBytes: Int64 = 0
        var sources: [RegionSourceFile] = []
        for ((file, role), size) in zip(roles, sizes) {
            let shown = URL(fileURLWithPath: givenPaths[file.path] ?? file.path).lastPathComponent
            var source = try Self.describe(file, role: role, givenPath: givenPaths[file.path], isCancelled: isCancelled) { read in
                progress(RegionImportProgress(phase: "checking sources", fraction: Double(hashedBytes + read) / Double(totalBytes),
                                              detail: "reading \(shown): \(ByteProgress.text(read, of: size))"))
            }
            source.origin = origins[file.path]
            sources.append(source)
            hashedBytes += size
        }
        progress(RegionImportProgress(phase: "checking sources", fraction: 1))
        let stepNames = additionalSteps.map(\.name)
        if !force, let current = try? catalog.region(named: name),
           current.sources.map(\.sha256) == sources.map(\.sha256), current.steps == stepNames,
           current.sources.map(\.origin?.url) == sources.map(\.origin?.url),
           timeZone == nil || timeZone == current.timeZone,
           current.formatVersion == RegionManifest.currentFormatVersion {
            progress(RegionImportProgress(phase: "checking sources", fraction: 1, detail: "unchanged; skipped"))
            return RegionImportResult(manifest: current, skipped: true)
        }

        let version = ".\(name).\(Int(started.timeIntervalSince1970))-\(UUID().uuidString.prefix(8).lowercased())"
        let staging = catalog.regionsDirectory.appendingPathComponent(version, isDirectory: true)
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        do {
            try checkCancelled()
            let built = try buildStreetsAndSteps(osm: osm, staging: staging, planetsplitter: executable,
                                                 steps: additionalSteps, progress: progress)
            let outcomes = built.outcomes
            let placeCounts = try PlaceIndex(regionDirectory: staging).counts()
            var counts = built.routingCounts
            counts["osm_nodes"] = built.places.nodeCount
            counts["osm_ways"] = built.places.wayCount
            counts["places"] = placeCounts.values.reduce(0, +)
            for (kind, count) in placeCounts { counts[kind.plural] = count }
            for outcome in outcomes { counts.merge(outcome.counts) { $0 + $1 } }
            let box = built.places.boundingBox
            let zone = try decideTimeZone(given: timeZone.map { RegionTimeZoneDecision(zone: $0, source: timeZoneSource) },
                                          outcomes: outcomes, center: box.center, zoneTable: zoneTable)
            progress(RegionImportProgress(phase: "time zone", fraction: 1, detail: "\(zone.zone): \(zone.source)"))
            let manifest = RegionManifest(
                name: name, sources: sources, importedAt: started, importDuration: Date().timeIntervalSince(clock),
                boundingBox: box, timeZone: zone.zone, timeZoneSource: zone.source,
                hasTransit: outcomes.contains(where: \.providesTransit), steps: stepNames, counts: counts,
                languages: RegionManifest.languages(map: built.places.languages, steps: outcomes.flatMap(\.languages)))
            try manifest.write(to: staging)
            try checkCancelled()  // the last moment: after the switch the new version is live
            progress(RegionImportProgress(phase: "switching", fraction: 0))
            try switchVersion(of: name, to: version, catalog: catalog)
            progress(RegionImportProgress(phase: "switching", fraction: 1, detail: "region \(name) is live"))
            return RegionImportResult(manifest: manifest, skipped: false)
        } catch {
            try? FileManager.default.removeItem(at: staging)
            throw error
        }
    }

    // MARK: - Phases

    func checkCancelled() throws {
        if isCancelled() { throw CancellationError() }
    }

    /// The zone given, else the one the steps' sources state (they must agree), else the one the
    /// position gives; never a silent default.
    private func decideTimeZone(given: RegionTimeZoneDecision?, outcomes: [RegionImportStep.Outcome], center: Coordinate,
                                zoneTable: () throws -> RegionTimeZones) throws -> RegionTimeZoneDecision {
        if let given { return given }
        let stated = outcomes.compactMap(\.timeZone)
        if let first = stated.first {
            guard stated.allSatisfy({ $0.zone == first.zone }) else {
                throw StreetsError.importFailed(phase: "time zone", message: "the sources state different zones: "
                    + stated.map { "\($0.zone) (\($0.source))" }.joined(separator: ", "))
            }
            return first
        }
        let table = try zoneTable()
        guard let derived = table.decision(for: center) else {
            throw StreetsError.timeZoneUndecided("no feed states one, and no principal location of \(table.file) is within "
                + "\(Int(RegionTimeZones.maximumDistance / 1000)) km of the region's centre")
        }
        return derived
    }

    /// planetsplitter's `--loggable` section headings and how far through the run each starts.
    static let routingPhases: [(heading: String, fraction: Double)] = [
        ("Parse OSM Data", 0.0), ("Sort OSM Data", 0.30), ("Process OSM Data", 0.40),
        ("Prune Unneeded Data", 0.55), ("Process Super-Data", 0.70), ("Combine Segments", 0.85),
        ("Cross-Reference Nodes", 0.90), ("Write Out Database", 0.95),
    ]

    /// planetsplitter's words without what only this import knew: the staging directory's path
    /// (files are named alone) and the pointer values in its temporary file names
    /// ("nodesx.0x5581711091.tmp" → "nodesx.tmp").
    static func readable(_ message: String, workingIn directory: URL) -> String {
        var text = message.replacingOccurrences(of: directory.path + "/", with: "")
            .replacingOccurrences(of: directory.path, with: "the region's new version")
        while let range = text.range(of: #"\.0x[0-9a-fA-F]+"#, options: .regularExpression) {
            text.removeSubrange(range)
        }
        return text
    }

    /// Runs planetsplitter into `directory`; returns the routing counts it wrote.
    /// - parameter stop: polled while it runs: true kills it (`CancellationError`).
    func buildRoutingDatabase(osm: URL, into directory: URL, planetsplitter: URL, stop: () -> Bool,
                              progress: (RegionImportProgress) -> Void) throws -> [String: Int] {
        let phase = "building routing database"
        progress(RegionImportProgress(phase: phase, fraction: 0, detail: "starting planetsplitter"))
        let log = directory.appendingPathComponent("planetsplitter.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let errors = try FileHandle(forWritingTo: log)
        defer { try? errors.close() }
        let nothing = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(nothing) }
        let output: (reading: Int32, writing: Int32)
        do {
            output = try ChildProcess.makePipe()
        } catch {
            throw StreetsError.importFailed(phase: phase, message: error.description)
        }
        defer { close(output.reading) }
        let child: ChildProcess
        do {
            defer { close(output.writing) }
            // A child of this import's thread, so it dies with the daemon (see ChildProcess).
            child = try ChildProcess.start(executable: planetsplitter.path,
                                           arguments: ["--dir=\(directory.path)", "--loggable", osm.path],
                                           standardInput: nothing, standardOutput: output.writing,
                                           standardError: errors.fileDescriptor, directory: directory.path)
        } catch {
            throw StreetsError.importFailed(phase: phase, message: error.description)
        }
        var counts: [String: Int] = [:]
        var lastLines: [String] = []
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            if stop() {
                child.kill()
                throw CancellationError()
            }
            // planetsplitter may be silent for a while: wait a little at a time, so a cancel stops it.
            var ready = pollfd(fd: output.reading, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, 250) == 0 { continue }
            let count = read(output.reading, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            buffer += chunk[..<count]
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                guard !line.isEmpty, !line.hasPrefix("=") else { continue }
                lastLines = Array((lastLines + [line]).suffix(5))
                if let known = Self.routingPhases.first(where: { line.hasPrefix($0.heading) }) {
                    progress(RegionImportProgress(phase: phase, fraction: known.fraction, detail: line))
                }
                for (prefix, key) in [("Wrote Nodes:", "routing_nodes"), ("Wrote Segments:", "routing_segments"),
                                      ("Wrote Ways:", "routing_ways")] where line.hasPrefix(prefix) {
                    if let value = line.split(separator: "=").last.flatMap({ Int($0) }) { counts[key] = value }
                }
            }
        }
        let ending = child.wait()
        guard ending == .exited(0) else {
            let stderrTail = (try? String(contentsOf: log, encoding: .utf8))?
                .split(separator: "\n").suffix(3).joined(separator: "; ") ?? ""
            let evidence = ([stderrTail] + lastLines.suffix(2)).filter { !$0.isEmpty }.joined(separator: "; ")
            throw StreetsError.importFailed(phase: phase,
                                            message: "planetsplitter \(ending): \(Self.readable(evidence, workingIn: directory))")
        }
        progress(RegionImportProgress(phase: phase, fraction: 1,
                                      detail: "\(counts["routing_segments"] ?? 0) segments"))
        return counts
    }

    /// Points `regions/<name>` at `version` with one rename(2), then deletes the old version.
    func switchVersion(of name: String, to version: String, catalog: RegionCatalog) throws {
        let fm = FileManager.default
        let link = catalog.directory(of: name)
        var previous: URL?
        if let target = try? fm.destinationOfSymbolicLink(atPath: link.path) {
            previous = catalog.regionsDirectory.appendingPathComponent(target)
        } else if fm.fileExists(atPath: link.path) {
            // A plain directory (made by hand): move it aside; the only non-atomic case.
            let aside = catalog.regionsDirectory.appendingPathComponent(".\(name).replaced-\(UUID().uuidString.prefix(8))")
            try fm.moveItem(at: link, to: aside)
            previous = aside
        }
        let temporary = catalog.regionsDirectory.appendingPathComponent(".\(name).link-\(UUID().uuidString.prefix(8))")
        guard symlink(version, temporary.path) == 0 else {
            throw StreetsError.importFailed(phase: "switching", message: "cannot create a link at \(temporary.path): errno \(errno)")
        }
        guard rename(temporary.path, link.path) == 0 else {
            let code = errno
            unlink(temporary.path)
            throw StreetsError.importFailed(phase: "switching", message: "cannot replace \(link.path): errno \(code)")
        }
        if let previous, previous.lastPathComponent != version { try? fm.removeItem(at: previous) }
    }

    /// Removes versions and links of `name` left by interrupted imports (called under the lock).
    func removeLeftovers(of name: String, catalog: RegionCatalog) {
        let fm = FileManager.default
        let current = try? fm.destinationOfSymbolicLink(atPath: catalog.directory(of: name).path)
        let entries = (try? fm.contentsOfDirectory(atPath: catalog.regionsDirectory.path)) ?? []
        for entry in entries where entry.hasPrefix(".\(name).") && entry != ".\(name).lock" && entry != current {
            try? fm.removeItem(at: catalog.regionsDirectory.appendingPathComponent(entry))
        }
    }

    // MARK: - Helpers

    /// Why a source can't be read by its path.
    public enum SourceProblem: Equatable, Sendable {
        case unreadable
        /// A named pipe read by path would wait for a writer that may never come, and can be read
        /// only once (umctl passes pipes open; the daemon copies them).
        case notARegularFile
    }

    /// What stops reading `path` as an import source (following links), or nil.
    public static func sourceProblem(_ path: String) -> SourceProblem? {
        var status = stat()
        guard stat(path, &status) == 0, access(path, R_OK) == 0 else { return .unreadable }
        return status.st_mode & S_IFMT == S_IFREG ? nil : .notARegularFile
    }

    /// The size of `file` (through a link, a passed file: its target's).
    static func size(of file: URL) throws -> Int64 {
        var status = stat()
        guard stat(file.path, &status) == 0 else {
            throw StreetsError.sourceNotFound("\(file.path) (\(String(cString: strerror(errno))))")
        }
        return Int64(status.st_size)
    }

    /// `file`'s size and SHA-256.
    /// - parameter isCancelled: polled after each read; true stops it (`CancellationError`).
    /// - parameter reading: told the bytes read so far, every `progressInterval` bytes.
    static func describe(_ file: URL, role: String, givenPath: String? = nil, isCancelled: () -> Bool = { false },
                         reading: (Int64) -> Void = { _ in }) throws -> RegionSourceFile {
        RegionSourceFile(role: role, path: givenPath ?? file.standardizedFileURL.path,
                         sha256: try sha256(ofFile: file, isCancelled: isCancelled, reading: reading), size: try size(of: file),
                         modified: modified(file))
    }

    /// The file's modification time in whole seconds (through a link: its target's), or nil.
    public static func modified(_ file: URL) -> Date? {
        var status = stat()
        guard stat(file.path, &status) == 0 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(status.st_mtim.tv_sec))
    }

    /// The file's size (through a link: its target's), or nil when it can't be read.
    public static func currentSize(_ file: URL) -> Int64? {
        try? size(of: file)
    }

    /// Bytes between two progress reports while a source is hashed.
    static let progressInterval: Int64 = 64 << 20

    /// The file's SHA-256 in lowercase hex, as `sha256sum` prints it (libmd), read a MiB at a
    /// time so a cancelled import stops within one read.
    public static func sha256(ofFile file: URL, isCancelled: () -> Bool = { false }, reading: (Int64) -> Void = { _ in }) throws -> String {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw StreetsError.sourceNotFound("\(file.path) (\(String(cString: strerror(errno))))")
        }
        defer { close(descriptor) }
        var context = SHA2_CTX()
        SHA256Init(&context)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total: Int64 = 0
        while true {
            if isCancelled() { throw CancellationError() }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else {
                throw StreetsError.sourceNotFound("\(file.path) (\(String(cString: strerror(errno))))")
            }
            if count == 0 { break }
            buffer.withUnsafeBufferPointer { SHA256Update(&context, $0.baseAddress, count) }
            let before = total
            total += Int64(count)
            if before / progressInterval != total / progressInterval { reading(total) }
        }
        var hex = [CChar](repeating: 0, count: Int(SHA256_DIGEST_LENGTH) * 2 + 1)
        SHA256End(&context, &hex)
        return String(decoding: hex.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func findPlanetsplitter() throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let candidates = path.split(separator: ":").map { "\($0)/planetsplitter" } + ["/usr/bin/planetsplitter"]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw StreetsError.importFailed(phase: "building routing database",
                                            message: "planetsplitter not found on PATH (install the Debian package routino)")
        }
        return URL(fileURLWithPath: found)
    }
}
