import Foundation

/// Which way a RAPTOR search runs through time: `Forward` for depart-at (earliest arrival
/// from a departure), `Backward` for arrive-by (latest departure before a deadline).
///
/// The search is written once against this protocol. Every requirement is static and the
/// conforming types are caseless enums, so the generic search is specialised for each
/// direction: the comparisons and index steps below compile to the same instructions two
/// hand-written copies would have.
///
/// Words in search order: the search *hops on* a vehicle where it first meets it (boarding
/// forward, alighting backward) and *hops off* where it leaves it; a stop's *ready* time is
/// when the search can hop on there; the *start* endpoints are where it begins (access walks
/// forward, egress walks backward) and the *target* endpoints where it ends.
protocol SearchDirection {
    /// The time of a stop not reached yet: after every real time in search order.
    static var unreached: Int { get }
    /// Whether `a` comes strictly before `b` in search order.
    static func isBefore(_ a: Int, _ b: Int) -> Bool
    /// `time` moved `seconds` onwards in search order.
    static func plus(_ time: Int, _ seconds: Int) -> Int

    /// Pattern flags: where the search may hop on and off.
    static var hopOnFlag: UInt8 { get }
    static var hopOffFlag: UInt8 { get }
    /// The per-call times read where the search hops on and off.
    static func hopOnTimes(_ table: PatternBuffers) -> UnsafeBufferPointer<Int32>
    static func hopOffTimes(_ table: PatternBuffers) -> UnsafeBufferPointer<Int32>
    /// A pattern's first and last time in search order (to skip service days quickly).
    static func span(_ pattern: Timetable.Pattern) -> (first: Int, last: Int)
    /// The first and last of two times in search order.
    static func span(earliest: Int, latest: Int) -> (first: Int, last: Int)

    /// Indexes from `start` to the end of `0..<count` in scan order (pattern stops, days).
    static func scan(from start: Int, count: Int) -> StrideTo<Int>
    /// Indexes from `start` through `end` in scan order.
    static func scan(from start: Int, through end: Int) -> StrideThrough<Int>
    /// The index after `index` in scan order.
    static func next(_ index: Int) -> Int
    /// The first index of `0..<count` in scan order.
    static func first(count: Int) -> Int
    /// Whether pattern index `a` is scanned before `b`.
    static func scansBefore(_ a: Int32, _ b: Int32) -> Bool

    /// The trip to ride from a stop ready at `local` (seconds after the day's reference),
    /// better than the one at position `current` (-1 for none): a position in `positions`
    /// of `trips`, which lists a pattern's trips running that day in ascending order; a trip's
    /// hop-on time at this stop is `times[base + trip * stride]`. Trips of a pattern never
    /// overtake one another, so hop-on times ascend with the position.
    static func catchableTrip(after local: Int, current: Int, among positions: Range<Int>, trips: UnsafeBufferPointer<Int32>,
                              times: UnsafeBufferPointer<Int32>, base: Int, stride: Int) -> Int?

    /// The footpaths followed after hopping off at a stop, each hop with its walk's seconds
    /// (`seconds` per footpath edge at an engine's pace).
    static func footHops(_ timetable: Timetable, seconds: [Int32]) -> FootHops
    /// The engine's hops in this direction, as the rounds read them.
    static func footHops(of engine: Raptor) -> FootHops
    /// The rows of the engine's `RemainingTimeGraph` read from the search's target endpoints.
    static func remainingTimeRows(of engine: Raptor) -> FootHops
    /// The remaining time graph's distances to (depart-at) or from (arrive-by) each stop, or nil.
    static func remainingTimeTable(of engine: Raptor) -> [UInt8]?
    /// The remaining time graph's least distances to (depart-at) or from (arrive-by) each cell of
    /// stops, or nil (`RemainingTimeGraph.towardsCells`).
    static func remainingTimeCellTable(of engine: Raptor) -> [Int16]?
    /// The stops' distances to and from the graph's landmarks as `StopLandmarks.Bound` reads them
    /// from the search's target endpoints (`ahead` towards them), or nil.
    static func remainingTimeLandmarks(of engine: Raptor) -> (ahead: [StopLandmarks.Lanes], behind: [StopLandmarks.Lanes])?

    /// (start, target) endpoints of the search.
    static func ends(access: [Raptor.Endpoint], egress: [Raptor.Endpoint]) -> (start: [Raptor.Endpoint], target: [Raptor.Endpoint])
    /// A ride's (board, alight) indexes from where the search hopped on and off.
    static func rideIndexes(hopOn: Int, hopOff: Int) -> (board: Int, alight: Int)
    /// The stop where the search hopped on `ride`.
    static func hopOnStop(_ ride: Raptor.Ride) -> Int32
    /// The walk that linked `stop`, where the search hopped on, to `previous`, where it
    /// hopped off the ride before (the same stop for a change).
    static func transfer(linking stop: Int32, to previous: Int32, seconds: Int) -> Raptor.Transfer
    /// The access and egress sides of what the search keeps for its start and its target.
    static func accessAndEgress<T>(start: T, target: T) -> (access: T, egress: T)
    /// The journey from rides and transfers in search order, found at `time` at the target.
    static func journey(rides: [Raptor.Ride], transfers: [Raptor.Transfer], start: Raptor.Endpoint,
                        target: Raptor.Endpoint, time: Int) -> Raptor.Journey
}

