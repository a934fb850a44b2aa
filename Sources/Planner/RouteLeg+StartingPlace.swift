import Foundation

extension RouteLeg {
    /// Whether the transit leg starts at `coordinate` (within `metres`): its walk to the first
    /// stop starts there, or, walking none, its first ride boards there. A pinned ride kept with
    /// its live times after `plan move` chose its node again boarded 1.3 km from that node in
    /// the minute the traveller was there (trial 59b F1): kept as it is only where it starts.
    func starts(at coordinate: Coordinate, within metres: Double) -> Bool {
        guard mode == .transit, let first = rides.first else { return false }
        if let access = walks.first(where: { $0.kind == .access && $0.distance > 0 }) {
            return access.from.distance(to: coordinate) <= metres
        }
        return first.boarding.coordinate.distance(to: coordinate) <= metres
    }
}
