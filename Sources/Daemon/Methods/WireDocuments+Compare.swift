import Foundation
import Planner
import Store
import WireProtocol

extension WireDocuments {
    /// `compare`'s answer for a trip compared.
    static func compare(_ comparison: TripComparer.Comparison) -> CompareDocument {
        let zone = comparison.zone
        return CompareDocument(from: place(comparison.trip.from.place), to: place(comparison.trip.to.place),
                               options: comparison.comparisons.map { compareOption($0, timeZone: zone, now: comparison.now) },
                               timeZone: WireTime.zoneName(zone), time: WireTime.string(from: comparison.asked, timeZone: zone),
                               timeKind: timePreference(comparison.timePreference, timeZone: zone).kind)
    }
}

extension TripComparer {
    /// A trip compared, as `compare` and `history.rerun` answer it, with the comparisons it was
    /// made from (for a picture of the routes) and the zone of its region.
    func compare(_ trip: Trip, timePreference: TimePreference, pace: WalkingPace, access: AccessNeed = .any,
                 modes: [TravelMode] = Planner.comparedModes,
                 searches: [SearchHistoryEntry] = []) async throws
        -> (document: CompareDocument, comparisons: [ModeComparison], zone: TimeZone) {
        let comparison = try await comparison(of: trip, timePreference: timePreference, pace: pace, access: access, modes: modes,
                                              searches: searches)
        return (WireDocuments.compare(comparison), comparison.comparisons, comparison.zone)
    }
}
