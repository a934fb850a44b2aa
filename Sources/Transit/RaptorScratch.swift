import Foundation

extension Raptor {
    /// How the search came to be ready at a stop in a round.
    enum Parent: Equatable {
        case none
        case endpoint
        case sameStop
        case footpath(stop: Int32, edge: Int32)
    }

    /// The ride that reached a stop in a round, and the round its hop-on stop was ready in.
    struct RideLabel {
        var pattern: Int32 = -1
        var trip: Int32 = -1
        var day: Int32 = 0
        var boardIndex: Int32 = 0
        var alightIndex: Int32 = 0
        var linkRound: Int32 = 0
    }
}

/// The working arrays of one search, kept between queries by `RaptorScratchPool` so that a
/// query allocates nothing on its hot path. Labels are flat, `round * stopCount + stop`.
/// A search leaves the scratch as it found it: every entry it touched is reset on return,
/// which costs what the search visited, not the size of the timetable.
struct RaptorScratch {
    let stopCount: Int
    /// `SearchDirection.unreached` of the direction this scratch serves.
    let unreached: Int
    /// Per stop: the best time the search can hop on there (any round) and that round.
    var ready: [Int]
    var readyRound: [Int32]
    /// Per stop: the best time the search hopped off there (any round).
    var reached: [Int]
    /// Per stop: the walk to the target endpoint, -1 when it is none.
    var targetSeconds: [Int]
    var marked: [Bool]
    var markedList: [Int32] = []
    var improved: [Bool]
    var improvedList: [Int32] = []
    /// Per pattern: the index to scan it from this round, -1 when not queued.
    var queueIndex: [Int32]
    var queued: [Int32] = []
    /// Rounds the label arrays hold.
    private(set) var rounds = 0
    var parents: [Raptor.Parent] = []
    var rides: [Raptor.RideLabel] = []
    /// Stops whose `ready` or `reached` changed (possibly listed twice).
    var touched: [Int32] = []

    init(stopCount: Int, patternCount: Int, unreached: Int) {
        self.stopCount = stopCount
        self.unreached = unreached
        ready = [Int](repeating: unreached, count: stopCount)
        readyRound = [Int32](repeating: 0, count: stopCount)
        reached = ready
        targetSeconds = [Int](repeating: -1, count: stopCount)
        marked = [Bool](repeating: false, count: stopCount)
        improved = marked
        queueIndex = [Int32](repeating: -1, count: patternCount)
    }

    /// Makes room for labels of rounds `0..<count`.
    mutating func reserveRounds(_ count: Int) {
        guard count > rounds else { return }
        parents.append(contentsOf: repeatElement(.none, count: (count - rounds) * stopCount))
        rides.append(contentsOf: repeatElement(Raptor.RideLabel(), count: (count - rounds) * stopCount))
        rounds = count
    }

    /// Resets what a search touched: its stops in rounds `0..<roundsUsed`, and its targets.
    mutating func reset(roundsUsed: Int, targets: [Raptor.Endpoint]) {
        for s32 in touched {
            let s = Int(s32)
            ready[s] = unreached
            reached[s] = unreached
            readyRound[s] = 0
            for r in 0..<min(roundsUsed, rounds) {
                parents[r * stopCount + s] = .none
                rides[r * stopCount + s] = Raptor.RideLabel()
            }
        }
        touched.removeAll(keepingCapacity: true)
        for e in targets { targetSeconds[Int(e.stop)] = -1 }
        for s in markedList { marked[Int(s)] = false }
        markedList.removeAll(keepingCapacity: true)
    }
}

/// Scratch arrays shared by the queries of one timetable, one per query in flight.
/// Thread-safe: a query takes one (or makes one when all are busy) and gives it back.
final class RaptorScratchPool: @unchecked Sendable {
    /// Scratches kept per direction; more queries in flight make their own and drop them.
    static let keptPerDirection = 8

    private let lock = NSLock()
    private var free: [Int: [RaptorScratch]] = [:]  // by `unreached`, i.e. by direction

    init() {}

    func take<D: SearchDirection>(_ direction: D.Type, stopCount: Int, patternCount: Int) -> RaptorScratch {
        lock.lock()
        let kept = free[D.unreached]?.popLast()
        lock.unlock()
        if let kept, kept.stopCount == stopCount { return kept }
        return RaptorScratch(stopCount: stopCount, patternCount: patternCount, unreached: D.unreached)
    }

    func giveBack(_ scratch: RaptorScratch) {
        lock.lock()
        defer { lock.unlock() }
        if free[scratch.unreached, default: []].count < Self.keptPerDirection {
            free[scratch.unreached, default: []].append(scratch)
        }
    }
}