extension SearchDirection {
    /// The first of two times in search order (the earlier forward, the later backward).
    @inline(__always) static func earlier(_ a: Int, _ b: Int) -> Int { isBefore(a, b) ? a : b }
}

extension Raptor {
    /// Depart-at: time runs forwards, patterns are scanned from their first stop.
    enum Forward: SearchDirection {
        static var unreached: Int { .max }
        @inline(__always) static func isBefore(_ a: Int, _ b: Int) -> Bool { a < b }
        @inline(__always) static func plus(_ time: Int, _ seconds: Int) -> Int { time + seconds }

        static var hopOnFlag: UInt8 { Timetable.canBoard }
        static var hopOffFlag: UInt8 { Timetable.canAlight }
        @inline(__always) static func hopOnTimes(_ table: PatternBuffers) -> UnsafeBufferPointer<Int32> { table.departures }
        @inline(__always) static func hopOffTimes(_ table: PatternBuffers) -> UnsafeBufferPointer<Int32> { table.arrivals }
        @inline(__always) static func span(_ pattern: Timetable.Pattern) -> (first: Int, last: Int) {
            (Int(pattern.minTime), Int(pattern.maxTime))
        }
        static func span(earliest: Int, latest: Int) -> (first: Int, last: Int) { (earliest, latest) }

        @inline(__always) static func scan(from start: Int, count: Int) -> StrideTo<Int> {
            stride(from: start, to: count, by: 1)
        }
        @inline(__always) static func scan(from start: Int, through end: Int) -> StrideThrough<Int> {
            stride(from: start, through: end, by: 1)
        }
        @inline(__always) static func next(_ index: Int) -> Int { index &+ 1 }
        @inline(__always) static func first(count: Int) -> Int { 0 }
        @inline(__always) static func scansBefore(_ a: Int32, _ b: Int32) -> Bool { a < b }

        /// The earliest running trip departing at or after `local`, earlier than `current`.
        @inline(__always)
        static func catchableTrip(after local: Int, current: Int, among positions: Range<Int>, trips: UnsafeBufferPointer<Int32>,
                                  times: UnsafeBufferPointer<Int32>, base: Int, stride: Int) -> Int? {
            @inline(__always) func time(_ k: Int) -> Int { Int(times[base &+ Int(trips[k]) &* stride]) }
            let limit = current >= 0 ? current : positions.upperBound
            // Usually the trip before the current one has left already: no search then.
            if limit == positions.lowerBound || (current >= 0 && time(current - 1) < local) { return nil }
            var low = positions.lowerBound, high = limit
            while low < high {
                let mid = (low + high) / 2
                if time(mid) < local { low = mid + 1 } else { high = mid }
            }
            return low < limit ? low : nil
        }

        static func footHops(_ timetable: Timetable, seconds: [Int32]) -> FootHops {
            FootHops(start: timetable.footStart, neighbours: timetable.footTargets, seconds: seconds)  // outgoing rows
        }
        static func footHops(of engine: Raptor) -> FootHops { engine.outgoingHops }
        static func remainingTimeRows(of engine: Raptor) -> FootHops { engine.remainingTime.incoming }
        static func remainingTimeTable(of engine: Raptor) -> [UInt8]? { engine.remainingTime.towards }
        static func remainingTimeCellTable(of engine: Raptor) -> [Int16]? { engine.remainingTime.towardsCells }
        static func remainingTimeLandmarks(of engine: Raptor) -> (ahead: [StopLandmarks.Lanes], behind: [StopLandmarks.Lanes])? {
            guard let to = engine.remainingTime.toLandmarks, let from = engine.remainingTime.fromLandmarks else { return nil }
            return (to, from)
        }

        static func ends(access: [Raptor.Endpoint], egress: [Raptor.Endpoint]) -> (start: [Raptor.Endpoint], target: [Raptor.Endpoint]) {
            (access, egress)
        }
        static func rideIndexes(hopOn: Int, hopOff: Int) -> (board: Int, alight: Int) { (hopOn, hopOff) }
        static func hopOnStop(_ ride: Raptor.Ride) -> Int32 { ride.boardStop }
        static func transfer(linking stop: Int32, to previous: Int32, seconds: Int) -> Raptor.Transfer {
            Raptor.Transfer(from: previous, to: stop, seconds: seconds)
        }
        static func accessAndEgress<T>(start: T, target: T) -> (access: T, egress: T) { (start, target) }
        static func journey(rides: [Raptor.Ride], transfers: [Raptor.Transfer], start: Raptor.Endpoint,
                            target: Raptor.Endpoint, time: Int) -> Raptor.Journey {
            let rides = Array(rides.reversed())
            return Raptor.Journey(departure: (rides.first?.departure ?? time) - start.seconds, arrival: time,
                                  access: start, egress: target, rides: rides, transfers: transfers.reversed())
        }
    }

