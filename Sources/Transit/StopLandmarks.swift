import Foundation

/// Landmarks for the remaining-time bound past the table of stops (ALT: A*, landmarks and the
/// triangle inequality). For any stops `s`, `e` and landmark `L`, `d(s, e) ≥ d(s, L) − d(e, L)`
/// and `d(s, e) ≥ d(L, e) − d(L, s)` over `RemainingTimeGraph`'s edges, so the largest of these
/// over some landmarks is a lower bound on `d(s, e)`: exact for a stop whose path to `e` passes
/// `L`, and close for a target lying between the stop and a landmark beyond it.
///
/// The stops are grouped into regions of at most `regionStops` nearby stops (`StopCells`' k-d
/// split: about a city each), and each region has `perRegion` landmarks of its own, spread over
/// it (`spreadOut`). A stop keeps its distances to and from its own region's landmarks only:
/// 4 bytes a stop and landmark, `perRegion` of them whatever the number of regions, so memory
/// is linear in the stops (32 bytes a stop with 8). A search whose target stops lie in one
/// region bounds that region's stops with its landmarks (a local query's stops are mostly
/// there); the other stops keep the cells' bound.
///
///     let landmarks = StopLandmarks(latitudes: lats, longitudes: lons, served: served)
///     let toLandmarks = landmarks.distances(graph.incoming, reverse: graph.outgoing)  // the other way for from them
struct StopLandmarks: Sendable {
    /// A stop's distances to (or from) its region's landmarks, one to a lane. Eight: a query
    /// reads its region's lanes from memory, and 16 cost more there than their tighter bound
    /// saved (docs/transit.md, "Eight landmarks a region").
    typealias Lanes = SIMD8<Int16>

    /// A distance the landmark's search did not reach (beyond `RemainingTimeGraph.radiusCap`).
    static let unreached = Int16.max
    /// Most stops in a region: the table of stops' limit, so a city the size of one the table
    /// serves alone is one region or two.
    static let regionStops = RemainingTimeGraph.tableStopLimit
    /// Landmarks per region: one entry of lanes (`Lanes`) a stop.
    static let perRegion = Lanes.scalarCount

    /// The stops grouped into regions; a stop's distances are at its place in `regions.members`.
    let regions: StopCells
    /// Per region, its landmarks (`perRegion` each; -1 where a region has fewer served stops).
    let landmarks: [Int32]
    /// Per stop, its place in `regions.members`.
    let place: [Int32]

    /// - parameter served: per stop, whether a ride serves it (a landmark no ride reaches bounds nothing).
    init(latitudes: [Double], longitudes: [Double], served: [Bool], regionStops: Int = Self.regionStops) {
        let regions = StopCells(latitudes: latitudes, longitudes: longitudes, stopsPerCell: regionStops)
        var landmarks: [Int32] = []
        var place = [Int32](repeating: 0, count: latitudes.count)
        for g in 0..<regions.count {
            let members = regions.members[Int(regions.memberStart[g])..<Int(regions.memberStart[g + 1])]
            for (k, s) in zip(members.indices, members) { place[Int(s)] = Int32(k) }
            let chosen = Self.spreadOut(count: Self.perRegion, among: members.filter { served[Int($0)] },
                                        latitudes: latitudes, longitudes: longitudes)
            landmarks += chosen + [Int32](repeating: -1, count: Self.perRegion - chosen.count)
        }
        self.regions = regions
        self.landmarks = landmarks
        self.place = place
    }

