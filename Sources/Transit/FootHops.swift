import Foundation

/// A timetable's footpaths at one walking pace, laid out for the rounds in one search
/// direction: row `s` is `hops[start[s]..<start[s + 1]]`, each hop the stop at the other end
/// and the walk's seconds side by side, so that following a stop's footpaths reads one
/// contiguous run (outgoing rows forward, incoming rows backward). A search's labels name a
/// footpath by its hop index; the outgoing rows are in footpath edge order.
struct FootHops: Sendable {
    struct Hop: Sendable {
        var stop: Int32
        var seconds: Int32
    }

    let start: [Int32]
    let hops: [Hop]

    /// - parameter seconds: the walk's seconds per entry of `neighbours`.
    init(start: [Int32], neighbours: [Int32], seconds: [Int32]) {
        self.start = start
        hops = zip(neighbours, seconds).map { Hop(stop: $0, seconds: $1) }
    }

    /// Raw views of the rows, valid in `body`.
    func withBuffers<R>(_ body: (FootHopBuffers) -> R) -> R {
        start.withUnsafeBufferPointer { start in
            hops.withUnsafeBufferPointer { hops in body(FootHopBuffers(start: start, hops: hops)) }
        }
    }
}

/// `FootHops` as raw views (no retain/release or bounds checks in the rounds).
struct FootHopBuffers {
    let start: UnsafeBufferPointer<Int32>
    let hops: UnsafeBufferPointer<FootHops.Hop>
}
