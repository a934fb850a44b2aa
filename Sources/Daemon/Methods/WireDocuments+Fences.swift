import Foundation
import Planner
import WireProtocol

extension WireDocuments {
    /// Every saved place's fence (on or off) by place name, as `place.fence`, `place.save` and
    /// `place.list` show it.
    static func fences(_ found: GeofenceService.Fences) -> [String: FenceDocument] {
        Dictionary(found.fences.map { fence in
            (fence.name, FenceDocument(on: fence.isOn, radiusM: fence.radiusMetres,
                                       exitRadiusM: GeofenceRule.outsideMetres(forInside: fence.radiusMetres),
                                       state: fence.isOn ? (found.states[fence.name] ?? .unknown).rawValue : "off"))
        }, uniquingKeysWith: { first, _ in first })
    }

    /// A fix as `history.visits` shows it, its time in `timeZone`.
    static func fix(_ fix: LocationFix, timeZone: TimeZone) -> FixDocument {
        FixDocument(lat: fix.coordinate.latitude, lon: fix.coordinate.longitude, accuracyM: fix.horizontalAccuracy,
                    time: WireTime.string(from: fix.timestamp, timeZone: timeZone))
    }
}