    /// Up to `count` of `candidates` farthest apart on the map: first the one farthest from their
    /// centre, then each time the one farthest from every landmark so far, so they lie on the
    /// region's edges first (where the triangle bounds are tightest) and then spread over it.
    static func spreadOut(count: Int, among candidates: [Int32], latitudes: [Double], longitudes: [Double]) -> [Int32] {
        guard !candidates.isEmpty, count > 0 else { return [] }
        let centreLatitude = candidates.reduce(0) { $0 + latitudes[Int($1)] } / Double(candidates.count)
        let centreLongitude = candidates.reduce(0) { $0 + longitudes[Int($1)] } / Double(candidates.count)
        let squeeze = max(0.05, cos(centreLatitude * .pi / 180))  // degrees of longitude in comparable units
        func distance2(_ a: Int32, _ y: Double, _ x: Double) -> Double {
            let dy = latitudes[Int(a)] - y, dx = (longitudes[Int(a)] - x) * squeeze
            return dx * dx + dy * dy
        }
        // The first of equals wins: the same stops always give the same landmarks.
        var next = candidates[0], farthest = -1.0
        for s in candidates where distance2(s, centreLatitude, centreLongitude) > farthest {
            farthest = distance2(s, centreLatitude, centreLongitude)
            next = s
        }
        var nearest = [Double](repeating: .infinity, count: candidates.count)
        var chosen: [Int32] = []
        while chosen.count < min(count, candidates.count) {
            let placed = next
            chosen.append(placed)
            farthest = -1
            for (k, s) in candidates.enumerated() {
                nearest[k] = min(nearest[k], distance2(s, latitudes[Int(placed)], longitudes[Int(placed)]))
                if nearest[k] > farthest {
                    farthest = nearest[k]
                    next = s
                }
            }
            if farthest <= 0 { break }  // every candidate is at a landmark's place
        }
        return chosen
    }

