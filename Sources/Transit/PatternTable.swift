import Foundation

/// The arrays RAPTOR scans for a set of patterns: the timetable's own, or a realtime
/// overlay's. Holding one is cheap (arrays are shared, never copied).
struct PatternTable: Sendable {
    var patterns: [Timetable.Pattern] = []
    var stops: [Int32] = []
    var flags: [UInt8] = []
    var arrivals: [Int32] = []
    var departures: [Int32] = []
    /// For each stop, (pattern, index of the stop in the pattern) pairs.
    var stopPatternStart: [Int32] = []
    var stopPatternEntries: [Int32] = []
    var stopPatternIndexes: [Int32] = []

    /// The stop → pattern rows for `patterns` over `stopCount` stops.
    static func stopIndex(patterns: [Timetable.Pattern], patternStops: [Int32],
                          stopCount n: Int) -> (start: [Int32], entries: [Int32], indexes: [Int32]) {
        var counts = [Int32](repeating: 0, count: n + 1)
        for p in patterns {
            for i in 0..<Int(p.stopCount) { counts[Int(patternStops[Int(p.stopsStart) + i])] += 1 }
        }
        var start = [Int32](repeating: 0, count: n + 1)
        for s in 0..<n { start[s + 1] = start[s] + counts[s] }
        var fill = Array(start.dropLast())
        var entries = [Int32](repeating: 0, count: Int(start[n]))
        var indexes = entries
        for (pi, p) in patterns.enumerated() {
            for i in 0..<Int(p.stopCount) {
                let s = Int(patternStops[Int(p.stopsStart) + i])
                entries[Int(fill[s])] = Int32(pi)
                indexes[Int(fill[s])] = Int32(i)
                fill[s] += 1
            }
        }
        return (start, entries, indexes)
    }

    /// The earliest and latest time of any of the patterns' trips (nil: no patterns).
    var timeSpan: ClosedRange<Int>? {
        var earliest = Int32.max, latest = Int32.min
        for pattern in patterns {
            earliest = min(earliest, pattern.minTime)
            latest = max(latest, pattern.maxTime)
        }
        return earliest <= latest ? Int(earliest)...Int(latest) : nil
    }

    /// Bytes held by the arrays.
    var memoryBytes: Int {
        func a<T>(_ array: [T]) -> Int { array.count * MemoryLayout<T>.stride }
        return a(patterns) + a(stops) + a(flags) + a(arrivals) + a(departures)
            + a(stopPatternStart) + a(stopPatternEntries) + a(stopPatternIndexes)
    }
}

extension Timetable {
    /// The static patterns as RAPTOR scans them.
    var patternTable: PatternTable {
        PatternTable(patterns: patterns, stops: patternStops, flags: patternFlags, arrivals: arrivals, departures: departures,
                     stopPatternStart: stopPatternStart, stopPatternEntries: stopPatternEntries,
                     stopPatternIndexes: stopPatternIndexes)
    }
}
