import Foundation
import Synchronization

/// A static graph over the stops whose shortest paths are lower bounds on the time a search
/// still needs from a stop to its target: an edge between each two consecutive stops of any
/// pattern, weighted by the least time any of its trips takes from the one to the next (less
/// than any ride over it, with its dwell), and the footpaths at an engine's pace. Boarding
/// rules, changes and service days are left out, which only makes the bound lower.
///
/// A depart-at search reads the rows in `incoming` (per stop, the stops with an edge into it)
/// from its target stops; an arrive-by search the rows in `outgoing` from the origin's stops.
///
///     let graph = RemainingTimeGraph(patterns: timetable.patternTable, stopCount: n, footpaths: hops)
///     // rows: graph.incoming for depart-at, graph.outgoing for arrive-by
struct RemainingTimeGraph: Sendable {
    let incoming: FootHops
    let outgoing: FootHops
    /// False when a trip's times go back from one stop to the next (an import skips such trips;
    /// a timetable built otherwise might have one): then no bound is used.
    let usable: Bool
    /// For a timetable of at most `tableStopLimit` stops, every stop's distances, computed once
    /// when a search first needs them (`distances`). Nil above the limit (a search per query).
    private let table: DistanceTable?

    /// The most stops for which the distances are kept: they take 4·n² bytes (9 MB at 1,500
    /// stops) and n searches to build, once per engine.
    static let tableStopLimit = 1_500

    /// Every stop's distances (each capped at `radiusCap`), built on first use: `towards[e * n + s]`
    /// from `s` to `e` (what a depart-at search reads for its target stop `e`) and
    /// `away[e * n + s]` from `e` to `s` (arrive-by). Nil when the graph keeps none.
    var distances: (towards: [Int16], away: [Int16])? { table?.distances }

    /// The distance table, built under a lock by the first search that asks for it: building
    /// it (about 45 ms at Tampere) is left out of loading a timetable and paid by one query
    /// per engine (pace) actually used.
    private final class DistanceTable: Sendable {
        private let built = Mutex<(towards: [Int16], away: [Int16])?>(nil)
        private let outgoing: FootHops, stopCount: Int

        init(outgoing: FootHops, stopCount: Int) {
            self.outgoing = outgoing
            self.stopCount = stopCount
        }

        var distances: (towards: [Int16], away: [Int16]) {
            built.withLock { built in
                if let built { return built }
                let made = RemainingTimeGraph.table(outgoing, stopCount: stopCount)
                built = made
                return made
            }
        }
    }

    /// - parameter footpaths: the engine's outgoing footpath rows (seconds at its pace).
    init(patterns table: PatternTable, stopCount: Int, footpaths: FootHops) {
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
        outgoing = Self.rows(kept, stopCount: stopCount, row: \.from, other: \.to)
        incoming = Self.rows(kept, stopCount: stopCount, row: \.to, other: \.from)
        self.usable = usable
        self.table = usable && stopCount <= Self.tableStopLimit ? DistanceTable(outgoing: outgoing, stopCount: stopCount) : nil
    }

