import Foundation
import Synchronization

/// A static graph over the stops whose shortest paths are lower bounds on the time a search
/// still needs from a stop to its target: an edge between each two consecutive stops of any
/// pattern, weighted by the least time any of its trips takes from the one to the next (less
/// than any ride over it, with its dwell), and the footpaths at an engine's pace. Boarding
/// rules, changes and service days are left out, which only makes the bound lower.
///
/// A depart-at search reads the rows in `incoming` (per stop, the stops with an edge into it)
/// from its target stops (or their rows of the `towards` table); an arrive-by search the rows in
/// `outgoing` from the origin's stops (or `away`). Past the tables' limit, a search reads the rows
/// near its target and the `towardsCells` (or `awayCells`) table of the stops' `cells` for the rest,
/// tightened by the `landmarks` of the target's region.
///
///     let graph = RemainingTimeGraph(patterns: timetable.patternTable, stopCount: n, footpaths: hops, cells: cells)
///     // rows: graph.incoming for depart-at, graph.outgoing for arrive-by
struct RemainingTimeGraph: Sendable {
    let incoming: FootHops
    let outgoing: FootHops
    /// False when a trip's times go back from one stop to the next (an import skips such trips;
    /// a timetable built otherwise might have one): then no bound is used.
    let usable: Bool
    /// For a timetable of at most `tableStopLimit` stops, every stop's distances each way, each
    /// computed when a search in that direction first needs it (`towards`, `away`). Nil above
    /// the limit (the cells' tables and a search near the target per query).
    private let towardsTable: DistanceTable<UInt8>?, awayTable: DistanceTable<UInt8>?
    /// The stops grouped into nearby cells, and the least distance between any stop of one cell
    /// and any stop of another, each way, built when a search in that direction first needs it.
    let cells: StopCells
    private let towardsCellTable: DistanceTable<Int16>?, awayCellTable: DistanceTable<Int16>?
    /// The landmarks (`StopLandmarks`) that tighten the cells' bound, and every stop's distances
    /// to and from its region's, built when a search past the tables' limit first needs them.
    let landmarks: StopLandmarks?
    private let toLandmarkTable: DistanceTable<StopLandmarks.Lanes>?, fromLandmarkTable: DistanceTable<StopLandmarks.Lanes>?

    /// The most stops for which the distances are kept: they take n² bytes a direction (1.3 MB
    /// at 1,141 stops, 2.25 MB at 1,500) and n searches to build, once per engine and direction.
    static let tableStopLimit = 1_500

    /// The table of stops keeps a distance in whole steps of 2^5 = 32 seconds, rounded down, in a
    /// byte (255 steps, 2 h 16 min, at most): a lower bound still, at most 31 s under the exact
    /// one (capped there, the radius or less). Half the bytes of 16-bit seconds: three Tampere
    /// regions' daemon 7.8 → 3.9 MB (issue 43), the engine's p50 unchanged (the rounds keep a
    /// few labels more; the fill reads half the memory).
    static let tableStepShift: Int16 = 5
    static let tableMaxSteps = 255

    /// Every stop's distances to stop `e` in steps (`tableStepShift`), built on first use:
    /// `towards[e * n + s]` from `s` to `e`, what a depart-at search reads for its target stop `e`.
    /// Nil when the graph keeps none.
    var towards: [UInt8]? { towardsTable?.distances }
    /// Every stop's distances from stop `e` in steps: `away[e * n + s]` from `e` to `s` (arrive-by), built on first use.
    var away: [UInt8]? { awayTable?.distances }
    /// Per cell `d`, every cell's least distance to it: `towardsCells[d * cells.count + c]` is the
    /// least over the stops `s` of cell `c` and `e` of cell `d` of the distance from `s` to `e`
    /// (capped at `radiusCap`), a lower bound on each such distance. Built on first use.
    var towardsCells: [Int16]? { towardsCellTable?.distances }
    /// Per cell `d`, the least distance from it to every cell (arrive-by), built on first use.
    var awayCells: [Int16]? { awayCellTable?.distances }
    /// Every stop's distances to the landmarks (`StopLandmarks.distances`): what a depart-at
    /// search reads ahead of it and an arrive-by search behind it. Built on first use.
    var toLandmarks: [StopLandmarks.Lanes]? { toLandmarkTable?.distances }
    /// Every stop's distances from the landmarks (the other way round), built on first use.
    var fromLandmarks: [StopLandmarks.Lanes]? { fromLandmarkTable?.distances }

