import Foundation
import Planner
import SQLite
import Synchronization

/// The footpath times a region's previous timetable measured, given again for the same two stop
/// positions when the timetable is rebuilt on the same streets (`region update` of a feed keeps
/// the streets): only the pairs it does not know are asked of `streets`, so a changed feed
/// costs the footpaths of its new or moved stops, not every footpath of the region again. A time
/// the previous import could only estimate as a straight line is asked again.
///
/// ```swift
/// let walking = KnownFootpathTimes(regionDirectory: current, streets: streetWalking)
/// try GTFSImporter().importFeeds(feeds, intoRegionDirectory: staging, walking: walking)
/// walking.reused  // footpaths not timed again
/// ```
public final class KnownFootpathTimes: WalkingTimeEstimator, Sendable {
    /// Both ends' coordinates, bit for bit: a stop that moved at all is timed again.
    private struct Pair: Hashable {
        var from: (UInt64, UInt64)
        var to: (UInt64, UInt64)

        init(_ from: Coordinate, _ to: Coordinate) {
            self.from = (from.latitude.bitPattern, from.longitude.bitPattern)
            self.to = (to.latitude.bitPattern, to.longitude.bitPattern)
        }

        static func == (a: Pair, b: Pair) -> Bool { a.from == b.from && a.to == b.to }
        func hash(into hasher: inout Hasher) {
            hasher.combine(from.0); hasher.combine(from.1); hasher.combine(to.0); hasher.combine(to.1)
        }
    }

    private let known: [Pair: Double]
    private let streets: any WalkingTimeEstimator
    private let reusedCount = Mutex(0)

    /// - parameter regionDirectory: the region version whose `transit.sqlite` measured the
    ///   footpaths on the same streets; a missing or unreadable one gives nothing known.
    public init(regionDirectory: URL, streets: any WalkingTimeEstimator) {
        self.streets = streets
        known = (try? Self.read(TimetableStore(regionDirectory: regionDirectory).fileURL)) ?? [:]
    }

    /// Footpaths answered from the previous timetable so far.
    public var reused: Int { reusedCount.withLock { $0 } }

    public var followsStreets: Bool { streets.followsStreets }

    public var normalPaceMetresPerSecond: Double? { streets.normalPaceMetresPerSecond }

    public func walkingSeconds(from: Coordinate, to: Coordinate, pace: WalkingPace) -> Double? {
        streets.walkingSeconds(from: from, to: to, pace: pace)
    }

    public func walkingSeconds(pairs: [(from: Coordinate, to: Coordinate)], pace: WalkingPace) throws -> [Double?] {
        // Stored times are at normal pace, as the import asks them.
        guard pace == .normal, !known.isEmpty else { return try streets.walkingSeconds(pairs: pairs, pace: pace) }
        var answers = pairs.map { known[Pair($0.from, $0.to)] }
        let unknown = answers.indices.filter { answers[$0] == nil }
        if !unknown.isEmpty {
            let asked = try streets.walkingSeconds(pairs: unknown.map { pairs[$0] }, pace: pace)
            for (k, i) in unknown.enumerated() where k < asked.count { answers[i] = asked[k] }
        }
        reusedCount.withLock { $0 += pairs.count - unknown.count }
        return answers
    }

    /// Each stored footpath's normal-pace time by its ends' positions, leaving out those equal to
    /// the straight-line estimate (the streets could not time them then; they are asked again).
    private static func read(_ file: URL) throws -> [Pair: Double] {
        guard FileManager.default.fileExists(atPath: file.path) else { return [:] }
        let db = try Database(path: file.path, mode: .readOnly)
        return try db.readTransaction {
            let stops = try db.query("SELECT lat, lon FROM stops ORDER BY idx") {
                Coordinate(latitude: $0.double(0), longitude: $0.double(1))
            }
            let straight = StraightLineWalking()
            var known: [Pair: Double] = [:]
            let footpaths = try db.query("SELECT from_idx, to_idx, walk_seconds FROM footpaths") {
                ($0.int(0), $0.int(1), Double($0.int64(2)))
            }
            for (from, to, seconds) in footpaths where stops.indices.contains(from) && stops.indices.contains(to) {
                let line = straight.walkingSeconds(from: stops[from], to: stops[to], pace: .normal).map { min($0.rounded(.up), 86_400) }
                if line == seconds { continue }
                known[Pair(stops[from], stops[to])] = seconds
            }
            return known
        }
    }
}
