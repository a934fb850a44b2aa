import Foundation

/// Landmarks for the remaining-time bound past the table of stops (ALT: A*, landmarks and the
/// triangle inequality): a few stops spread over the map, and every stop's distance to and from
/// each over `RemainingTimeGraph`'s edges. For any stops `s`, `e` and landmark `L`,
/// `d(s, e) ≥ d(s, L) − d(e, L)` and `d(s, e) ≥ d(L, e) − d(L, s)`, so the largest of these over
/// the landmarks is a lower bound on `d(s, e)`: exact for a stop whose path to `e` passes `L`,
/// and close for a target lying between the stop and a landmark beyond it. Memory is linear in
/// the stops (4 bytes a stop and landmark), where the table of stops is quadratic.
///
/// Chosen by `spreadOut` (farthest apart on the map, a few per city in a country); their
/// distances are built by the graph on first use (`RemainingTimeGraph.landmarkDistances`).
enum StopLandmarks {
    /// Landmarks read eight at a time: a stop's distances are rows of `SIMD8<Int16>`.
    typealias Lanes = SIMD8<Int16>

    /// A distance the landmark's search did not reach (beyond `RemainingTimeGraph.radiusCap`).
    static let unreached = Int16.max

    /// The landmarks for `stopCount` stops: one per 256 stops (about four per city of Tampere's
    /// 1,141), between 8 and 64, in whole rows of eight.
    static func defaultCount(stopCount: Int) -> Int {
        min(64, max(8, (stopCount / 256 + 7) / 8 * 8))
    }

    /// Up to `count` stops farthest apart on the map among those `served` (a landmark no ride
    /// reaches bounds nothing): first the served stop farthest from their centre, then each
    /// time the one farthest from every landmark so far, so they lie on the network's edges
    /// first (where the triangle bounds are tightest) and then spread over it.
    static func spreadOut(count: Int, latitudes: [Double], longitudes: [Double], served: [Bool]) -> [Int32] {
        let candidates = served.indices.filter { served[$0] }
        guard !candidates.isEmpty, count > 0 else { return [] }
        let meanLatitude = candidates.reduce(0) { $0 + latitudes[$1] } / Double(candidates.count)
        let squeeze = max(0.05, cos(meanLatitude * .pi / 180))  // degrees of longitude in comparable units
        func distance2(_ a: Int, _ y: Double, _ x: Double) -> Double {
            let dy = latitudes[a] - y, dx = (longitudes[a] - x) * squeeze
            return dx * dx + dy * dy
        }
        let centreLongitude = candidates.reduce(0) { $0 + longitudes[$1] } / Double(candidates.count)
        // Ties broken by stop index: the same stops always give the same landmarks.
        var next = candidates.max { distance2($0, meanLatitude, centreLongitude) < distance2($1, meanLatitude, centreLongitude) }!
        var nearest = [Double](repeating: .infinity, count: candidates.count)
        var chosen: [Int32] = []
        while chosen.count < min(count, candidates.count) {
            chosen.append(Int32(next))
            var farthest = -1.0
            for (k, s) in candidates.enumerated() {
                nearest[k] = min(nearest[k], distance2(s, latitudes[next], longitudes[next]))
                if nearest[k] > farthest {
                    farthest = nearest[k]
                    next = s
                }
            }
            if farthest <= 0 { break }  // every candidate is a landmark's place
        }
        return chosen
    }

