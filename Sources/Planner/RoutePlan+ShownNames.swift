import Foundation

/// A plan never shows two different places under one name (trial 50: `plan new "Koskipuisto D"
/// Tieteenkatu Hervanta` showed the stop bus 6 alights at and the street the user typed both as
/// "Tieteenkatu"). A stop the planner chose that shares its name with another place of the plan
/// is told apart by its stop code as the feed gives it ("Tieteenkatu (stop 3570)"); the places
/// the user named keep their names.
extension RoutePlan {
    /// Each node's name as the plan shows it (`nodes` order).
    public var shownNodeNames: [String] {
        nodes.indices.map { index in
            let node = nodes[index]
            guard node.isInferred, nodes.contains(where: { $0.place.name == node.place.name && $0.place.id != node.place.id }) else {
                return node.place.name
            }
            return stopID(ofNode: index).map { "\(node.place.name) (stop \($0))" } ?? "\(node.place.name) (stop)"
        }
    }

    /// The feed's ID of the stop at node `index`, from a ride of a leg next to it that calls there.
    private func stopID(ofNode index: Int) -> String? {
        let coordinate = nodes[index].place.coordinate
        let calls = (index > 0 ? legs[index - 1]?.rides.map(\.alighting) ?? [] : [])
            + (index < legs.count ? legs[index]?.rides.map(\.boarding) ?? [] : [])
        return calls.first { $0.coordinate == coordinate && $0.stopID != nil }?.stopID
            ?? calls.first { $0.name == nodes[index].place.name && $0.stopID != nil }?.stopID
    }
}