    /// Every stop's distances to (`rows` the graph's `incoming`, `reverse` its `outgoing`) or from
    /// (the other way round) its region's landmarks: stop `s`'s at `table[place[s]]`, landmark `l`
    /// of its region in lane `l`; `unreached` past `RemainingTimeGraph.radiusCap` and for a missing
    /// landmark (which so bounds nothing). One search from each landmark, of which only its
    /// region's stops are kept: it stops once it has settled every stop of the region it can
    /// reach at all, at the region's farthest stop rather than the 3-hour cap (in the country a
    /// fifth less work: a city's farthest stops lie 1–2.8 hours out). Which those are is known exactly for a
    /// landmark that reaches its region's first landmark and is reached from it (the same
    /// strongly connected part: both reach the same stops), by two walks of the graph from that
    /// one; any other landmark searches to the cap.
    func distances(_ rows: FootHops, reverse: FootHops) -> [Lanes] {
        let n = place.count, cap = Int32(RemainingTimeGraph.radiusCap)
        var table = [Lanes](repeating: Lanes(repeating: Self.unreached), count: n)
        let closeness = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, n))
        closeness.initialize(repeating: 0, count: max(1, n))
        let settled = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, n))
        let buckets = UnsafeMutablePointer<Int32>.allocate(capacity: RemainingTimeGraph.radiusCap)
        buckets.initialize(repeating: -1, count: RemainingTimeGraph.radiusCap)
        let entries = UnsafeMutablePointer<SIMD2<Int32>>.allocate(capacity: 1 + rows.hops.count)
        defer { closeness.deallocate(); settled.deallocate(); buckets.deallocate(); entries.deallocate() }
        var reachedFromFirst = [Bool](), reachingFirst = [Bool](), regionReached = 0
        rows.withBuffers { rows in
            regions.cellOf.withUnsafeBufferPointer { cellOf in
                for (k, landmark) in landmarks.enumerated() where landmark >= 0 {
                    let region = Int32(k / Self.perRegion), l = k % Self.perRegion
                    if l == 0 {
                        reachedFromFirst = Self.reached(from: landmark, along: rows.start, rows.hops, stopCount: n)
                        reverse.withBuffers { reachingFirst = Self.reached(from: landmark, along: $0.start, $0.hops, stopCount: n) }
                        regionReached = (0..<n).count(where: { reachedFromFirst[$0] && cellOf[$0] == region })
                    }
                    let sameReach = reachedFromFirst[Int(landmark)] && reachingFirst[Int(landmark)]
                    let wanted = RemainingTimeGraph.SettledCell(cellOf: cellOf, cell: region, count: sameReach ? regionReached : n + 1)
                    let reached = RemainingTimeGraph.fill(closeness, settled: settled, from: [Raptor.Endpoint(stop: landmark, seconds: 0)],
                                                          rows: rows, buckets: buckets, entries: entries, untilSettled: wanted)
                    for i in 0..<reached {
                        let s = Int(settled[i])
                        if regions.cellOf[s] == region {
                            table[Int(place[s])][l] = Int16(truncatingIfNeeded: cap - closeness[s])
                        }
                        closeness[s] = 0
                    }
                }
            }
        }
        return table
    }

    /// Per stop, whether a walk of the graph along `hops` (rows from `start`) from `origin` reaches it.
    private static func reached(from origin: Int32, along start: UnsafeBufferPointer<Int32>, _ hops: UnsafeBufferPointer<FootHops.Hop>,
                                stopCount n: Int) -> [Bool] {
        var reached = [Bool](repeating: false, count: n), queue = [origin]
        reached[Int(origin)] = true
        while let v = queue.popLast() {
            for h in Int(start[Int(v)])..<Int(start[Int(v) + 1]) where !reached[Int(hops[h].stop)] {
                reached[Int(hops[h].stop)] = true
                queue.append(hops[h].stop)
            }
        }
        return reached
    }

    /// One search's lower bound from the landmarks on a stop's distance to its endpoints (a
    /// depart-at search's target; for an arrive-by search, from its origin), `ahead` and `behind`
    /// being the stops' distances to and from the landmarks (the other way round for arrive-by).
    /// With `w(e)` an endpoint's walk, per landmark: `ahead(s) − max over e of (ahead(e) − w(e))`
    /// and `min over e of (w(e) + behind(e)) − behind(s)`, each at most `d(s, e) + w(e)` for every
    /// `e`. An unreached `ahead(e)` makes the first term negative (it is unknown, not small), an
    /// unreached `behind(s)` the second, and an unreached `ahead(s)` or `behind(e)` counts as the
    /// cap (its distance is at least that): all in 16 bits, as a walk under `radiusCap` and a
    /// capped distance add up to under 2^15. Only for endpoints in one region, and the stops of
    /// that region (its landmarks' distances are kept for those only).
    struct Bound {
        private let ahead: UnsafeBufferPointer<Lanes>, behind: UnsafeBufferPointer<Lanes>
        private let place: UnsafeBufferPointer<Int32>
        /// The places of the endpoints' region's stops.
        private let first: Int32, end: Int32
        /// Per landmark: `max over e of (ahead(e) − w(e))` and `min over e of (w(e) + behind(e))`.
        private var aheadOffset = Lanes(repeating: .min), behindOffset = Lanes(repeating: .max)
        private static let cap = Lanes(repeating: Int16(RemainingTimeGraph.radiusCap))

        /// Nil without an endpoint walked in under `limit` (nothing to bound), or with such
        /// endpoints in more than one region.
        /// - parameter place: the landmarks' `place`, read while the bound is.
        init?(_ landmarks: StopLandmarks, place: UnsafeBufferPointer<Int32>, ahead: UnsafeBufferPointer<Lanes>,
              behind: UnsafeBufferPointer<Lanes>, endpoints: [Raptor.Endpoint], under limit: Int) {
            let near = endpoints.filter { $0.seconds < limit }
            guard let region = near.first.map({ landmarks.regions.cellOf[Int($0.stop)] }),
                  near.allSatisfy({ landmarks.regions.cellOf[Int($0.stop)] == region }),
                  ahead.count == place.count else { return nil }
            self.ahead = ahead
            self.behind = behind
            self.place = place
            first = landmarks.regions.memberStart[Int(region)]
            end = landmarks.regions.memberStart[Int(region) + 1]
            for e in near {
                let walk = Lanes(repeating: Int16(truncatingIfNeeded: e.seconds)), p = Int(place[Int(e.stop)])
                aheadOffset = pointwiseMax(aheadOffset, ahead[p] &- walk)
                behindOffset = pointwiseMin(behindOffset, walk &+ pointwiseMin(behind[p], Self.cap))
            }
        }

        /// The largest of the landmarks' bounds for stop `s`; 0 for a stop of another region.
        @inline(__always) func seconds(from s: Int) -> Int16 {
            let p = place[s]
            guard p >= first && p < end else { return 0 }
            let viaAhead = pointwiseMin(ahead[Int(p)], Self.cap) &- aheadOffset, viaBehind = behindOffset &- behind[Int(p)]
            return max(0, pointwiseMax(viaAhead, viaBehind).max())
        }
    }
}
