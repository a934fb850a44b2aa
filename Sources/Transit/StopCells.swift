import Foundation

/// The stops grouped into cells of at most `stopsPerCell` nearby stops each: the coarse graph
/// over which `RemainingTimeGraph` keeps a table of lower bounds past its per-stop table's limit.
/// Built by halving the stops along the longer side of their extent (a k-d tree's leaves), each
/// half given its share of the cells, so every cell is a compact patch of the map.
///
/// Grouping only decides how tight the cells' bounds are, never whether they are bounds: a
/// cell's distance is the least over its member stops, whichever they are.
///
///     let cells = StopCells(latitudes: lats, longitudes: lons, stopsPerCell: 29)
///     for k in cells.members(of: c) { … }   // stops of cell c; cells.cellOf[s] is s's cell
struct StopCells: Sendable {
    /// Per stop: its cell.
    let cellOf: [Int32]
    /// The stops cell by cell: cell `c`'s are `members[memberStart[c]..<memberStart[c + 1]]`.
    let members: [Int32]
    let memberStart: [Int32]

    var count: Int { memberStart.count - 1 }

    /// The stops per cell for `stopCount` stops: √n / 4 (at least 1), so about 4·√n cells and a
    /// table of cells² ≈ 16·n entries per direction, memory linear in the stops (32 bytes a stop
    /// at 16 bits an entry), where a table per stop pair is n².
    static func defaultStopsPerCell(stopCount: Int) -> Int {
        max(1, Int((Double(stopCount).squareRoot() / 4).rounded(.up)))
    }

    /// - parameter latitudes, longitudes: per stop, in degrees (a stop without a place still gets a cell).
    init(latitudes: [Double], longitudes: [Double], stopsPerCell: Int) {
        let n = latitudes.count, size = max(1, stopsPerCell)
        let meanLatitude = n == 0 ? 0 : latitudes.reduce(0, +) / Double(n)
        // Degrees of longitude shrink towards the poles: compare extents in comparable units.
        let squeeze = max(0.05, cos(meanLatitude * .pi / 180))
        let x = longitudes.map { $0 * squeeze }, y = latitudes
        var order = Array(Int32(0)..<Int32(n))
        var starts: [Int32] = [0]
        order.withUnsafeMutableBufferPointer { order in
            // Halves a run of stops until it fits a cell, each half its share of the run's cells
            // (so a cell holds at most `size` stops and the cells stay about n / size).
            func split(_ range: Range<Int>) {
                let cellsHere = (range.count + size - 1) / size
                guard cellsHere > 1 else {
                    if !range.isEmpty { starts.append(Int32(range.upperBound)) }
                    return
                }
                var (minX, maxX, minY, maxY) = (Double.infinity, -Double.infinity, Double.infinity, -Double.infinity)
                for k in range {
                    let s = Int(order[k])
                    minX = min(minX, x[s]); maxX = max(maxX, x[s]); minY = min(minY, y[s]); maxY = max(maxY, y[s])
                }
                let alongX = maxX - minX >= maxY - minY
                // Ties broken by stop index: the same stops always make the same cells.
                order[range].sort { a, b in
                    let (ka, kb) = alongX ? (x[Int(a)], x[Int(b)]) : (y[Int(a)], y[Int(b)])
                    return ka < kb || (ka == kb && a < b)
                }
                let firstCells = cellsHere / 2
                let middle = range.lowerBound + range.count * firstCells / cellsHere
                split(range.lowerBound..<middle)
                split(middle..<range.upperBound)
            }
            split(0..<n)
        }
        var cellOf = [Int32](repeating: 0, count: n)
        for c in 0..<(starts.count - 1) {
            for k in Int(starts[c])..<Int(starts[c + 1]) { cellOf[Int(order[k])] = Int32(c) }
        }
        self.cellOf = cellOf
        members = order
        memberStart = starts
    }
}
