import Foundation
import Synchronization

extension Raptor {
    /// How the search came to be ready at a stop in a round.
    enum Parent: Equatable {
        case none
        case endpoint
        case sameStop
        /// Walked from `stop`, over hop `hop` of the direction's `FootHops`.
        case footpath(stop: Int32, hop: Int32)
    }

    /// The ride that reached a stop in a round (hopping on where the round before made a stop ready).
    struct RideLabel {
        var pattern: Int32 = -1
        var trip: Int32 = -1
        var day: Int32 = 0
        var boardIndex: Int32 = 0
        var alightIndex: Int32 = 0
    }
}

/// The working memory of one search, kept between queries by `RaptorScratchPool` so that a
/// query allocates nothing. Labels are flat, `round * stopCount + stop`.
///
/// Raw buffers rather than arrays: the rounds write them millions of times per second, and
/// an array write checks uniqueness and bounds each time. Every index is a stop or pattern
/// of the timetable the scratch was made for, or a list position below its capacity (a
/// list never holds an entry twice, except `touched`, sized for that).
///
/// A search resets what it touched before giving the scratch back: per-stop times and
/// targets. Labels are not reset: a query reads a label only where it wrote one (a ride
/// label where its round improved the stop, a parent where its round made the stop ready).
final class RaptorScratch: @unchecked Sendable { // one query at a time; handed over through RaptorScratchPool
    let stopCount: Int
    let patternCount: Int
    /// `SearchDirection.unreached` of the direction this scratch serves.
    let unreached: Int
    /// Per stop: the best time the search can hop on there (any round).
    let ready: UnsafeMutablePointer<Int>
    /// Per stop: the best time the search hopped off there (any round).
    let reached: UnsafeMutablePointer<Int>
    /// Per stop: the walk to the target endpoint, -1 when it is none.
    let targetSeconds: UnsafeMutablePointer<Int>
    /// Stops made ready this round (to scan from next round) and stops hopped off at this round.
    let marked: StopList
    let improved: StopList
    /// Per pattern: the index to scan it from this round, -1 when not queued.
    let queueIndex: UnsafeMutablePointer<Int32>
    /// Per queued pattern: its last marked stop's index in scan order (set with `queueIndex`):
    /// past it the scan only hops off.
    let queueLast: UnsafeMutablePointer<Int32>
    /// The queued patterns as bits (pattern p is bit p % 64 of word p / 64): a round scans
    /// them in index order, which is the order of their stops and times in memory.
    let queuedWords: UnsafeMutablePointer<UInt64>
    let queuedWordCount: Int
    /// The patterns serving a target stop, as bits like `queuedWords`: a round scans its queued
    /// ones first, since only they can reach the target.
    let targetWords: UnsafeMutablePointer<UInt64>
    /// Per stop: its closeness to the target (`RemainingBound`, set by `RemainingTimeGraph.fill`),
    /// 0 everywhere until `remainingSet`.
    let closeness: UnsafeMutablePointer<Int32>
    /// The bound's radius (`RemainingBound.far`), 0 until `remainingSet`.
    var far = 0
    var remainingSet = false
    /// The stops whose closeness the bounding search set (`settledCount` of them), or -1 when a
    /// table set every stop's: what `reset` clears.
    let settled: UnsafeMutablePointer<Int32>
    var settledCount = 0
    /// The remaining time search's queue: a bucket per second, all -1 between searches;
    /// entries grown on demand.
    let buckets: UnsafeMutablePointer<Int32>
    private var entryStorage: UnsafeMutablePointer<SIMD2<Int32>>
    private var entryCapacity = 0
    /// Stops whose `ready` or `reached` changed: at most twice each.
    let touched: StopList
    /// Rounds the label buffers hold.
    private(set) var rounds = 0
    private(set) var parents: UnsafeMutablePointer<Raptor.Parent>
    private(set) var rides: UnsafeMutablePointer<Raptor.RideLabel>

