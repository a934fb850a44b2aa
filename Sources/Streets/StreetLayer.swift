import Foundation
import Planner

/// The light street layer a map picture is drawn on: every OSM way with a drawn `highway` class,
/// simplified, in `<region>/streets.bin`. Written by the region import (in its staging
/// directory, so the switch to the new version covers it) from the same OSM read as the place
/// index, and read whole when a picture is drawn.
///
/// The file is "UMSTREETS" + version byte, a little-endian UInt32 line count, then per line a
/// class byte, a UInt32 point count and Int32 microdegree latitude/longitude pairs.
///
/// ```swift
/// let streets = try StreetLayer.read(regionDirectory: region)   // nil for an older import
/// ```
public enum StreetLayer {
    public static let fileName = "streets.bin"
    /// Metres of Ramer–Douglas–Peucker simplification applied at import: invisible at city scale.
    public static let toleranceMetres = 3.0
    static let magic = Array("UMSTREETS".utf8) + [1]

    public static func write(_ lines: [StreetLine], regionDirectory: URL) throws {
        var bytes = magic
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        append(UInt32(lines.count))
        for line in lines {
            bytes.append(line.streetClass.rawValue)
            append(UInt32(line.points.count))
            for point in line.points {
                append(Int32((point.latitude * 1e6).rounded()))
                append(Int32((point.longitude * 1e6).rounded()))
            }
        }
        let file = regionDirectory.appendingPathComponent(fileName)
        do {
            try Data(bytes).write(to: file, options: .atomic)
        } catch {
            throw StreetsError.importFailed(phase: "writing the street layer", message: "\(file.path): \(error.localizedDescription)")
        }
    }

    /// The region's street layer, or nil when its import predates the layer.
    /// - throws: `StreetsError.streetLayerUnreadable` for a truncated or foreign file.
    public static func read(regionDirectory: URL) throws -> [StreetLine]? {
        let file = regionDirectory.appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        return try data.withUnsafeBytes { raw -> [StreetLine] in
            var offset = 0
            func next<T: FixedWidthInteger>(_: T.Type) throws -> T {
                guard offset + MemoryLayout<T>.size <= raw.count else { throw StreetsError.streetLayerUnreadable(file.path) }
                defer { offset += MemoryLayout<T>.size }
                return T(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: T.self))
            }
            guard raw.count >= magic.count, Array(raw.prefix(magic.count)) == magic else {
                throw StreetsError.streetLayerUnreadable(file.path)
            }
            offset = magic.count
            let count = Int(try next(UInt32.self))
            var lines: [StreetLine] = []
            lines.reserveCapacity(min(count, raw.count / 9))
            for _ in 0..<count {
                guard let streetClass = StreetClass(rawValue: try next(UInt8.self)) else {
                    throw StreetsError.streetLayerUnreadable(file.path)
                }
                let points = Int(try next(UInt32.self))
                guard offset + points * 8 <= raw.count else { throw StreetsError.streetLayerUnreadable(file.path) }
                var line = [Coordinate]()
                line.reserveCapacity(points)
                for _ in 0..<points {
                    let latitude = try next(Int32.self), longitude = try next(Int32.self)
                    line.append(Coordinate(latitude: Double(latitude) / 1e6, longitude: Double(longitude) / 1e6))
                }
                lines.append(StreetLine(streetClass: streetClass, points: line))
            }
            return lines
        }
    }
}
