import Foundation
import Planner

/// Builds `StreetComponents` during the import's one OSM read: each way Routino reads joins its
/// nodes (union–find over node positions in the read's sorted node list), and at the end every
/// way marks the cells its segments pass with its component.
struct StreetComponentsBuilder {
    private var parent: [Int32] = []
    /// The node indices of every way read, one after another; `wayEnds[i]` ends way `i`.
    private var wayNodes: [Int32] = []
    private var wayEnds: [Int] = []
    private var cellLongitudeDegrees: Double?

    /// Whether Routino's default tagging makes a segment of this way (`/usr/share/routino/tagging.xml`).
    static func isRoutable(_ tags: [String: String]) -> Bool {
        tags["highway"] != nil || tags["route"] == "ferry"
    }

    /// One routable way, as indices into the read's node list (`nodeCount` nodes so far).
    mutating func addWay(nodeIndices: [Int], nodeCount: Int, firstLatitude: Double) {
        guard nodeIndices.count >= 2 else { return }
        if parent.count < nodeCount { parent.append(contentsOf: (parent.count..<nodeCount).map { Int32($0) }) }
        if cellLongitudeDegrees == nil {
            cellLongitudeDegrees = StreetComponents.cellMetres / StreetComponents.metresPerDegree
                / max(cos(firstLatitude * .pi / 180), 0.01)
        }
        for index in nodeIndices.dropFirst() { union(nodeIndices[0], index) }
        wayNodes.append(contentsOf: nodeIndices.map { Int32($0) })
        wayEnds.append(wayNodes.count)
    }

    /// The components, with each way's segments sampled at most half a cell apart.
    /// - parameter coordinate: a node index's position.
    mutating func build(coordinate: (Int) -> Coordinate) -> StreetComponents {
        let latitudeDegrees = StreetComponents.cellMetres / StreetComponents.metresPerDegree
        let longitudeDegrees = cellLongitudeDegrees ?? latitudeDegrees
        var dense: [Int32: UInt32] = [:]
        var pairs: [(cell: Int64, component: UInt32)] = []
        var start = 0
        for end in wayEnds {
            let root = find(Int(wayNodes[start]))
            let component = dense[root] ?? UInt32(dense.count)
            dense[root] = component
            var cells = Set<Int64>()
            var previous = coordinate(Int(wayNodes[start]))
            for position in start..<end {
                let point = coordinate(Int(wayNodes[position]))
                let steps = max(1, Int((2 * max(abs(point.latitude - previous.latitude) / latitudeDegrees,
                                                abs(point.longitude - previous.longitude) / longitudeDegrees)).rounded(.up)))
                for step in 0...steps {
                    let t = Double(step) / Double(steps)
                    let sample = Coordinate(latitude: previous.latitude + (point.latitude - previous.latitude) * t,
                                            longitude: previous.longitude + (point.longitude - previous.longitude) * t)
                    let (row, column) = StreetComponents.cell(sample, latitudeDegrees, longitudeDegrees)
                    cells.insert(StreetComponents.key(row: row, column: column))
                }
                previous = point
            }
            pairs.append(contentsOf: cells.map { ($0, component) })
            start = end
        }
        pairs.sort { $0.cell != $1.cell ? $0.cell < $1.cell : $0.component < $1.component }
        var cells: [Int64] = [], components: [UInt32] = []
        for pair in pairs where cells.last != pair.cell || components.last != pair.component {
            cells.append(pair.cell)
            components.append(pair.component)
        }
        return StreetComponents(cellLatitudeDegrees: latitudeDegrees, cellLongitudeDegrees: longitudeDegrees,
                                componentCount: dense.count, cells: cells, components: components)
    }

    private mutating func find(_ node: Int) -> Int32 {
        var root = Int32(node)
        while parent[Int(root)] != root { root = parent[Int(root)] }
        var current = Int32(node)
        while parent[Int(current)] != root {
            let next = parent[Int(current)]
            parent[Int(current)] = root
            current = next
        }
        return root
    }

    private mutating func union(_ a: Int, _ b: Int) {
        let rootA = find(a), rootB = find(b)
        if rootA != rootB { parent[Int(rootB)] = rootA }
    }
}
