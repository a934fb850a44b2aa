import Foundation
import Streets
import Synchronization

/// Each region's last check of its sources, and when the schedule checks it next: after a
/// failure sooner (1 min, then doubling, never later than the interval), else one interval
/// later. `region list` shows it. Kept in a small owner-only file of the data directory (its
/// errors may name source URLs), so a restart keeps both.
final class RegionCheckLog: Sendable {
    static let fileName = "region-checks.json"

    struct Entry: Sendable, Codable {
        var at: Date
        var rebuilt: String
        var error: Failure?
        var failures: Int
        var next: Date?
    }

    /// Why a check failed: the error's stable word and its message.
    struct Failure: Sendable, Codable, Equatable {
        var code: String
        var message: String

        init(code: String, message: String) {
            self.code = code
            self.message = message
        }

        private enum Keys: String, CodingKey { case code, message, data }

        /// Reads the word from `code`, or, in a file an older daemon wrote with the wire's
        /// shape (`code` a number), from `data.code`.
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            message = try container.decode(String.self, forKey: .message)
            if let word = try? container.decode(String.self, forKey: .code) {
                code = word
            } else {
                code = try container.nestedContainer(keyedBy: Keys.self, forKey: .data).decode(String.self, forKey: .code)
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(code, forKey: .code)
            try container.encode(message, forKey: .message)
        }
    }

    /// nil: no schedule (`update_interval = never`).
    let interval: TimeInterval?
    private let entries: Mutex<[String: Entry]>
    /// Where the entries are kept; nil: in memory only.
    private let file: URL?
    private let logger: DaemonLogger?

    /// Reads the entries kept in `dataDirectory` (a file that cannot be read is logged and
    /// started afresh: it only says what the last checks found).
    init(interval: TimeInterval?, dataDirectory: URL? = nil, logger: DaemonLogger? = nil) {
        self.interval = interval
        self.logger = logger
        file = dataDirectory?.appendingPathComponent(Self.fileName)
        var kept: [String: Entry] = [:]
        if let file, FileManager.default.fileExists(atPath: file.path) {
            do {
                kept = try JSONDecoder().decode([String: Entry].self, from: Data(contentsOf: file))
            } catch {
                logger?.warning("cannot read the regions' last update checks; starting without them",
                                ["file": file.path, "error": "\(error)"])
            }
        }
        // The next checks as this start schedules them: none with `never`, never later than one
        // interval after the last (the file may have been written with a longer one).
        entries = Mutex(kept.mapValues { entry in
            var entry = entry
            entry.next = interval.map { interval in min(entry.next ?? .distantFuture, entry.at.addingTimeInterval(interval)) }
            return entry
        })
    }

    /// First retry after a failure; each further failure doubles it.
    static let firstRetry: TimeInterval = 60

    /// Records a check of region `name` that rebuilt `rebuilt` or failed with `failure`.
    func record(_ name: String, rebuilt: String, failure: Failure?, at now: Date) {
        entries.withLock { entries in
            let failures = failure == nil ? 0 : (entries[name]?.failures ?? 0) + 1
            let wait = interval.map { interval in
                failures == 0 ? interval : min(interval, Self.firstRetry * pow(2, Double(min(failures - 1, 20))))
            }
            entries[name] = Entry(at: now, rebuilt: rebuilt, error: failure, failures: failures,
                                  next: wait.map { now.addingTimeInterval($0) })
            save(entries)
        }
    }

    /// The region is gone: its checks go with it.
    func forget(_ name: String) {
        entries.withLock { entries in
            guard entries.removeValue(forKey: name) != nil else { return }
            save(entries)
        }
    }

    /// Writes the entries (under the lock, so files are written in the order of the changes).
    private func save(_ entries: [String: Entry]) {
        guard let file else { return }
        do {
            try OwnerOnlyFile.replace(file, with: try JSONEncoder().encode(entries))
        } catch {
            logger?.warning("cannot keep the regions' last update checks; a restart forgets them",
                            ["file": file.path, "error": "\(error)"])
        }
    }

    /// The region is due for a scheduled check at `now` (never checked counts as due).
    func isDue(_ name: String, at now: Date) -> Bool {
        entries.withLock { entries in entries[name]?.next.map { $0 <= now } ?? true }
    }

    /// The earliest next check among `names` (those never checked are due now).
    func nextCheck(of names: [String], after now: Date) -> Date? {
        entries.withLock { entries in names.map { entries[$0]?.next ?? now }.min() }
    }

    /// Region `name`'s last check; nil when it was never checked.
    func entry(of name: String) -> Entry? {
        entries.withLock { $0[name] }
    }
}
