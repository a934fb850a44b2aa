import Foundation
import WireProtocol

// A region update's wire result as the update schedule and the check log keep it, and a kept
// check as `region.list` shows it: the schedule and the log themselves know no wire.

extension WireDocuments {
    static func summary(of result: RegionUpdateResult) -> RegionCheckSummary {
        RegionCheckSummary(rebuilt: result.rebuilt, failure: result.error.map { ($0.code, $0.message) })
    }
}

extension RegionCheckLog {
    /// Records the check `region.update` (or the schedule) made.
    func record(_ result: RegionUpdateResult, at now: Date) {
        record(result.name, rebuilt: result.rebuilt, failure: result.error.map { Failure(code: $0.code, message: $0.message) }, at: now)
    }

    /// Region `name`'s last check as `region.list` shows it (`last_check`).
    func document(of name: String) -> RegionCheckDocument? {
        entry(of: name).map { entry in
            RegionCheckDocument(at: WireTime.string(from: entry.at, timeZone: .current), rebuilt: entry.rebuilt,
                                error: entry.error.map { WireError(code: $0.code, message: $0.message) }, failures: entry.failures,
                                nextCheck: entry.next.map { WireTime.string(from: $0, timeZone: .current) })
        }
    }
}
