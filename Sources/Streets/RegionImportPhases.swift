import Synchronization

/// How far a whole import is, from its phases: each phase owns a share of 0…1, sized by how
/// long it usually takes (planetsplitter and the transit steps take the most), and the overall
/// figure is the sum of each phase's share times how far that phase is. Phases run at once
/// (planetsplitter, the place index and the steps), so their updates interleave; the sum still
/// only grows, as each phase's own fraction does.
///
/// ```swift
/// let phases = RegionImportPhases(steps: ["transit timetable"])
/// phases.report(RegionImportProgress(phase: "indexing places", fraction: 1)) { print($0.overall!) }
/// ```
final class RegionImportPhases: Sendable {
    private let shares: [String: Double]
    /// How far each phase is that has said so; held while an update is delivered, so that
    /// updates from several threads reach the listener one at a time, in the order of their sums.
    private let done = Mutex<[String: Double]>([:])

    /// - parameter steps: the additional steps' names (e.g. "transit timetable"), in order.
    init(steps: [String]) {
        let stepsWidth = steps.isEmpty ? 0 : 0.40
        var shares: [String: Double] = [:]
        var total = 0.0
        func add(_ phase: String, _ width: Double) {
            shares[phase] = width
            total += width
        }
        add("checking sources", 0.02)
        add("building routing database", 0.75 - stepsWidth)
        add("indexing places", 0.20 - stepsWidth / 8)
        for step in steps { add(step, (stepsWidth - stepsWidth / 8) / Double(steps.count)) }
        add("time zone", 0.01)
        add("switching", 1 - total)
        self.shares = shares
    }

    /// Sets the update's `overall` (nil for a phase of no known share) and hands it to `listener`.
    func report(_ update: RegionImportProgress, to listener: (RegionImportProgress) -> Void) {
        done.withLock { done in
            var update = update
            if shares[update.phase] != nil {
                if let fraction = update.fraction { done[update.phase] = max(done[update.phase] ?? 0, min(1, max(0, fraction))) }
                let sum = done.reduce(0) { $0 + (shares[$1.key] ?? 0) * $1.value }
                update.overall = min(1, (sum * 1e6).rounded() / 1e6)  // all done reads 1, whatever the rounding of the shares
            }
            listener(update)
        }
    }
}