    /// The bytes of the distance tables built so far: a depart-at search builds only `towards`
    /// and an arrive-by search only `away` (a depart-at's backward pass is bounded by its
    /// corridor and reads neither), so a daemon asked only depart-at keeps half of them.
    var builtTableBytes: Int {
        let stops = [towardsTable, awayTable].reduce(0) { $0 + ($1?.builtBytes ?? 0) }
        let cells = [towardsCellTable, awayCellTable].reduce(0) { $0 + ($1?.builtBytes ?? 0) }
        return stops + cells + (toLandmarkTable?.builtBytes ?? 0) + (fromLandmarkTable?.builtBytes ?? 0)
    }

    /// One direction's distance table (of stops or of cells), built under a lock by the first
    /// search that asks for it: building it (about 45 ms at Tampere) is left out of loading a
    /// timetable and paid by one query per engine (pace) and direction actually used.
    private final class DistanceTable<Entry: Sendable>: Sendable {
        private let built = Mutex<[Entry]?>(nil)
        private let build: @Sendable () -> [Entry]

        init(_ build: @escaping @Sendable () -> [Entry]) { self.build = build }

        var distances: [Entry] {
            built.withLock { built in
                if let built { return built }
                let made = build()
                built = made
                return made
            }
        }

        var builtBytes: Int { built.withLock { $0?.count ?? 0 } * MemoryLayout<Entry>.stride }
    }

    /// - parameter footpaths: the engine's outgoing footpath rows (seconds at its pace).
    /// - parameter cells: the stops' cells, for the bound past `tableStopLimit`.
    /// - parameter landmarks: the stops whose distances tighten the cells' bound.
    /// - parameter tableStopLimit: the most stops for which the distance tables are kept
    ///   (`tableStopLimit` but in tests, which lower it to read the cells on a small feed).
    init(patterns table: PatternTable, stopCount: Int, footpaths: FootHops, cells: StopCells,
         landmarks: StopLandmarks? = nil, tableStopLimit: Int = Self.tableStopLimit) {
        var edges: [(from: Int32, to: Int32, seconds: Int32)] = []
        var usable = true
        for pattern in table.patterns where pattern.stopCount > 1 && pattern.tripCount > 0 {
            let n = Int(pattern.stopCount), stopsBase = Int(pattern.stopsStart), timesBase = Int(pattern.timesStart)
            for i in 0..<(n - 1) {
                var least = Int32.max
                for trip in 0..<Int(pattern.tripCount) {
                    let base = timesBase + trip * n
                    // Riding from i to j > i takes arrival(j) - departure(i): the first step from a
                    // departure, the others from arrival to arrival, so dwells need not be positive.
                    let step = min(table.arrivals[base + i + 1] - table.departures[base + i],
                                   table.arrivals[base + i + 1] - table.arrivals[base + i])
                    least = min(least, step)
                }
                if least < 0 { usable = false }
                edges.append((table.stops[stopsBase + i], table.stops[stopsBase + i + 1], max(0, least)))
            }
        }
        for s in 0..<stopCount {
            for k in Int(footpaths.start[s])..<Int(footpaths.start[s + 1]) {
                edges.append((Int32(s), footpaths.hops[k].stop, footpaths.hops[k].seconds))
            }
        }
        edges.sort { ($0.from, $0.to, $0.seconds) < ($1.from, $1.to, $1.seconds) }
        var kept: [(from: Int32, to: Int32, seconds: Int32)] = []
        kept.reserveCapacity(edges.count)
        for e in edges where kept.last.map({ $0.from != e.from || $0.to != e.to }) ?? true { kept.append(e) }
        kept = Self.leavingOutDetours(kept, stopCount: stopCount)
        let outgoing = Self.rows(kept, stopCount: stopCount, row: \.from, other: \.to)
        let incoming = Self.rows(kept, stopCount: stopCount, row: \.to, other: \.from)
        self.outgoing = outgoing
        self.incoming = incoming
        self.usable = usable
        let keepsTables = usable && stopCount <= tableStopLimit
        towardsTable = keepsTables ? DistanceTable { Self.table(incoming, stopCount: stopCount) } : nil
        awayTable = keepsTables ? DistanceTable { Self.table(outgoing, stopCount: stopCount) } : nil
        self.cells = cells
        // Kept at any size (built only if read): an engine told not to read the stops' table
        // reads the cells' (tests).
        towardsCellTable = usable ? DistanceTable { Self.cellTable(incoming, cells: cells) } : nil
        awayCellTable = usable ? DistanceTable { Self.cellTable(outgoing, cells: cells) } : nil
        self.landmarks = usable ? landmarks : nil
        toLandmarkTable = self.landmarks.map { landmarks in DistanceTable { landmarks.distances(incoming, reverse: outgoing) } }
        fromLandmarkTable = self.landmarks.map { landmarks in DistanceTable { landmarks.distances(outgoing, reverse: incoming) } }
    }