    /// A set of small integers below a capacity, in insertion order, with a membership flag each.
    ///
    /// Every part, the count too, lives in memory the list points to, so a copy is the same list
    /// and changing it is nonmutating: the rounds hold their lists as `let`s, and their nested
    /// scan functions capture no variable (a captured `var` the scans change costs a dynamic
    /// exclusivity check, `swift_beginAccess`, per access).
    struct StopList {
        let items: UnsafeMutablePointer<Int32>
        let member: UnsafeMutablePointer<Bool>
        private let counter: UnsafeMutablePointer<Int>

        init(capacity: Int, flags: Int) {
            items = .allocate(capacity: max(1, capacity))
            member = .allocate(capacity: max(1, flags))
            member.initialize(repeating: false, count: max(1, flags))
            counter = .allocate(capacity: 1)
            counter.initialize(to: 0)
        }

        var count: Int {
            @inline(__always) get { counter.pointee }
            @inline(__always) nonmutating set { counter.pointee = newValue }
        }

        /// Adds `value` unless present.
        @inline(__always) func insert(_ value: Int32) {
            if !member[Int(value)] {
                member[Int(value)] = true
                let n = counter.pointee
                items[n] = value
                counter.pointee = n &+ 1
            }
        }

        /// Adds `value` even if present (for lists reset by value, where duplicates are harmless).
        @inline(__always) func append(_ value: Int32) {
            let n = counter.pointee
            items[n] = value
            counter.pointee = n &+ 1
        }

        /// Empties the list, clearing the flags of its items.
        @inline(__always) func removeAll() {
            for k in 0..<counter.pointee { member[Int(items[k])] = false }
            counter.pointee = 0
        }

        var elements: UnsafeBufferPointer<Int32> { UnsafeBufferPointer(start: items, count: counter.pointee) }

        func deallocate() {
            items.deallocate()
            member.deallocate()
            counter.deallocate()
        }
    }

    init(stopCount: Int, patternCount: Int, unreached: Int) {
        self.stopCount = stopCount
        self.patternCount = patternCount
        self.unreached = unreached
        let stops = max(1, stopCount)
        ready = .allocate(capacity: stops)
        ready.initialize(repeating: unreached, count: stops)
        reached = .allocate(capacity: stops)
        reached.initialize(repeating: unreached, count: stops)
        targetSeconds = .allocate(capacity: stops)
        targetSeconds.initialize(repeating: -1, count: stops)
        marked = StopList(capacity: stopCount, flags: stopCount)
        improved = StopList(capacity: stopCount, flags: stopCount)
        queueIndex = .allocate(capacity: max(1, patternCount))
        queueIndex.initialize(repeating: -1, count: max(1, patternCount))
        queueLast = .allocate(capacity: max(1, patternCount))
        queueLast.initialize(repeating: -1, count: max(1, patternCount))
        queuedWordCount = (patternCount + 63) / 64
        queuedWords = .allocate(capacity: max(1, queuedWordCount))
        queuedWords.initialize(repeating: 0, count: max(1, queuedWordCount))
        targetWords = .allocate(capacity: max(1, queuedWordCount))
        targetWords.initialize(repeating: 0, count: max(1, queuedWordCount))
        touched = StopList(capacity: 2 * stopCount, flags: 0)
        closeness = .allocate(capacity: stops)
        closeness.initialize(repeating: 0, count: stops)
        settled = .allocate(capacity: stops)
        buckets = .allocate(capacity: RemainingTimeGraph.radiusCap)
        buckets.initialize(repeating: -1, count: RemainingTimeGraph.radiusCap)
        entryStorage = .allocate(capacity: 1)
        parents = .allocate(capacity: 1)
        rides = .allocate(capacity: 1)
    }

