import Transit

/// The benchmark's yardstick for the transit engine: a plain connection scan (earliest
/// arrival, target pruning) over the same timetable, written for speed as a native loop
/// would be (raw buffers, unchecked arithmetic, scratch stamped with a query number instead
/// of cleared). Not a routing engine: it answers the earliest arrival only, with any number
/// of rides, in the engine's model (`ConnectionTimetable`).
final class ConnectionScan {
    private let count: Int
    private let departureStops, arrivalStops, runs: UnsafeMutablePointer<Int32>
    private let departures, arrivals: UnsafeMutablePointer<Int>
    private let flags: UnsafeMutablePointer<UInt8>
    private let changeSeconds, footStart, footTargets, footSeconds: UnsafeMutablePointer<Int32>
    /// Per stop: the earliest time a vehicle can be boarded there, the earliest arrival by a
    /// vehicle, the egress walk; each valid only where its stamp is the current query's.
    private let ready, reached, egress: UnsafeMutablePointer<Int>
    private let readyStamp, reachedStamp, egressStamp: UnsafeMutablePointer<UInt32>
    /// Per trip run: stamped when the query is on board.
    private let boardedStamp: UnsafeMutablePointer<UInt32>
    private let stopCount, runCount: Int
    private var stamp: UInt32 = 0

    init(_ t: ConnectionTimetable) {
        func copy<T>(_ array: [T]) -> UnsafeMutablePointer<T> {
            let buffer = UnsafeMutablePointer<T>.allocate(capacity: max(1, array.count))
            _ = UnsafeMutableBufferPointer(start: buffer, count: array.count).initialize(from: array)
            return buffer
        }
        func zeroed<T: FixedWidthInteger>(_ n: Int, _: T.Type) -> UnsafeMutablePointer<T> {
            let buffer = UnsafeMutablePointer<T>.allocate(capacity: max(1, n))
            buffer.initialize(repeating: 0, count: max(1, n))
            return buffer
        }
        count = t.departures.count
        stopCount = t.stopCount
        runCount = t.runCount
        departureStops = copy(t.departureStops)
        arrivalStops = copy(t.arrivalStops)
        runs = copy(t.runs)
        departures = copy(t.departures)
        arrivals = copy(t.arrivals)
        flags = copy(t.flags)
        changeSeconds = copy(t.changeSeconds)
        footStart = copy(t.footStart)
        footTargets = copy(t.footTargets)
        footSeconds = copy(t.footSeconds)
        ready = zeroed(stopCount, Int.self)
        reached = zeroed(stopCount, Int.self)
        egress = zeroed(stopCount, Int.self)
        readyStamp = zeroed(stopCount, UInt32.self)
        reachedStamp = zeroed(stopCount, UInt32.self)
        egressStamp = zeroed(stopCount, UInt32.self)
        boardedStamp = zeroed(runCount, UInt32.self)
    }

    deinit {
        for buffer in [departureStops, arrivalStops, runs, changeSeconds, footStart, footTargets, footSeconds] { buffer.deallocate() }
        for buffer in [departures, arrivals, ready, reached, egress] { buffer.deallocate() }
        for buffer in [readyStamp, reachedStamp, egressStamp, boardedStamp] { buffer.deallocate() }
        flags.deallocate()
    }

    /// The earliest arrival at the destination (Unix seconds), nil when none before the horizon.
    func earliestArrival(_ query: EngineQuery) -> Int? {
        stamp &+= 1
        if stamp == 0 {  // wrapped: old stamps could collide
            for buffer in [readyStamp, reachedStamp, egressStamp] { buffer.update(repeating: 0, count: max(1, stopCount)) }
            boardedStamp.update(repeating: 0, count: max(1, runCount))
            stamp = 1
        }
        let now = stamp
        @inline(__always) func improveReady(_ s: Int, _ t: Int) {
            if readyStamp[s] != now || t < ready[s] {
                readyStamp[s] = now
                ready[s] = t
            }
        }
        for a in query.access { improveReady(Int(a.stop), query.time &+ a.seconds) }
        for e in query.egress {
            let s = Int(e.stop)
            if egressStamp[s] != now || e.seconds < egress[s] {
                egressStamp[s] = now
                egress[s] = e.seconds
            }
        }
        var best = query.time &+ query.horizon
        // The first connection leaving at or after the query's time.
        var low = 0, high = count
        while low < high {
            let mid = (low &+ high) >> 1
            if departures[mid] < query.time { low = mid &+ 1 } else { high = mid }
        }
        var i = low
        while i < count {
            let departure = departures[i]
            if departure >= best { break }  // nothing later can arrive earlier
            let run = Int(runs[i])
            let flag = flags[i]
            var onBoard = boardedStamp[run] == now
            if !onBoard && flag & ConnectionTimetable.boardsHere != 0 {
                let s = Int(departureStops[i])
                if readyStamp[s] == now && ready[s] <= departure {
                    boardedStamp[run] = now
                    onBoard = true
                }
            }
            if onBoard && flag & ConnectionTimetable.alightsThere != 0 {
                let s = Int(arrivalStops[i]), t = arrivals[i]
                if t < best && (reachedStamp[s] != now || t < reached[s]) {
                    reachedStamp[s] = now
                    reached[s] = t
                    if egressStamp[s] == now && t &+ egress[s] < best { best = t &+ egress[s] }
                    let change = Int(changeSeconds[s])
                    if change >= 0 { improveReady(s, t &+ change) }
                    var k = Int(footStart[s])
                    let end = Int(footStart[s &+ 1])
                    while k < end {
                        improveReady(Int(footTargets[k]), t &+ Int(footSeconds[k]))
                        k &+= 1
                    }
                }
            }
            i &+= 1
        }
        return best < query.time &+ query.horizon ? best : nil
    }
}