    /// One direction's least distances between cells: row `d` by one search from all of cell
    /// `d`'s stops at once along `rows` (so each stop gets its distance to, or from, the nearest
    /// of them), then per cell the least over its stops. The searches cover the whole network
    /// within `radiusCap` of each cell: cells · n, where the stops' table is n · n.
    fileprivate static func cellTable(_ rows: FootHops, cells: StopCells) -> [Int16] {
        let n = cells.cellOf.count, m = cells.count
        var table = [Int16](repeating: Int16(radiusCap), count: m * m)
        let closeness = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, n))
        closeness.initialize(repeating: 0, count: max(1, n))
        let settled = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, n))
        let buckets = UnsafeMutablePointer<Int32>.allocate(capacity: radiusCap)
        buckets.initialize(repeating: -1, count: radiusCap)
        let entries = UnsafeMutablePointer<SIMD2<Int32>>.allocate(capacity: n + rows.hops.count)
        defer { closeness.deallocate(); settled.deallocate(); buckets.deallocate(); entries.deallocate() }
        rows.withBuffers { rows in
            for d in 0..<m {
                let from = (Int(cells.memberStart[d])..<Int(cells.memberStart[d + 1])).map {
                    Raptor.Endpoint(stop: cells.members[$0], seconds: 0)
                }
                let reached = fill(closeness, settled: settled, from: from, radius: radiusCap, rows: rows, buckets: buckets,
                                   entries: entries)
                for k in 0..<reached {
                    let s = Int(settled[k]), c = d * m + Int(cells.cellOf[s])
                    table[c] = min(table[c], Int16(truncatingIfNeeded: Int32(radiusCap) - closeness[s]))
                    closeness[s] = 0
                }
            }
        }
        return table
    }

    /// One direction's distances between every two stops in steps (`tableStepShift`, rounded
    /// down, at most `tableMaxSteps`): row `e` (`e * n ..< (e + 1) * n`) by one search from `e`
    /// (`incoming` rows give each stop's distance to `e`, `outgoing` rows its distance from `e`).
    fileprivate static func table(_ rows: FootHops, stopCount n: Int) -> [UInt8] {
        var table = [UInt8](repeating: 0, count: n * n)
        table.withUnsafeMutableBufferPointer { table in
            searchFromEachStop(rows, stopCount: n) { e, seconds in
                let row = table.baseAddress! + e * n
                for s in 0..<n { row[s] = UInt8(min(Int32(tableMaxSteps), seconds(s) >> Int32(tableStepShift))) }
            }
        }
        return table
    }

    /// The same distances in seconds (each capped at `radiusCap`), 16 bits each: what the table's
    /// steps round down (tests compare bounds with them).
    static func exactDistances(_ rows: FootHops, stopCount n: Int) -> [Int16] {
        var table = [Int16](repeating: 0, count: n * n)
        table.withUnsafeMutableBufferPointer { table in
            searchFromEachStop(rows, stopCount: n) { e, seconds in
                let row = table.baseAddress! + e * n
                for s in 0..<n { row[s] = Int16(truncatingIfNeeded: seconds(s)) }
            }
        }
        return table
    }

    /// One search (`fill`) from each stop `e` along `rows`, in stop order; `write` is given `e`
    /// and each stop's distance from it in seconds (`radiusCap` where not reached).
    private static func searchFromEachStop(_ rows: FootHops, stopCount n: Int, _ write: (Int, (Int) -> Int32) -> Void) {
        let closeness = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, n))
        closeness.initialize(repeating: 0, count: max(1, n))
        let settled = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, n))
        let buckets = UnsafeMutablePointer<Int32>.allocate(capacity: radiusCap)
        buckets.initialize(repeating: -1, count: radiusCap)
        let entries = UnsafeMutablePointer<SIMD2<Int32>>.allocate(capacity: 1 + rows.hops.count)
        defer { closeness.deallocate(); settled.deallocate(); buckets.deallocate(); entries.deallocate() }
        rows.withBuffers { rows in
            for e in 0..<n {
                let reached = fill(closeness, settled: settled, from: [Raptor.Endpoint(stop: Int32(e), seconds: 0)], radius: radiusCap,
                                   rows: rows, buckets: buckets, entries: entries)
                write(e) { Int32(radiusCap) - closeness[$0] }
                for k in 0..<reached { closeness[Int(settled[k])] = 0 }
            }
        }
    }

    /// The edges less those that two others beat strictly (a footpath along a line that a ride
    /// covers sooner, say): the search visits fewer, and its distances stay the same (each edge
    /// left out has a strictly shorter path of strictly shorter edges, so some path of kept
    /// edges is as short). `edges` are sorted by `from`.
    private static func leavingOutDetours(_ edges: [(from: Int32, to: Int32, seconds: Int32)],
                                          stopCount: Int) -> [(from: Int32, to: Int32, seconds: Int32)] {
        var start = [Int](repeating: 0, count: stopCount + 1)
        for e in edges { start[Int(e.from) + 1] += 1 }
        for s in 0..<stopCount { start[s + 1] += start[s] }
        var direct = [Int](repeating: -1, count: stopCount)  // while at u: its edge to each stop
        var beaten = [Bool](repeating: false, count: edges.count)
        for u in 0..<stopCount {
            for k in start[u]..<start[u + 1] { direct[Int(edges[k].to)] = k }
            for k in start[u]..<start[u + 1] where Int(edges[k].to) != u {
                let x = Int(edges[k].to)
                for k2 in start[x]..<start[x + 1] {
                    let v = Int(edges[k2].to), d = direct[v]
                    if d >= 0 && v != x && v != u && edges[k].seconds + edges[k2].seconds < edges[d].seconds { beaten[d] = true }
                }
            }
            for k in start[u]..<start[u + 1] { direct[Int(edges[k].to)] = -1 }
        }
        return edges.indices.filter { !beaten[$0] }.map { edges[$0] }
    }

    private static func rows(_ edges: [(from: Int32, to: Int32, seconds: Int32)], stopCount: Int,
                             row: KeyPath<(from: Int32, to: Int32, seconds: Int32), Int32>,
                             other: KeyPath<(from: Int32, to: Int32, seconds: Int32), Int32>) -> FootHops {
        var start = [Int32](repeating: 0, count: stopCount + 1)
        for e in edges { start[Int(e[keyPath: row]) + 1] += 1 }
        for s in 0..<stopCount { start[s + 1] += start[s] }
        var fill = Array(start.dropLast())
        var neighbours = [Int32](repeating: 0, count: edges.count), seconds = neighbours
        for e in edges {
            let s = Int(e[keyPath: row])
            neighbours[Int(fill[s])] = e[keyPath: other]
            seconds[Int(fill[s])] = e.seconds
            fill[s] += 1
        }
        return FootHops(start: start, neighbours: neighbours, seconds: seconds)
    }

    /// The largest distance the search settles: beyond it a stop's bound is this (3 hours).
    static let radiusCap = 3 * 3600

    /// Sets, for every stop nearer than `radius` (at most `radiusCap`) to the nearest endpoint
    /// (its walk included), its closeness to `far - d` (`RemainingBound`), `far` being that radius
    /// (or `encodedFar`, when the bound's radius is larger than the radius searched) and `d` a lower
    /// bound on the seconds from the stop to the endpoints; a stop as far or farther keeps its
    /// closeness (0 on entry: its bound reads `far`). Dijkstra's search over `rows` from
    /// the endpoints, settling only the stops nearer than the radius, with a queue of one bucket
    /// per second (Dial's): the distances are whole seconds below a few thousand, so a stop is
    /// queued and taken in a few instructions, where a binary heap cost most of the search.
    ///
    /// Its work is the stops it reaches, not the network: `closeness` must be 0 everywhere (or,
    /// with `encodedFar`, at most `encodedFar - radius`: a stop already given a bound of at least
    /// the radius) and `buckets` -1 everywhere on entry; it leaves the buckets so, and lists in
    /// `settled` each stop whose closeness it changed from 0 (once each), for the caller to clear.
    /// - parameter settled: room for `stopCount` stops.
    /// - parameter buckets: room for `radiusCap` entries.
    /// - parameter entries: room for `endpoints.count + rows.hops.count` entries.
    /// - returns: how many stops `settled` lists.
    @inline(never)
    static func fill(_ closeness: UnsafeMutablePointer<Int32>, settled: UnsafeMutablePointer<Int32>, from endpoints: [Raptor.Endpoint],
                     radius: Int, encodedAs encodedFar: Int? = nil, rows: FootHopBuffers, buckets: UnsafeMutablePointer<Int32>,
                     entries: UnsafeMutablePointer<SIMD2<Int32>>) -> Int {
        // Specialised: without `encodedFar` a relaxation tests one time, as the table's build
        // (a search from every stop) wants.
        if let encodedFar {
            return search(closeness, settled: settled, from: endpoints, radius: radius, encodedAs: encodedFar, rows: rows,
                          buckets: buckets, entries: entries, encoded: true, until: nil)
        }
        return search(closeness, settled: settled, from: endpoints, radius: radius, encodedAs: radius, rows: rows,
                      buckets: buckets, entries: entries, encoded: false, until: nil)
    }

    /// Which stops a search may stop at once it has settled them all (`fill(…untilSettled:)`):
    /// those of `cell`, `count` of them.
    struct SettledCell {
        let cellOf: UnsafeBufferPointer<Int32>
        let cell: Int32
        let count: Int
    }

    /// As `fill(_:settled:from:radius:rows:buckets:entries:)` (radius `radiusCap`), but the search
    /// stops once it has settled the `count` stops of `wanted.cell`: their distances are final
    /// then (it settles stops in order of distance), where those of the other stops it listed
    /// may not be (the caller reads the cell's alone, and clears all). A landmark's search for
    /// its region's stops (`StopLandmarks.distances`) so ends at the region's farthest stop, not
    /// at the cap; with `count` more than the stops it reaches within the cap, it goes to the cap.
    @inline(never)
    static func fill(_ closeness: UnsafeMutablePointer<Int32>, settled: UnsafeMutablePointer<Int32>, from endpoints: [Raptor.Endpoint],
                     rows: FootHopBuffers, buckets: UnsafeMutablePointer<Int32>, entries: UnsafeMutablePointer<SIMD2<Int32>>,
                     untilSettled wanted: SettledCell) -> Int {
        search(closeness, settled: settled, from: endpoints, radius: radiusCap, encodedAs: radiusCap, rows: rows,
               buckets: buckets, entries: entries, encoded: false, until: wanted)
    }

    @inline(__always)
    private static func search(_ closeness: UnsafeMutablePointer<Int32>, settled: UnsafeMutablePointer<Int32>,
                               from endpoints: [Raptor.Endpoint], radius: Int, encodedAs encodedFar: Int, rows: FootHopBuffers,
                               buckets: UnsafeMutablePointer<Int32>, entries: UnsafeMutablePointer<SIMD2<Int32>>,
                               encoded: Bool, until wanted: SettledCell?) -> Int {
        let limit = min(radius, radiusCap), stop = Int32(truncatingIfNeeded: limit)
        let far = encoded ? Int32(truncatingIfNeeded: max(limit, encodedFar)) : stop
        // Each bucket is a list through `entries`: (stop, next entry); a stop improved again is
        // queued again, and its older entry is skipped when taken. `pending` counts the entries
        // not yet taken: with none, the farther buckets are all empty and the search stops.
        var count: Int32 = 0, pending = 0, reached = 0
        for e in endpoints where e.seconds < limit && Int32(e.seconds) < far &- closeness[Int(e.stop)] {
            if closeness[Int(e.stop)] == 0 {
                settled[reached] = e.stop
                reached &+= 1
            }
            closeness[Int(e.stop)] = far &- Int32(e.seconds)
            entries[Int(count)] = SIMD2(e.stop, buckets[e.seconds])
            buckets[e.seconds] = count
            count &+= 1
            pending &+= 1
        }
        var d: Int32 = 0, unsettled = wanted?.count ?? 0
        search: while d < stop && pending > 0 {
            var k = buckets[Int(d)]
            buckets[Int(d)] = -1
            while k >= 0 {
                let entry = entries[Int(k)]
                k = entry[1]
                pending &-= 1
                let v = Int(entry[0])
                if far &- closeness[v] != d { continue }  // improved since it was queued
                if let wanted, wanted.cellOf[v] == wanted.cell {
                    unsettled &-= 1
                    if unsettled == 0 {
                        for b in Int(d)..<Int(stop) { buckets[b] = -1 }  // the entries left queued
                        break search
                    }
                }
                for h in Int(rows.start[v])..<Int(rows.start[v &+ 1]) {
                    let hop = rows.hops[h]
                    let r = d &+ hop.seconds, q = Int(hop.stop), c = closeness[q]
                    // Unencoded, `far` is the radius and closeness is never negative: one test.
                    if (!encoded || r < stop) && r < far &- c {
                        if c == 0 {
                            settled[reached] = hop.stop
                            reached &+= 1
                        }
                        closeness[q] = far &- r
                        if r == d {  // a walk or ride of no seconds: taken in this bucket
                            entries[Int(count)] = SIMD2(hop.stop, k)
                            k = count
                        } else {
                            entries[Int(count)] = SIMD2(hop.stop, buckets[Int(r)])
                            buckets[Int(r)] = count
                        }
                        count &+= 1
                        pending &+= 1
                    }
                }
            }
            d &+= 1
        }
        // Only stops nearer than the radius were reached, each settled at its distance; the
        // others kept closeness 0.
        return reached
    }

    /// Lower bounds for a graph too large for the table of stops: a search from the endpoints
    /// (as `fill(_:settled:from:radius:rows:buckets:entries:)`) only to `exactRadius` (`ρ`, at
    /// most the radius `r`), whose stops get their distance `d`; every other stop is at least `ρ`
    /// from the endpoints, and at least its cell's least distance `c` to their cells (`cellTable`,
    /// `towardsCells` or `awayCells`, each endpoint's walk added, read as the table of stops is),
    /// so it gets `max(ρ, c)`, or `r` (closeness left 0) where that is `r` or more. Each is a lower
    /// bound on its distance, so the larger is one too. The work is the search's, near the
    /// endpoints, a minimum over a row of cells per endpoint, and a write per stop of the cells
    /// nearer than `r` (in cell order), where a search of the whole radius relaxes every hop
    /// of every stop within it. Closeness, settled list and queue as the search's (the stops
    /// whose closeness it set listed once each, for the caller to clear). With `landmarks`, a
    /// stop so written gets the larger of that and its landmarks' bound (another lower bound on
    /// the same distance), or keeps `r` where that is `r` or more.
    ///
    /// With `reachedFrom` (a depart-at search's start: its access stops and walks), a cell the
    /// search cannot reach in time is not written either: one whose least distance from the
    /// start's cells (the same table, read the other way) plus `max(ρ, c)` is `r` or more. A
    /// label there comes no earlier than the search's time plus the first, and reaches the target
    /// no earlier than that plus the second, so the rounds drop it with `max(ρ, c)` as with `r`
    /// (`r` is the time the target was first reached): the same labels, for fewer writes (a local
    /// query in a country no longer bounds the next cities' stops the train brings within `r`).
    /// Not for a search whose bound is another's corridor slack (`DeadlineCorridor`), where a
    /// larger bound would allow more.
    /// - returns: how many stops `settled` lists.
    func fill(_ closeness: UnsafeMutablePointer<Int32>, settled: UnsafeMutablePointer<Int32>, from endpoints: [Raptor.Endpoint],
              radius: Int, exactRadius: Int, rows: FootHopBuffers, cellTable: UnsafeBufferPointer<Int16>,
              buckets: UnsafeMutablePointer<Int32>, entries: UnsafeMutablePointer<SIMD2<Int32>>,
              reachedFrom start: [Raptor.Endpoint] = [],
              landmarks landmarkBound: StopLandmarks.Bound? = nil) -> Int {
        // Without a table of cells (none is kept for an unusable graph), the whole radius exactly.
        let far = min(radius, Self.radiusCap), exact = cellTable.isEmpty ? far : max(0, min(exactRadius, far))
        var count = 0
        if exact > 0 {
            count = Self.fill(closeness, settled: settled, from: endpoints, radius: exact, encodedAs: far, rows: rows,
                              buckets: buckets, entries: entries)
        }
        guard exact < far else { return count }
        let m = cells.count
        cells.cellOf.withUnsafeBufferPointer { cellOf in
            cells.memberStart.withUnsafeBufferPointer { memberStart in
                cells.members.withUnsafeBufferPointer { members in
                    withUnsafeTemporaryAllocation(of: Int16.self, capacity: m) { least in
                        let least = least.baseAddress!, far16 = Int16(truncatingIfNeeded: far)
                        least.initialize(repeating: far16, count: m)
                        /// The cells of `ends` walked in under `limit`, each with its least walk: a
                        /// target's or start's few dozen stops within a walk lie in a few cells.
                        func leastWalkByCell(_ ends: [Raptor.Endpoint], under limit: Int) -> [(cell: Int, walk: Int)] {
                            var byCell: [(cell: Int, walk: Int)] = []
                            for e in ends where e.seconds < limit {
                                let cell = Int(cellOf[Int(e.stop)])
                                if let k = byCell.firstIndex(where: { $0.cell == cell }) {
                                    byCell[k].walk = min(byCell[k].walk, e.seconds)
                                } else {
                                    byCell.append((cell, e.seconds))
                                }
                            }
                            return byCell
                        }
                        // One row (m reads) per cell of the endpoints, not per endpoint.
                        for (cell, walk) in leastWalkByCell(endpoints, under: far) {
                            let row = cellTable.baseAddress! + cell * m, walk = Int16(truncatingIfNeeded: walk)
                            for c in 0..<m { least[c] = min(least[c], walk &+ row[c]) }
                        }
                        let floor = Int16(truncatingIfNeeded: exact)
                        // A start walked in `r` or more reaches nothing before the target's time.
                        let startCells = leastWalkByCell(start, under: radius)
                        for c in 0..<m where least[c] < far16 {
                            if !start.isEmpty {
                                // Entry `c * m + a`: from cell a to cell c (`towardsCells`; `awayCells` the other way).
                                var fromStart = Int.max
                                for (cell, walk) in startCells { fromStart = min(fromStart, walk + Int(cellTable[c * m + cell])) }
                                if fromStart >= radius - Int(max(floor, least[c])) { continue }
                            }
                            let cellFloor = max(floor, least[c])
                            for k in Int(memberStart[c])..<Int(memberStart[c &+ 1]) {
                                let s = members[k]
                                // A stop the search settled keeps its distance (less than `ρ`); the
                                // landmarks may bound another one to `r` or more (closeness left 0).
                                guard closeness[Int(s)] == 0 else { continue }
                                let bound = max(cellFloor, landmarkBound?.seconds(from: Int(s)) ?? 0)
                                if bound < far16 {
                                    closeness[Int(s)] = Int32(truncatingIfNeeded: far) &- Int32(bound)
                                    settled[count] = s
                                    count &+= 1
                                }
                            }
                        }
                    }
                }
            }
        }
        return count
    }

    /// The same bounds as `fill(_:settled:from:radius:rows:buckets:entries:)` (at most 31 s
    /// less), read from a table of distances in steps (`towards` or `away`): each stop's least
    /// walk plus distance over the endpoints, or `far`. A distance capped at `tableMaxSteps` is
    /// read as that many steps, a lower bound still. It writes every stop's closeness (the caller
    /// clears them all).
    @inline(never)
    static func fill(_ closeness: UnsafeMutablePointer<Int32>, stopCount n: Int, from endpoints: [Raptor.Endpoint], radius: Int,
                     table: UnsafeBufferPointer<UInt8>) {
        // In 16 bits (a walk below `radiusCap` and at most 255 steps add up to under 2^15), a
        // byte of the table widened and shifted, eight stops to an instruction.
        fill(closeness, stopCount: n, from: endpoints, radius: radius, table: table) { Int16($0) &<< tableStepShift }
    }

    /// The same from distances in seconds (`exactDistances`): exactly the search's bounds. A
    /// distance capped at `radiusCap` is at least `far`, so it gives `far` there too.
    static func fill(_ closeness: UnsafeMutablePointer<Int32>, stopCount n: Int, from endpoints: [Raptor.Endpoint], radius: Int,
                     table: UnsafeBufferPointer<Int16>) {
        fill(closeness, stopCount: n, from: endpoints, radius: radius, table: table) { $0 }
    }

    /// Both of the above: `seconds` reads an entry of the table as seconds.
    @inline(__always)
    private static func fill<Entry>(_ closeness: UnsafeMutablePointer<Int32>, stopCount n: Int, from endpoints: [Raptor.Endpoint],
                                    radius: Int, table: UnsafeBufferPointer<Entry>, seconds: (Entry) -> Int16) {
        let limit = min(radius, radiusCap)
        withUnsafeTemporaryAllocation(of: Int16.self, capacity: n) { least in
            let least = least.baseAddress!
            least.initialize(repeating: Int16(truncatingIfNeeded: limit), count: n)
            for e in endpoints where e.seconds < limit {
                let row = table.baseAddress! + Int(e.stop) * n, walk = Int16(truncatingIfNeeded: e.seconds)
                for s in 0..<n { least[s] = min(least[s], walk &+ seconds(row[s])) }
            }
            let far = Int32(truncatingIfNeeded: limit)
            for s in 0..<n { closeness[s] = far &- Int32(least[s]) }
        }
    }
}
