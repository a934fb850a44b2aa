import Planner
import WireProtocol

extension WireDocuments {
    /// Puts each line of `geometry` on the part of `document` it draws (a walk or car leg, a
    /// ride, a walk inside a transit leg), as `[lat, lon]` pairs.
    public static func addGeometry(_ geometry: PlanGeometry, to document: inout PlanDocument) {
        for line in geometry.lines where document.segments.indices.contains(line.segment) {
            let pairs = line.points.map { [$0.latitude, $0.longitude] }
            guard var leg = document.segments[line.segment].leg else { continue }
            switch line.part {
            case .leg: leg.geometry = pairs
            case .ride(let index) where leg.rides.indices.contains(index): leg.rides[index].geometry = pairs
            case .walk(let index) where leg.walks.indices.contains(index): leg.walks[index].geometry = pairs
            case .ride, .walk: continue
            }
            document.segments[line.segment].leg = leg
        }
    }
}
