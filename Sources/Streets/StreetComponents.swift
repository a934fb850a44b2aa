import Foundation
import Planner

/// Which street networks come near a point: the connected components of the region's street
/// graph, computed once at import, so that a route between two networks no way joins (islands
/// without a ferry, the towns of a synthetic country) is `no_route` at once instead of a
/// Routino search and its retries from nearby roads.
///
/// The graph is every way Routino's default tagging reads (`highway=*` and `route=ferry`), so it
/// holds each profile's graph (foot, wheelchair, bicycle, car): two points whose nearby ways
/// are in different components of it cannot be joined by any profile. The other way round
/// proves nothing (a footpath may join what a car cannot cross), so Routino is still asked then.
///
/// Stored in `<region>/street-components.bin`: "UMCOMPONENTS" + version byte, the cell size in
/// degrees (latitude, longitude; Float64), a UInt32 component count, a UInt32 pair count, then
/// each (cell, component) pair as an Int64 cell key and a UInt32 component, sorted.
///
/// ```swift
/// let components = try StreetComponents.read(regionDirectory: region)   // nil for an older import
/// components?.mayConnect(from, to, within: StreetRouter.snapLimit)      // false: no route for certain
/// ```
public struct StreetComponents: Sendable {
    public static let fileName = "street-components.bin"
    static let magic = Array("UMCOMPONENTS".utf8) + [1]
    /// The side of a cell, metres (its height; its width at the latitude the import started at).
    static let cellMetres = 500.0
    static let metresPerDegree = Coordinate.earthRadiusMetres * .pi / 180
    /// The sides in degrees a file may give (500 m is 0.0045° of latitude, and at most 0.45° of
    /// longitude where the width is taken at the 1 % floor of cos(latitude)).
    static let plausibleCellDegrees = 0.0001...1.0

    let cellLatitudeDegrees: Double
    let cellLongitudeDegrees: Double
    public let componentCount: Int
    /// Sorted cell keys, one per (cell, component) pair; `components[i]` is the pair's component.
    let cells: [Int64]
    let components: [UInt32]

    /// The components of every way within `reach` metres of `point` (a superset: a few cells more).
    public func components(near point: Coordinate, within reach: Double) -> Set<UInt32> {
        let (row, column) = Self.cell(point, cellLatitudeDegrees, cellLongitudeDegrees)
        let rows = Int((reach / Self.cellMetres).rounded(.up)) + 1
        let widthMetres = cellLongitudeDegrees * Self.metresPerDegree * max(cos(point.latitude * .pi / 180), 0.01)
        let columns = Int((reach / widthMetres).rounded(.up)) + 2
        var found = Set<UInt32>()
        for r in (row - rows)...(row + rows) {
            for c in (column - columns)...(column + columns) {
                var index = lowerBound(Self.key(row: r, column: c))
                while index < cells.count, cells[index] == Self.key(row: r, column: c) {
                    found.insert(components[index])
                    index += 1
                }
            }
        }
        return found
    }

    /// False when every way within `reach` of `from` is in another component than every way
    /// within `reach` of `to`: no street route joins them. True otherwise, and when either end
    /// has no way near it (Routino then says which end has no road).
    public func mayConnect(_ from: Coordinate, _ to: Coordinate, within reach: Double) -> Bool {
        let near = components(near: from, within: reach)
        guard !near.isEmpty else { return true }
        let far = components(near: to, within: reach)
        return far.isEmpty || !near.isDisjoint(with: far)
    }

    private func lowerBound(_ key: Int64) -> Int {
        var low = 0, high = cells.count
        while low < high {
            let middle = (low + high) / 2
            if cells[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    static func cell(_ point: Coordinate, _ latitudeDegrees: Double, _ longitudeDegrees: Double) -> (Int, Int) {
        (Int((point.latitude / latitudeDegrees).rounded(.down)), Int((point.longitude / longitudeDegrees).rounded(.down)))
    }

    static func key(row: Int, column: Int) -> Int64 {
        Int64(Int32(truncatingIfNeeded: row)) << 32 | Int64(UInt32(bitPattern: Int32(truncatingIfNeeded: column)))
    }

    // MARK: - File

    public func write(regionDirectory: URL) throws {
        var bytes = Self.magic
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        append(cellLatitudeDegrees.bitPattern)
        append(cellLongitudeDegrees.bitPattern)
        append(UInt32(componentCount))
        append(UInt32(cells.count))
        bytes.reserveCapacity(bytes.count + cells.count * 12)
        for (cell, component) in zip(cells, components) {
            append(cell)
            append(component)
        }
        let file = regionDirectory.appendingPathComponent(Self.fileName)
        do {
            try Data(bytes).write(to: file, options: .atomic)
        } catch {
            throw StreetsError.importFailed(phase: "writing the street components", message: "\(file.path): \(error.localizedDescription)")
        }
    }

    /// The region's components, or nil when its import predates them or the file is unreadable
    /// (the router then asks Routino as before: the file only saves work).
    public static func read(regionDirectory: URL) -> StreetComponents? {
        let file = regionDirectory.appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        return data.withUnsafeBytes { raw -> StreetComponents? in
            var offset = magic.count
            func next<T: FixedWidthInteger>(_: T.Type) -> T? {
                guard offset + MemoryLayout<T>.size <= raw.count else { return nil }
                defer { offset += MemoryLayout<T>.size }
                return T(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: T.self))
            }
            guard raw.count >= magic.count, Array(raw.prefix(magic.count)) == magic,
                  let latitude = next(UInt64.self).map(Double.init(bitPattern:)),
                  let longitude = next(UInt64.self).map(Double.init(bitPattern:)),
                  // A cell is 500 m: a side far outside this range (a damaged file) would make the
                  // cell arithmetic overflow or a lookup scan millions of cells.
                  Self.plausibleCellDegrees.contains(latitude), Self.plausibleCellDegrees.contains(longitude),
                  let componentCount = next(UInt32.self), let pairCount = next(UInt32.self),
                  raw.count - offset == Int(pairCount) * 12 else { return nil }
            var cells: [Int64] = [], components: [UInt32] = []
            cells.reserveCapacity(Int(pairCount))
            components.reserveCapacity(Int(pairCount))
            for _ in 0..<pairCount {
                guard let cell = next(Int64.self), let component = next(UInt32.self) else { return nil }
                cells.append(cell)
                components.append(component)
            }
            return StreetComponents(cellLatitudeDegrees: latitude, cellLongitudeDegrees: longitude,
                                    componentCount: Int(componentCount), cells: cells, components: components)
        }
    }
}
