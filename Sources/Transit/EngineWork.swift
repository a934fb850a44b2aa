import Foundation
import Synchronization

/// What the engine's searches did, counted per round: where a query costs more in a larger
/// network, these say whether it did more work or the same work slower (issue 43's split).
/// Counted only inside `TransitRouter.countingEngineWork`: the rounds are specialised for
/// counting and for not counting, so a search that does not count pays nothing for it.
public struct EngineWork: Sendable, Equatable {
    public struct Round: Sendable, Equatable {
        /// Stops made ready in the round before, whose patterns this round queues.
        public var stopsMarked = 0
        /// Patterns queued and scanned (each over every service day searched).
        public var patternsScanned = 0
        /// Scans of a pattern's running trips on one day that ran (not skipped as outside the window).
        public var dayScans = 0
        /// Stops visited by those scans.
        public var stopsVisited = 0
        /// Searches among the running trips for an earlier one to hop on.
        public var tripSearches = 0
        /// Hop-offs that improved a stop.
        public var hopOffs = 0
        /// Changes and footpaths tried from the stops improved, and those that made a stop ready.
        public var transfersTried = 0
        public var stopsReadied = 0

        public init() {}

        public static func + (a: Round, b: Round) -> Round {
            var sum = Round()
            for kind in Counted.allCases { sum[kind] = a[kind] + b[kind] }
            return sum
        }

        subscript(kind: Counted) -> Int {
            get {
                switch kind {
                case .stopsMarked: stopsMarked
                case .patternsScanned: patternsScanned
                case .dayScans: dayScans
                case .stopsVisited: stopsVisited
                case .tripSearches: tripSearches
                case .hopOffs: hopOffs
                case .transfersTried: transfersTried
                case .stopsReadied: stopsReadied
                }
            }
            set {
                switch kind {
                case .stopsMarked: stopsMarked = newValue
                case .patternsScanned: patternsScanned = newValue
                case .dayScans: dayScans = newValue
                case .stopsVisited: stopsVisited = newValue
                case .tripSearches: tripSearches = newValue
                case .hopOffs: hopOffs = newValue
                case .transfersTried: transfersTried = newValue
                case .stopsReadied: stopsReadied = newValue
                }
            }
        }
    }

    enum Counted: Int, CaseIterable {
        case stopsMarked, patternsScanned, dayScans, stopsVisited, tripSearches, hopOffs, transfersTried, stopsReadied
    }

    /// Searches run (a query runs one or two: the second pass in the first one's corridor).
    public var searches = 0
    /// Per round (index 0 is round 1), summed over the searches.
    public var rounds: [Round] = []
    /// Stops given a bound on the time left to the target (every stop where the table of
    /// stops gives it; the searched and the cells' stops where the table of cells does).
    public var boundStops = 0

    public init() {}

    /// Every round's counts summed.
    public var total: Round { rounds.reduce(Round(), +) }

    /// The counts of both, round by round.
    public static func + (a: EngineWork, b: EngineWork) -> EngineWork {
        var sum = EngineWork()
        sum.searches = a.searches + b.searches
        sum.boundStops = a.boundStops + b.boundStops
        sum.rounds = (0..<max(a.rounds.count, b.rounds.count)).map {
            ($0 < a.rounds.count ? a.rounds[$0] : Round()) + ($0 < b.rounds.count ? b.rounds[$0] : Round())
        }
        return sum
    }
}

/// How the rounds count their work: `NotCountingWork` (every count inlined away) or `CountingWork`.
protocol RaptorWorkTally {
    func count(_ kind: EngineWork.Counted, round: Int, _ n: Int)
    func countBound(stops: Int)
}

extension Raptor {
    struct NotCountingWork: RaptorWorkTally {
        @inline(__always) func count(_ kind: EngineWork.Counted, round: Int, _ n: Int) {}
        @inline(__always) func countBound(stops: Int) {}
    }

    /// One search's counts (one query at a time).
    final class CountingWork: RaptorWorkTally {
        private(set) var work = EngineWork()

        init() { work.searches = 1 }

        func count(_ kind: EngineWork.Counted, round: Int, _ n: Int) {
            while work.rounds.count < round { work.rounds.append(EngineWork.Round()) }
            work.rounds[round - 1][kind] += n
        }

        func countBound(stops: Int) { work.boundStops += stops }
    }
}

/// Whether the engines of one timetable count their work, and what they counted (kept with
/// their scratch pool, which they share).
final class EngineWorkCounter: Sendable {
    private let on = Atomic<Bool>(false)
    private let counted = Mutex(EngineWork())

    init() {}

    var isCounting: Bool { on.load(ordering: .relaxed) }

    func start() {
        counted.withLock { $0 = EngineWork() }
        on.store(true, ordering: .relaxed)
    }

    func stop() -> EngineWork {
        on.store(false, ordering: .relaxed)
        return counted.withLock { $0 }
    }

    func add(_ work: EngineWork) { counted.withLock { $0 = $0 + work } }
}

extension TransitRouter {
    /// Runs `body` with this router's engines counting their work, and returns what they did
    /// (`usefulmap-bench country`). For one query at a time: queries of other threads in the
    /// meantime are counted too.
    public func countingEngineWork<T>(_ body: () throws -> T) rethrows -> (T, EngineWork) {
        let counter = scratchPool.workCounter
        counter.start()
        do {
            let result = try body()
            return (result, counter.stop())
        } catch {
            _ = counter.stop()
            throw error
        }
    }
}