    /// Arrive-by: time runs backwards from the deadline, patterns are scanned from their last stop.
    enum Backward: SearchDirection {
        static var unreached: Int { .min }
        @inline(__always) static func isBefore(_ a: Int, _ b: Int) -> Bool { a > b }
        @inline(__always) static func plus(_ time: Int, _ seconds: Int) -> Int { time - seconds }

        static var hopOnFlag: UInt8 { Timetable.canAlight }
        static var hopOffFlag: UInt8 { Timetable.canBoard }
        @inline(__always) static func hopOnTimes(_ table: PatternBuffers) -> UnsafeBufferPointer<Int32> { table.arrivals }
        @inline(__always) static func hopOffTimes(_ table: PatternBuffers) -> UnsafeBufferPointer<Int32> { table.departures }
        @inline(__always) static func span(_ pattern: Timetable.Pattern) -> (first: Int, last: Int) {
            (Int(pattern.maxTime), Int(pattern.minTime))
        }
        static func span(earliest: Int, latest: Int) -> (first: Int, last: Int) { (latest, earliest) }

        @inline(__always) static func scan(from start: Int, count: Int) -> StrideTo<Int> {
            stride(from: start, to: -1, by: -1)
        }
        @inline(__always) static func scan(from start: Int, through end: Int) -> StrideThrough<Int> {
            stride(from: start, through: end, by: -1)
        }
        @inline(__always) static func next(_ index: Int) -> Int { index &- 1 }
        @inline(__always) static func first(count: Int) -> Int { count - 1 }
        @inline(__always) static func scansBefore(_ a: Int32, _ b: Int32) -> Bool { a > b }

        /// The latest running trip arriving at or before `local`, later than `current`.
        @inline(__always)
        static func catchableTrip(after local: Int, current: Int, among positions: Range<Int>, trips: UnsafeBufferPointer<Int32>,
                                  times: UnsafeBufferPointer<Int32>, base: Int, stride: Int) -> Int? {
            @inline(__always) func time(_ k: Int) -> Int { Int(times[base &+ Int(trips[k]) &* stride]) }
            let floor = current >= 0 ? current + 1 : positions.lowerBound
            // Usually the trip after the current one arrives too late: no search then.
            if floor == positions.upperBound || (current >= 0 && time(floor) > local) { return nil }
            var low = floor, high = positions.upperBound
            while low < high {
                let mid = (low + high) / 2
                if time(mid) <= local { low = mid + 1 } else { high = mid }
            }
            return low > floor ? low - 1 : nil
        }

        static func footHops(_ timetable: Timetable, seconds: [Int32]) -> FootHops {
            FootHops(start: timetable.footInStart, neighbours: timetable.footInSources,  // incoming rows
                     seconds: timetable.footInEdge.map { seconds[Int($0)] })
        }
        static func footHops(of engine: Raptor) -> FootHops { engine.incomingHops }
        static func remainingTimeRows(of engine: Raptor) -> FootHops { engine.remainingTime.outgoing }
        static func remainingTimeTable(of engine: Raptor) -> [UInt8]? { engine.remainingTime.away }
        static func remainingTimeCellTable(of engine: Raptor) -> [Int16]? { engine.remainingTime.awayCells }
        static func remainingTimeLandmarks(of engine: Raptor) -> (ahead: [StopLandmarks.Lanes], behind: [StopLandmarks.Lanes])? {
            guard let to = engine.remainingTime.toLandmarks, let from = engine.remainingTime.fromLandmarks else { return nil }
            return (from, to)
        }

        static func ends(access: [Raptor.Endpoint], egress: [Raptor.Endpoint]) -> (start: [Raptor.Endpoint], target: [Raptor.Endpoint]) {
            (egress, access)
        }
        static func rideIndexes(hopOn: Int, hopOff: Int) -> (board: Int, alight: Int) { (hopOff, hopOn) }
        static func hopOnStop(_ ride: Raptor.Ride) -> Int32 { ride.alightStop }
        static func transfer(linking stop: Int32, to previous: Int32, seconds: Int) -> Raptor.Transfer {
            Raptor.Transfer(from: stop, to: previous, seconds: seconds)
        }
        static func accessAndEgress<T>(start: T, target: T) -> (access: T, egress: T) { (target, start) }
        static func journey(rides: [Raptor.Ride], transfers: [Raptor.Transfer], start: Raptor.Endpoint,
                            target: Raptor.Endpoint, time: Int) -> Raptor.Journey {
            Raptor.Journey(departure: time, arrival: (rides.last?.arrival ?? time) + start.seconds,
                           access: target, egress: start, rides: rides, transfers: transfers)
        }
    }
}
