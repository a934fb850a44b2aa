import Foundation
import Synchronization
import WireProtocol

/// Each region's last check of its sources since the daemon started, and when the schedule
/// checks it next: after a failure sooner (1 min, then doubling, never later than the
/// interval), else one interval later. `region list` shows it.
final class RegionCheckLog: Sendable {
    struct Entry: Sendable {
        var at: Date
        var rebuilt: String
        var error: WireError?
        var failures: Int
        var next: Date?
    }

    /// nil: no schedule (`update_interval = never`).
    let interval: TimeInterval?
    private let entries = Mutex<[String: Entry]>([:])

    init(interval: TimeInterval?) {
        self.interval = interval
    }

    /// First retry after a failure; each further failure doubles it.
    static let firstRetry: TimeInterval = 60

    func record(_ result: RegionUpdateResult, at now: Date) {
        entries.withLock { entries in
            let failures = result.error == nil ? 0 : (entries[result.name]?.failures ?? 0) + 1
            let wait = interval.map { interval in
                failures == 0 ? interval : min(interval, Self.firstRetry * pow(2, Double(min(failures - 1, 20))))
            }
            entries[result.name] = Entry(at: now, rebuilt: result.rebuilt, error: result.error, failures: failures,
                                         next: wait.map { now.addingTimeInterval($0) })
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

    func document(of name: String) -> RegionCheckDocument? {
        entries.withLock { entries in
            entries[name].map { entry in
                RegionCheckDocument(at: WireTime.string(from: entry.at, timeZone: .current), rebuilt: entry.rebuilt,
                                    error: entry.error, failures: entry.failures,
                                    nextCheck: entry.next.map { WireTime.string(from: $0, timeZone: .current) })
            }
        }
    }
}