    /// Every stop's distance to (`rows` the graph's `incoming`) or from (`outgoing`) each landmark,
    /// stop-major: stop `s`'s are `table[s * rowCount ..< (s + 1) * rowCount]`, landmark `l` in lane
    /// `l % 8` of entry `l / 8`; `unreached` past `RemainingTimeGraph.radiusCap` and in the lanes
    /// after the last landmark (which so bound nothing). One search from each landmark.
    static func distances(_ rows: FootHops, stopCount n: Int, landmarks: [Int32]) -> [Lanes] {
        let rowCount = (landmarks.count + 7) / 8, cap = Int32(RemainingTimeGraph.radiusCap)
        var table = [Lanes](repeating: Lanes(repeating: unreached), count: n * rowCount)
        let closeness = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, n))
        closeness.initialize(repeating: 0, count: max(1, n))
        let settled = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, n))
        let buckets = UnsafeMutablePointer<Int32>.allocate(capacity: RemainingTimeGraph.radiusCap)
        buckets.initialize(repeating: -1, count: RemainingTimeGraph.radiusCap)
        let entries = UnsafeMutablePointer<SIMD2<Int32>>.allocate(capacity: 1 + rows.hops.count)
        defer { closeness.deallocate(); settled.deallocate(); buckets.deallocate(); entries.deallocate() }
        rows.withBuffers { rows in
            for (l, landmark) in landmarks.enumerated() {
                let reached = RemainingTimeGraph.fill(closeness, settled: settled, from: [Raptor.Endpoint(stop: landmark, seconds: 0)],
                                                      radius: RemainingTimeGraph.radiusCap, rows: rows, buckets: buckets,
                                                      entries: entries)
                for k in 0..<reached {
                    let s = Int(settled[k])
                    table[s * rowCount + l / 8][l % 8] = Int16(truncatingIfNeeded: cap - closeness[s])
                    closeness[s] = 0
                }
            }
        }
        return table
    }

    /// One search's lower bound from the landmarks on a stop's distance to its endpoints (a
    /// depart-at search's target; for an arrive-by search, from its origin), `ahead` and `behind`
    /// being the stops' distances to and from the landmarks (the other way round for arrive-by).
    /// With `w(e)` an endpoint's walk, per landmark: `ahead(s) − max over e of (ahead(e) − w(e))`
    /// and `min over e of (w(e) + behind(e)) − behind(s)`, each at most `d(s, e) + w(e)` for every
    /// `e`. An unreached `ahead(e)` makes the first term negative (it is unknown, not small), an
    /// unreached `behind(s)` the second, and an unreached `ahead(s)` or `behind(e)` counts as the
    /// cap (its distance is at least that): all in 16 bits, as a walk under `radiusCap` and a
    /// capped distance add up to under 2^15.
    struct Bound {
        let ahead: UnsafeBufferPointer<Lanes>, behind: UnsafeBufferPointer<Lanes>
        let rowCount: Int
        /// Per row of eight landmarks: `max over e of (ahead(e) − w(e))` and `min over e of (w(e) + behind(e))`.
        private var aheadOffset: [Lanes], behindOffset: [Lanes]
        private static let cap = Lanes(repeating: Int16(RemainingTimeGraph.radiusCap))

        /// Nil without an endpoint walked in under `limit` (nothing to bound) or without landmarks.
        init?(ahead: UnsafeBufferPointer<Lanes>, behind: UnsafeBufferPointer<Lanes>, stopCount: Int,
              endpoints: [Raptor.Endpoint], under limit: Int) {
            rowCount = stopCount == 0 ? 0 : ahead.count / stopCount
            let near = endpoints.filter { $0.seconds < limit }
            guard rowCount > 0, !near.isEmpty else { return nil }
            self.ahead = ahead
            self.behind = behind
            aheadOffset = [Lanes](repeating: Lanes(repeating: .min), count: rowCount)
            behindOffset = [Lanes](repeating: Lanes(repeating: .max), count: rowCount)
            for e in near {
                let walk = Lanes(repeating: Int16(truncatingIfNeeded: e.seconds)), row = Int(e.stop) * rowCount
                for r in 0..<rowCount {
                    aheadOffset[r] = pointwiseMax(aheadOffset[r], ahead[row + r] &- walk)
                    behindOffset[r] = pointwiseMin(behindOffset[r], walk &+ pointwiseMin(behind[row + r], Self.cap))
                }
            }
        }

        /// The largest of the landmarks' bounds for stop `s` (negative where none bounds it).
        @inline(__always) func seconds(from s: Int) -> Int16 {
            var best = Lanes(repeating: .min)
            let row = s &* rowCount
            for r in 0..<rowCount {
                let viaAhead = pointwiseMin(ahead[row &+ r], Self.cap) &- aheadOffset[r]
                let viaBehind = behindOffset[r] &- behind[row &+ r]
                best = pointwiseMax(best, pointwiseMax(viaAhead, viaBehind))
            }
            return best.max()
        }
    }
}