    /// The distances between every two stops, by one search (`fill`) from each along `outgoing`.
    fileprivate static func table(_ outgoing: FootHops, stopCount n: Int) -> (towards: [Int16], away: [Int16]) {
        var towards = [Int16](repeating: 0, count: n * n), away = towards
        let closeness = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, n))
        closeness.initialize(repeating: 0, count: max(1, n))
        let settled = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, n))
        let buckets = UnsafeMutablePointer<Int32>.allocate(capacity: radiusCap)
        buckets.initialize(repeating: -1, count: radiusCap)
        let entries = UnsafeMutablePointer<SIMD2<Int32>>.allocate(capacity: 1 + outgoing.hops.count)
        defer { closeness.deallocate(); settled.deallocate(); buckets.deallocate(); entries.deallocate() }
        outgoing.withBuffers { rows in
            for e in 0..<n {
                let reached = fill(closeness, settled: settled, from: [Raptor.Endpoint(stop: Int32(e), seconds: 0)], radius: radiusCap,
                                   rows: rows, buckets: buckets, entries: entries)
                for s in 0..<n {
                    let d = Int16(truncatingIfNeeded: Int32(radiusCap) - closeness[s])
                    away[e * n + s] = d
                    towards[s * n + e] = d
                }
                for k in 0..<reached { closeness[Int(settled[k])] = 0 }
            }
        }
        return (towards, away)
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
    /// and `d` a lower bound on the seconds from the stop to the endpoints; a stop as far or
    /// farther keeps closeness 0, so its bound reads `far`. Dijkstra's search over `rows` from
    /// the endpoints, settling only the stops nearer than the radius, with a queue of one bucket
    /// per second (Dial's): the distances are whole seconds below a few thousand, so a stop is
    /// queued and taken in a few instructions, where a binary heap cost most of the search.
    ///
    /// Its work is the stops it reaches, not the network: `closeness` must be 0 everywhere and
    /// `buckets` -1 everywhere on entry; it leaves the buckets so, and lists in `settled` each
    /// stop whose closeness it set (once each), for the caller to clear.
    /// - parameter settled: room for `stopCount` stops.
    /// - parameter buckets: room for `radiusCap` entries.
    /// - parameter entries: room for `endpoints.count + rows.hops.count` entries.
    /// - returns: how many stops `settled` lists.
    @inline(never)
    static func fill(_ closeness: UnsafeMutablePointer<Int32>, settled: UnsafeMutablePointer<Int32>, from endpoints: [Raptor.Endpoint],
                     radius: Int, rows: FootHopBuffers, buckets: UnsafeMutablePointer<Int32>,
                     entries: UnsafeMutablePointer<SIMD2<Int32>>) -> Int {
        let limit = min(radius, radiusCap), far = Int32(truncatingIfNeeded: limit)
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
        var d: Int32 = 0
        while d < far && pending > 0 {
            var k = buckets[Int(d)]
            buckets[Int(d)] = -1
            while k >= 0 {
                let entry = entries[Int(k)]
                k = entry[1]
                pending &-= 1
                let v = Int(entry[0])
                if far &- closeness[v] != d { continue }  // improved since it was queued
                for h in Int(rows.start[v])..<Int(rows.start[v &+ 1]) {
                    let hop = rows.hops[h]
                    let r = d &+ hop.seconds, q = Int(hop.stop), c = closeness[q]
                    if r < far &- c {
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

    /// The same bounds as `fill(_:settled:from:radius:rows:buckets:entries:)`, read from a
    /// table of distances (`distances`): each stop's least walk plus distance over the
    /// endpoints, or `far`. A distance capped at `radiusCap` is at least `far`, so it gives `far`
    /// there too. It writes every stop's closeness (the caller clears them all).
    @inline(never)
    static func fill(_ closeness: UnsafeMutablePointer<Int32>, stopCount n: Int, from endpoints: [Raptor.Endpoint], radius: Int,
                     table: UnsafeBufferPointer<Int16>) {
        let limit = min(radius, radiusCap)
        // In 16 bits (a walk and a distance below `radiusCap` each add up to under 2^15), eight
        // stops to an instruction.
        withUnsafeTemporaryAllocation(of: Int16.self, capacity: n) { least in
            let least = least.baseAddress!
            least.initialize(repeating: Int16(truncatingIfNeeded: limit), count: n)
            for e in endpoints where e.seconds < limit {
                let row = table.baseAddress! + Int(e.stop) * n, walk = Int16(truncatingIfNeeded: e.seconds)
                for s in 0..<n { least[s] = min(least[s], walk &+ row[s]) }
            }
            let far = Int32(truncatingIfNeeded: limit)
            for s in 0..<n { closeness[s] = far &- Int32(least[s]) }
        }
    }
}
