import Foundation

/// A timetable's footpaths at one walking pace, laid out for the rounds in one search
/// direction: row `s` is `hops[start[s]..<start[s + 1]]`, each hop the stop at the other end
/// and the walk's seconds side by side, so that following a stop's footpaths reads one
/// contiguous run (outgoing rows forward, incoming rows backward). `edges[k]` is hop k's
/// footpath edge, read only where a hop improves a stop (for the journey's transfer).
struct FootHops: Sendable {
    struct Hop: Sendable {
        var stop: Int32
        var seconds: Int32
    }

    let start: [Int32]
    let hops: [Hop]
    let edges: [Int32]

    /// - parameter seconds: walking seconds per footpath edge.
    init(start: [Int32], neighbours: [Int32], edges: [Int32], seconds: [Int]) {
        self.start = start
        self.edges = edges
        hops = zip(neighbours, edges).map { Hop(stop: $0, seconds: Int32(clamping: seconds[Int($1)])) }
    }

    /// Raw views of the rows, valid in `body`.
    func withBuffers<R>(_ body: (FootHopBuffers) -> R) -> R {
        start.withUnsafeBufferPointer { start in
            hops.withUnsafeBufferPointer { hops in
                edges.withUnsafeBufferPointer { edges in body(FootHopBuffers(start: start, hops: hops, edges: edges)) }
            }
        }
    }
}

/// `FootHops` as raw views (no retain/release or bounds checks in the rounds).
struct FootHopBuffers {
    let start: UnsafeBufferPointer<Int32>
    let hops: UnsafeBufferPointer<FootHops.Hop>
    let edges: UnsafeBufferPointer<Int32>
}