    deinit {
        for buffer in [ready, reached, targetSeconds] { buffer.deallocate() }
        closeness.deallocate()
        settled.deallocate()
        buckets.deallocate()
        entryStorage.deallocate()
        queueIndex.deallocate()
        queueLast.deallocate()
        queuedWords.deallocate()
        targetWords.deallocate()
        for list in [marked, improved, touched] { list.deallocate() }
        parents.deinitialize(count: rounds * stopCount)
        parents.deallocate()
        rides.deallocate()
    }

    /// Makes room for labels of rounds `0..<count`.
    func reserveRounds(_ count: Int) {
        guard count > rounds else { return }
        let newParents = UnsafeMutablePointer<Raptor.Parent>.allocate(capacity: count * stopCount)
        newParents.initialize(repeating: .none, count: count * stopCount)
        parents.deinitialize(count: rounds * stopCount)
        parents.deallocate()
        parents = newParents
        let newRides = UnsafeMutablePointer<Raptor.RideLabel>.allocate(capacity: count * stopCount)
        newRides.initialize(repeating: Raptor.RideLabel(), count: count * stopCount)
        rides.deallocate()
        rides = newRides
        rounds = count
    }

    /// Room for `capacity` queue entries.
    func entries(capacity: Int) -> UnsafeMutablePointer<SIMD2<Int32>> {
        if capacity > entryCapacity {
            entryStorage.deallocate()
            entryStorage = .allocate(capacity: capacity)
            entryCapacity = capacity
        }
        return entryStorage
    }

    /// The bound on the time left that the rounds read (0 everywhere until `remainingSet`).
    var remainingBound: RemainingBound { RemainingBound(closeness: closeness, far: far) }

    /// Resets what a search touched: its stops' times, its bound, its targets and its marks.
    /// Only those: a search's cost does not grow with the network's size (but for the queue's
    /// bit words, one per 64 patterns).
    func reset(targets: [Raptor.Endpoint]) {
        if remainingSet {
            if settledCount < 0 {
                closeness.update(repeating: 0, count: stopCount)
            } else {
                for k in 0..<settledCount { closeness[Int(settled[k])] = 0 }
            }
            far = 0
            settledCount = 0
            remainingSet = false
        }
        targetWords.update(repeating: 0, count: queuedWordCount)
        for s in touched.elements {
            ready[Int(s)] = unreached
            reached[Int(s)] = unreached
        }
        touched.count = 0
        for e in targets { targetSeconds[Int(e.stop)] = -1 }
        marked.removeAll()
        improved.removeAll()
        for w in 0..<queuedWordCount where queuedWords[w] != 0 {
            var bits = queuedWords[w]
            while bits != 0 {
                queueIndex[w << 6 | bits.trailingZeroBitCount] = -1
                bits &= bits &- 1
            }
            queuedWords[w] = 0
        }
    }
}

/// Scratch memory shared by the queries of one timetable, one per query in flight.
/// Thread-safe: a query takes one (or makes one when all are busy) and gives it back.
final class RaptorScratchPool: Sendable {
    /// Scratches kept per direction; more queries in flight make their own and drop them.
    static let keptPerDirection = 8

    private let free = Mutex<[Int: [RaptorScratch]]>([:])  // by `unreached`, i.e. by direction
    /// Whether the engines sharing this pool count their work (`EngineWork`), and the counts.
    let workCounter = EngineWorkCounter()

    init() {}

    func take<D: SearchDirection>(_ direction: D.Type, stopCount: Int, patternCount: Int) -> RaptorScratch {
        let kept = free.withLock { $0[D.unreached]?.popLast() }
        if let kept, kept.stopCount == stopCount, kept.patternCount == patternCount { return kept }
        return RaptorScratch(stopCount: stopCount, patternCount: patternCount, unreached: D.unreached)
    }

    func giveBack(_ scratch: RaptorScratch) {
        free.withLock { free in
            if free[scratch.unreached, default: []].count < Self.keptPerDirection {
                free[scratch.unreached, default: []].append(scratch)
            }
        }
    }
}
