import Foundation
import Planner
import Transit

/// The engine measured against the yardstick (`ConnectionScan`) on the same depart-at queries:
/// the scan's time per query, and how many queries the two disagree on. The engine's earliest
/// arrival for the check is searched with rides enough never to bind (the scan has no limit);
/// the engine's time is the caller's, from `TransitRouter.leg` as the product runs it.
struct YardstickComparison {
    /// Rides allowed in the check's engine search: more than any journey here takes.
    static let checkRides = 32

    var seconds: [Double] = []
    var mismatches: [String] = []
    var found = 0

    init(_ router: TransitRouter, pairs: [(Coordinate, Coordinate, Date)], pace: WalkingPace = .normal) {
        var scans: [Int: ConnectionScan] = [:]
        for (from, to, when) in pairs {
            let query = router.engineQuery(from: from, to: to, departing: when, pace: pace)
            let scan = scans[query.day] ?? ConnectionScan(router.connectionTimetable(around: query.day, pace: pace))
            scans[query.day] = scan
            let (arrival, elapsed) = time { scan.earliestArrival(query) }
            seconds.append(elapsed)
            let engine = router.engineEarliestArrival(query, pace: pace, maxRides: Self.checkRides)
            if arrival != nil { found += 1 }
            if arrival != engine {
                mismatches.append("\(from) → \(to) at \(query.time): scan \(arrival.map(String.init) ?? "none"), engine \(engine.map(String.init) ?? "none")")
            }
        }
    }

    /// Adds the scan's latencies, the mismatch count and the engine's p50 over the scan's.
    func add(to report: inout SuiteReport, prefix: String, engineDepartAt: [Double], engineArriveBy: [Double]) {
        report.addLatencies("\(prefix)baseline connection scan", seconds)
        report.add("\(prefix)baseline mismatches (must be 0)", Double(mismatches.count), unit: "count")
        let base = percentile(seconds.sorted(), 0.5)
        if base > 0 {
            report.add("\(prefix)depart-at engine p50 / baseline p50", percentile(engineDepartAt.sorted(), 0.5) / base, unit: "×")
            report.add("\(prefix)arrive-by engine p50 / baseline p50", percentile(engineArriveBy.sorted(), 0.5) / base, unit: "×")
        }
        report.notes["\(prefix)baseline"] = "\(seconds.count) depart-at queries, \(found) with a journey, \(mismatches.count) mismatches"
            + (mismatches.isEmpty ? "" : ": " + mismatches.prefix(3).joined(separator: "; "))
    }
}
