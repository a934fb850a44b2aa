import Foundation
import Glibc
import Streets

/// The data directory's own files as start-up leaves them: the user's alone, and no half-written
/// temporary file from a process killed mid-write.
enum PrivateDataFiles {
    /// Files that say where the user lives and goes: the database (saved places, plans, history)
    /// with its WAL and shared memory, the calendar of plans, the feed and check settings.
    static let names = ["usefulmap.sqlite", "usefulmap.sqlite-wal", "usefulmap.sqlite-shm", "usefulmap.sqlite-journal",
                        "plans.ics", "realtime-feeds.json", "region-checks.json"]

    /// Takes group and other access away from each of `names` that has it (files made by an
    /// older version, or under a loose umask: SQLite gives the WAL the database's mode), and
    /// removes `OwnerOnlyFile`'s leftovers in the data directory and in each region's.
    /// Run once the socket is held (no other daemon writes here), before the store opens.
    static func tidy(dataDirectory: URL, logger: DaemonLogger) {
        for name in names {
            let path = dataDirectory.appendingPathComponent(name).path
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_mode & 0o077 != 0 else { continue }
            if chmod(path, info.st_mode & 0o700) != 0 {
                logger.warning("cannot make a data file private", ["path": path, "error": String(cString: strerror(errno))])
            }
        }
        var folders = [dataDirectory]
        let fileManager = FileManager.default
        for child in (try? fileManager.contentsOfDirectory(at: dataDirectory, includingPropertiesForKeys: nil)) ?? [] {
            var isFolder: ObjCBool = false
            guard fileManager.fileExists(atPath: child.path, isDirectory: &isFolder), isFolder.boolValue else { continue }
            folders.append(child)
            folders += ((try? fileManager.contentsOfDirectory(at: child, includingPropertiesForKeys: nil)) ?? []).filter {
                var inner: ObjCBool = false
                return fileManager.fileExists(atPath: $0.path, isDirectory: &inner) && inner.boolValue
            }
        }
        let removed = OwnerOnlyFile.removeLeftovers(in: folders)
        if removed > 0 { logger.notice("removed temporary files left by an interrupted write", ["count": "\(removed)"]) }
    }
}
