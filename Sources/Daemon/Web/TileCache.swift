import Foundation
import Glibc
import Synchronization

/// The web map's squares kept on disk, at most `limitBytes` of them (`--tile-cache-mb`). When a
/// new square passes the limit, the squares used longest ago go first (by when each was last
/// read or written), down to three quarters of the limit so that eviction runs seldom; the
/// squares in use stay. The order outlives a restart: a read also sets the file's modification
/// time, and the first use after a start orders the folder's files by it.
final class TileCache: Sendable {
    let folder: URL
    let limitBytes: Int

    private struct Entry {
        var bytes: Int
        /// When it was last used, as a count of uses: higher is more recent.
        var used: Int
    }
    private struct State {
        /// Every kept square by its path under `folder`; nil until the folder was read once.
        var entries: [String: Entry]?
        var totalBytes = 0
        var uses = 0
    }
    private let state = Mutex(State())

    init(folder: URL, limitBytes: Int) {
        self.folder = folder
        self.limitBytes = limitBytes
    }

    /// The square kept at `path` (relative to the folder), or nil; marks it as just used.
    func read(_ path: String) -> Data? {
        let file = folder.appendingPathComponent(path)
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        state.withLock { state in
            loadIfNeeded(&state)
            state.uses += 1
            if state.entries![path] == nil { state.totalBytes += data.count }
            state.entries![path] = Entry(bytes: data.count, used: state.uses)
        }
        _ = utimes(file.path, nil)
        return data
    }

    /// Keeps a square at `path`, first removing the squares used longest ago when it would pass
    /// the limit (a failure to write only costs drawing it again).
    func write(_ data: Data, at path: String) {
        guard data.count <= limitBytes else { return }
        let evicted = state.withLock { state -> [String] in
            loadIfNeeded(&state)
            state.uses += 1
            state.totalBytes += data.count - (state.entries![path]?.bytes ?? 0)
            state.entries![path] = Entry(bytes: data.count, used: state.uses)
            guard state.totalBytes > limitBytes else { return [] }
            var evicted: [String] = []
            for (victim, entry) in state.entries!.sorted(by: { $0.value.used < $1.value.used }) {
                guard state.totalBytes > limitBytes / 4 * 3, victim != path else { break }
                state.entries![victim] = nil
                state.totalBytes -= entry.bytes
                evicted.append(victim)
            }
            return evicted
        }
        for victim in evicted {
            let file = folder.appendingPathComponent(victim)
            unlink(file.path)
            rmdir(file.deletingLastPathComponent().path)  // only when that was its last square
        }
        let file = folder.appendingPathComponent(path)
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        try? data.write(to: file, options: .atomic)
    }

    /// Bytes kept now (for tests and the log).
    var keptBytes: Int { state.withLock { state in loadIfNeeded(&state); return state.totalBytes } }

    /// Reads the folder once: every square with its size, ordered by modification time.
    private func loadIfNeeded(_ state: inout State) {
        guard state.entries == nil else { return }
        var found: [(path: String, bytes: Int, modified: Date)] = []
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isRegularFileKey]
        let base = folder.standardizedFileURL.path + "/"
        if let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: keys) {
            for case let file as URL in files {
                guard let values = try? file.resourceValues(forKeys: Set(keys)), values.isRegularFile == true,
                      file.standardizedFileURL.path.hasPrefix(base) else { continue }
                found.append((String(file.standardizedFileURL.path.dropFirst(base.count)), values.fileSize ?? 0,
                              values.contentModificationDate ?? .distantPast))
            }
        }
        var entries: [String: Entry] = [:]
        for (index, file) in found.sorted(by: { $0.modified < $1.modified }).enumerated() {
            entries[file.path] = Entry(bytes: file.bytes, used: index + 1)
        }
        state.entries = entries
        state.totalBytes = found.reduce(0) { $0 + $1.bytes }
        state.uses = found.count
    }
}
