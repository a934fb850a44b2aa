import Foundation
import Planner
import SQLite

/// The feed's drawing of rides in a region: the part of a trip's `shapes.txt` line between the
/// stops a ride boards and alights at, and its route's colour.
///
/// ```swift
/// let shapes = try RideShapes(regionDirectory: region)
/// shapes.shape(of: ride)?.points   // nil when the feed has no shape for the trip
/// ```
public final class RideShapes: Sendable {
    private let table: RideShapeTable

    /// Loads the shapes stored by the region's last GTFS import (none for an older import).
    /// - throws: `TransitError.timetableMissing` or a storage error.
    public init(regionDirectory: URL) throws {
        let file = TimetableStore(regionDirectory: regionDirectory).fileURL
        guard FileManager.default.fileExists(atPath: file.path) else { throw TransitError.timetableMissing(file.path) }
        do {
            table = try RideShapeTable.load(from: file)
        } catch let error as SQLiteError {
            throw TransitError.storage(error.description)
        }
    }

    init(table: RideShapeTable) {
        self.table = table
    }

    /// The ride's line along its trip's shape, starting and ending at its stops, with the route's
    /// colour; nil when the trip is unknown. Without a shape the points are empty (the caller
    /// draws through the stops) and only the colour is given.
    public func shape(of ride: TransitRide) -> PlanGeometry.RideShape? {
        guard let tripID = ride.tripID else { return nil }
        // A run of a frequency-based trip is "<trip_id>@HH:MM:SS".
        let lines = table.trips[tripID] ?? tripID.lastIndex(of: "@").flatMap { table.trips[String(tripID[..<$0])] }
        guard let lines, let line = Self.line(of: ride, among: lines, shapes: table.shapes) else { return nil }
        let points = line.shapeID.flatMap { table.shapes[$0] }.map {
            Self.cut($0, from: ride.boarding.coordinate, to: ride.alighting.coordinate)
        } ?? []
        return PlanGeometry.RideShape(points: points, color: line.color)
    }

    /// The ride's own line when feeds of the region share its trip ID: the one whose shape passes
    /// nearest its boarding and alighting stops (a trip's shape runs through its stops; another
    /// feed's trip of that ID runs elsewhere). Lines without a shape come after those with one.
    static func line(of ride: TransitRide, among lines: [RideShapeTable.TripLine],
                     shapes: [String: [Coordinate]]) -> RideShapeTable.TripLine? {
        guard lines.count > 1 else { return lines.first }
        func miss(_ line: RideShapeTable.TripLine) -> Double {
            guard let shape = line.shapeID.flatMap({ shapes[$0] }), !shape.isEmpty else { return .infinity }
            func nearest(_ point: Coordinate) -> Double { shape.lazy.map { $0.distance(to: point) }.min() ?? .infinity }
            return nearest(ride.boarding.coordinate) + nearest(ride.alighting.coordinate)
        }
        return lines.min { miss($0) < miss($1) }
    }

    /// The part of `shape` from the point nearest `start` to the point nearest `end` after it,
    /// framed by the stops themselves so the line meets the walks.
    static func cut(_ shape: [Coordinate], from start: Coordinate, to end: Coordinate) -> [Coordinate] {
        guard !shape.isEmpty else { return [] }
        func nearest(to point: Coordinate, in range: Range<Int>) -> Int {
            range.min { shape[$0].distance(to: point) < shape[$1].distance(to: point) } ?? range.lowerBound
        }
        let first = nearest(to: start, in: 0..<shape.count)
        let last = nearest(to: end, in: first..<shape.count)
        return [start] + shape[first...last] + [end]
    }
}
