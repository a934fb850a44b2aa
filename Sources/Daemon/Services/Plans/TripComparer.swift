import Foundation
import Planner
import Store

/// `compare` once its two ends are known: walk, transit, car and bike side by side, recorded in route
/// history with what was typed, the region, the requested time, the options asked (pace, access,
/// modes: a rerun asks the same) and the answer per mode.
/// Used by `compare` and by `history.rerun`, whose handlers encode its `Comparison` as a
/// `CompareDocument` (`WireDocuments+Compare`).
struct TripComparer: Sendable {
    let planner: Planner
    let store: Store
    let regions: RegionRegistry
    let location: LocationState
    let clock: any WallClock
    let history: BestEffortHistory

    /// A trip whose ends are resolved; `fromText`/`toText` are what the user typed.
    struct Trip: Sendable {
        var from: PlanNode
        var to: PlanNode
        var fromText: String
        var toText: String
    }

    /// A trip compared: each mode's answer, in the zone of the trip's region.
    struct Comparison: Sendable {
        var trip: Trip
        var comparisons: [ModeComparison]
        var zone: TimeZone
        /// The time asked for (now for "leave now"), and how.
        var asked: Date
        var timePreference: TimePreference
        /// The daemon's clock when it was compared.
        var now: Date
    }

    /// Compares the modes and records the route in the history.
    /// - parameter modes: the modes compared (`compare`'s `modes`; default all four).
    /// - parameter searches: places typed as text for this trip, recorded with the route entry.
    /// - parameter access: step-free walks and transit (`--wheelchair`).
    func comparison(of trip: Trip, timePreference: TimePreference, pace: WalkingPace, access: AccessNeed = .any,
                    modes: [TravelMode] = Planner.comparedModes,
                    searches: [SearchHistoryEntry] = []) async throws -> Comparison {
        // Said here in the user's words: the planner's refusal names the place's internal ID.
        guard trip.from.place.id != trip.to.place.id else {
            let typed = trip.fromText == trip.toText ? "\"\(trip.fromText)\" is" : "\"\(trip.fromText)\" and \"\(trip.toText)\" are"
            throw DaemonError.invalidParams("\(typed) the same place (\(trip.from.place.name)): compare needs two different places")
        }
        let region = try regions.tripRegion(from: trip.from.place, to: trip.to.place)
        let zone = region.timeZone
        let comparisons = try await planner.compare(from: trip.from, to: trip.to, timePreference: timePreference,
                                                    pace: pace, access: access, currentLocation: location.current?.coordinate,
                                                    modes: modes)
        let now = clock.now()
        let fastest = comparisons.first(where: \.isFastest)?.mode
        let asked: Date = switch timePreference {
        case .leaveNow: now
        case .departAt(let date), .arriveBy(let date): date
        }
        let entry = RouteHistoryEntry(
            from: trip.from.place, to: trip.to.place, modes: fastest.map { [$0] } ?? [], date: now,
            fromText: trip.fromText, toText: trip.toText, region: region.name, requestedTime: timePreference,
            answers: comparisons.map { .init(mode: $0.mode, durationS: $0.travelTime.flatMap(Self.wholeSeconds)) },
            fastest: fastest, compare: CompareRequest(pace: pace, access: access, modes: modes))
        try await history.record("compare") { try await store.write(History.recordRoute(entry, searches: searches)) }
        return Comparison(trip: trip, comparisons: comparisons, zone: zone, asked: asked, timePreference: timePreference, now: now)
    }

    /// A duration in whole seconds as the history keeps it (the same rounding as the wire's).
    static func wholeSeconds(_ seconds: Double) -> Int? { seconds.isFinite ? Int(seconds.rounded()) : nil }
}
