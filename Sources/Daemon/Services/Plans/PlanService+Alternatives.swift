import Foundation
import Planner

extension PlanService {
    /// `plan.alternatives`: the options for one segment of the newest plan, from the time it leaves now.
    struct Alternatives: Sendable {
        var plan: RoutePlan
        var segment: Int
        var options: [RouteLeg]
        /// When the segment leaves in the plan, if known.
        var time: Date?
        var timeZone: TimeZone
        /// By option (from 0): how taking it would break a pin around the segment (or an arrive-by
        /// plan's time); `plan.choose` refuses those options (`conflict`), so the list says so beside them.
        var pinConflicts: [Int: RoutePlan.PinConflict] = [:]
    }

    /// Lists what `plan.choose` chooses among (it asks them again, against the plan as it is then).
    func alternatives(id: Int64, segment number: Int, count: Int?) async throws -> Alternatives {
        let current = try await plans.show(id: id).plan
        let segment = try input.segmentIndex(number, in: current)
        let count = try Self.count(count)
        _ = try regions.requireRegions()
        let time = try await planner.optionsTime(ofSegment: segment, in: current)
        let options = try await planner.alternatives(for: current, segment: segment, count: count, listedFrom: time)
        var conflicts: [Int: RoutePlan.PinConflict] = [:]
        for (index, option) in options.enumerated() {
            conflicts[index] = current.pinConflict(takingLeg: option, forSegment: segment, now: input.clock.now())
        }
        return Alternatives(plan: current, segment: segment, options: options, time: time, timeZone: regions.timeZone(of: current),
                            pinConflicts: conflicts)
    }

    /// The most alternatives one request may ask for.
    static let maxAlternatives = 20

    /// How many alternatives to list or choose among (default 5).
    static func count(_ given: Int?) throws -> Int {
        let count = given ?? 5
        guard (1...maxAlternatives).contains(count) else {
            throw DaemonError.invalidParams("count must be 1 to \(maxAlternatives), got \(count)")
        }
        return count
    }
}
