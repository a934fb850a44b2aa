import Store

/// Search and route history written beside a read-only answer (`search`, `compare`): on a full
/// disk the answer matters more than remembering it, so the entry is skipped, counted
/// (`history_not_recorded` in `status`) and logged, and the request still answers. Any other
/// store failure is still the request's error.
struct BestEffortHistory: Sendable {
    let counters: DaemonCounters
    let logger: DaemonLogger

    func record(_ what: String, _ write: () async throws -> Void) async throws {
        do {
            try await write()
        } catch StoreError.diskFull {
            counters.countHistoryNotRecorded()
            logger.warning("history not recorded: the disk is full", ["entry": what])
        }
    }
}
