import Foundation
import Glibc

/// The imported regions under a data directory.
///
/// Layout: `<dataDirectory>/regions/<name>` is a symbolic link to the current version,
/// `<dataDirectory>/regions/.<name>.<stamp>`; an import builds a new version beside it and
/// replaces the link with one `rename(2)`, so readers always see a whole region.
///
/// ```swift
/// let catalog = RegionCatalog(dataDirectory: dataDir)
/// for region in try catalog.regions() { print(region.name, region.timeZone) }
/// ```
public struct RegionCatalog: Sendable {
    public let dataDirectory: URL

    public init(dataDirectory: URL) {
        self.dataDirectory = dataDirectory
    }

    public var regionsDirectory: URL { dataDirectory.appendingPathComponent("regions", isDirectory: true) }

    /// The region's directory (a link to its current version); it may not exist.
    public func directory(of name: String) -> URL {
        regionsDirectory.appendingPathComponent(name, isDirectory: true)
    }

    /// Every complete region, by name. A region whose manifest cannot be read throws.
    public func regions() throws -> [RegionManifest] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: regionsDirectory.path)) ?? []
        return try names.filter { !$0.hasPrefix(".") }.sorted().compactMap { try region(named: $0) }
    }

    /// The region's manifest, or nil when there is no such (complete) region.
    public func region(named name: String) throws -> RegionManifest? {
        guard RegionCatalog.isValidName(name) else { throw StreetsError.invalidRegionName(name) }
        let directory = directory(of: name)
        guard FileManager.default.fileExists(atPath: directory.appendingPathComponent(RegionManifest.fileName).path) else {
            return nil
        }
        return try RegionManifest.read(from: directory, name: name)
    }

    /// Changes the region's time zone without importing it again (under the region's lock).
    /// - throws: `StreetsError.regionNotFound`, `.invalidTimeZone`, `.importInProgress`.
    @discardableResult
    public func setTimeZone(_ zone: String, ofRegion name: String, source: String = "set with umctl region set") throws -> RegionManifest {
        guard RegionCatalog.isValidName(name) else { throw StreetsError.invalidRegionName(name) }
        guard RegionTimeZones.isKnown(zone) else { throw StreetsError.invalidTimeZone(zone) }
        let lock = try RegionLock(catalog: self, name: name)
        defer { lock.release() }
        guard var manifest = try region(named: name) else { throw StreetsError.regionNotFound(name) }
        manifest.timeZone = zone
        manifest.timeZoneSource = source
        try manifest.write(to: directory(of: name))
        return manifest
    }

    /// Deletes the region and its files.
    /// - throws: `StreetsError.regionNotFound`, `.importInProgress` while an import holds its lock.
    public func remove(named name: String) throws {
        guard RegionCatalog.isValidName(name) else { throw StreetsError.invalidRegionName(name) }
        let lock = try RegionLock(catalog: self, name: name)
        defer { lock.release() }
        let link = directory(of: name)
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link.path) else {
            if FileManager.default.fileExists(atPath: link.path) {
                try FileManager.default.removeItem(at: link)
                return
            }
            throw StreetsError.regionNotFound(name)
        }
        try FileManager.default.removeItem(at: link)
        try? FileManager.default.removeItem(at: regionsDirectory.appendingPathComponent(target))
    }

    /// Lowercase letters, digits, `-` and `_`; 1–64 characters; not starting with `-` or `_`.
    public static func isValidName(_ name: String) -> Bool {
        guard (1...64).contains(name.count), let first = name.unicodeScalars.first else { return false }
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-_".unicodeScalars)
        return name.unicodeScalars.allSatisfy(allowed.contains) && first != "-" && first != "_"
    }
}

/// An exclusive `flock` on `regions/.<name>.lock`, so two imports (or an import and a removal)
/// of one region never interleave. The kernel drops it if the process dies. The file is
/// removed on release, so nothing is left behind (a refused import, `region remove` of an
/// unknown name); a lock taken on a file that was removed meanwhile is taken again.
struct RegionLock {
    private let descriptor: Int32
    private let path: String

    init(catalog: RegionCatalog, name: String) throws {
        try FileManager.default.createDirectory(at: catalog.regionsDirectory, withIntermediateDirectories: true)
        path = catalog.regionsDirectory.appendingPathComponent(".\(name).lock").path
        while true {
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw StreetsError.importFailed(phase: "locking", message: "cannot create the region's lock file: errno \(errno)")
            }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                close(descriptor)
                throw StreetsError.importInProgress(name)
            }
            // The holder before may have removed the file between our open and flock.
            var held = stat(), current = stat()
            if fstat(descriptor, &held) == 0, stat(path, &current) == 0, held.st_ino == current.st_ino, held.st_dev == current.st_dev {
                self.descriptor = descriptor
                return
            }
            close(descriptor)
        }
    }

    func release() {
        unlink(path)  // while still held: whoever opens the path next makes a new file
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
