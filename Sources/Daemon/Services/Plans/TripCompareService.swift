import Foundation
import Planner

/// `compare` from what was typed: both ends (and `near`) resolved together in one region, the
/// time read in that region's zone, the places typed as text remembered with the route, then
/// `TripComparer`'s comparison. `PlanMethods` encodes what comes back (and draws its picture).
struct TripCompareService: Sendable {
    let resolver: PlaceResolver
    let regions: RegionRegistry
    let input: WireInput
    let comparer: TripComparer
    let typedPlaces: TypedPlaceHistory

    /// What `compare` was asked, in the daemon's words.
    struct Order: Sendable {
        var from: String
        var to: String
        var near: String?
        var region: String?
        /// `HH:MM` or a full time, read in the zone of the trip's region.
        var at: String?
        var arriveBy: String?
        var pace: WalkingPace
        var access: AccessNeed
        var modes: [TravelMode]
    }

    /// A trip compared, with how each typed end (and `near`) matched.
    struct Compared: Sendable {
        var comparison: TripComparer.Comparison
        var from: ResolvedPlace
        var to: ResolvedPlace
        var near: ResolvedPlace?
    }

    func compare(_ order: Order) async throws -> Compared {
        let (fromMatch, toMatch, near) = try await resolver.resolveTrip(order.from, order.to, near: order.near,
                                                                        region: order.region, regions: regions)
        let from = fromMatch.node, to = toMatch.node
        let zone = try regions.tripRegion(from: from.place, to: to.place).timeZone
        let preference = try input.timePreference(at: order.at, arriveBy: order.arriveBy, timeZone: zone)
        let typed = [typedPlaces.typed(order.from, resolved: from.place), typedPlaces.typed(order.to, resolved: to.place)].compactMap { $0 }
        let comparison = try await comparer.comparison(of: TripComparer.Trip(from: from, to: to, fromText: order.from, toText: order.to),
                                                       timePreference: preference, pace: order.pace, access: order.access,
                                                       modes: order.modes, searches: typedPlaces.entries(typed))
        return Compared(comparison: comparison, from: fromMatch, to: toMatch, near: near)
    }
}
