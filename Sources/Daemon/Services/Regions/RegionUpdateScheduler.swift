import Foundation
import Streets

/// The daemon's own `region update`: every region's sources are checked once per interval
/// (`update_interval`), the first time a few minutes after start-up (2 to 4 min, or one
/// interval when that is shorter), a failed check again sooner with backoff (`RegionCheckLog`).
/// A region being imported is not rebuilt under the import: its lock refuses the update, which
/// is tried again a minute later.
struct RegionUpdateScheduler: Sendable {
    let interval: TimeInterval
    let catalog: RegionCatalog
    let checks: RegionCheckLog
    let logger: DaemonLogger
    /// `RegionMethods.update`: checks one region, rebuilds what changed, publishes it and
    /// records the check in `checks`.
    let update: @Sendable (RegionManifest) async -> RegionCheckSummary

    /// Runs until its task is cancelled (daemon shutdown).
    func run() async {
        let firstDelay = min(interval, 120 + Double.random(in: 0..<120))
        guard (try? await Task.sleep(for: .seconds(firstDelay))) != nil else { return }
        while !Task.isCancelled {
            let regions = (try? catalog.regions()) ?? []
            for manifest in regions where checks.isDue(manifest.name, at: Date()) {
                if Task.isCancelled { return }
                let result = await update(manifest)
                if let failure = result.failure {
                    logger.warning("region update failed", ["region": manifest.name, "code": failure.code, "error": failure.message])
                } else if result.rebuilt != RegionUpdater.Rebuild.nothing.rawValue {
                    logger.notice("region updated", ["region": manifest.name, "rebuilt": result.rebuilt])
                } else {
                    logger.debug("region checked; nothing changed", ["region": manifest.name])
                }
            }
            let now = Date()
            let next = checks.nextCheck(of: regions.map(\.name), after: now) ?? now.addingTimeInterval(interval)
            // A region imported meanwhile is due at once: look again within a minute at most.
            let wait = min(max(1, next.timeIntervalSince(now)), min(interval, 60))
            guard (try? await Task.sleep(for: .seconds(wait))) != nil else { return }
        }
    }
}
