import Foundation

/// Raw views of the arrays one search reads, taken for the search's duration: the rounds'
/// inner loops then index them without retain/release, and without bounds checks in a
/// release build (every index is a pattern, stop, call or trip of the same timetable).
struct PatternBuffers {
    let patterns: UnsafeBufferPointer<Timetable.Pattern>
    let stops: UnsafeBufferPointer<Int32>
    let flags: UnsafeBufferPointer<UInt8>
    let arrivals: UnsafeBufferPointer<Int32>
    let departures: UnsafeBufferPointer<Int32>
    /// The stop → (pattern, index) rows (`PatternTable.stopIndex`).
    let stopPatternStart: UnsafeBufferPointer<Int32>
    let stopPatternEntries: UnsafeBufferPointer<Int32>
    let stopPatternIndexes: UnsafeBufferPointer<Int32>
}

/// A service day's running trips (`Raptor.ServiceDay`) as raw views.
struct DayBuffers {
    let day: Int
    let reference: Int
    let runningStart: UnsafeBufferPointer<Int32>
    let running: UnsafeBufferPointer<Int32>
}

extension PatternTable {
    /// Views of the table's arrays, valid in `body`.
    func withBuffers<R>(_ body: (PatternBuffers) -> R) -> R {
        patterns.withUnsafeBufferPointer { p in
            stops.withUnsafeBufferPointer { s in
                flags.withUnsafeBufferPointer { f in
                    arrivals.withUnsafeBufferPointer { a in
                        departures.withUnsafeBufferPointer { d in
                            stopPatternStart.withUnsafeBufferPointer { start in
                                stopPatternEntries.withUnsafeBufferPointer { entries in
                                    stopPatternIndexes.withUnsafeBufferPointer { indexes in
                                        body(PatternBuffers(patterns: p, stops: s, flags: f, arrivals: a, departures: d,
                                                            stopPatternStart: start, stopPatternEntries: entries,
                                                            stopPatternIndexes: indexes))
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

extension Raptor.ServiceDay {
    /// Views of the days' arrays, in the days' order, valid in `body`.
    static func withBuffers<R>(_ days: ArraySlice<Raptor.ServiceDay>, taken: [DayBuffers] = [],
                               _ body: ([DayBuffers]) -> R) -> R {
        guard let day = days.first else { return body(taken) }
        return day.runningStart.withUnsafeBufferPointer { start in
            day.running.withUnsafeBufferPointer { running in
                withBuffers(days.dropFirst(),
                            taken: taken + [DayBuffers(day: day.day, reference: day.reference, runningStart: start, running: running)],
                            body)
            }
        }
    }
}
