import Foundation

/// One run of a timetable trip as a TripUpdate says it goes: times per stop (seconds after the
/// service day's reference, like the timetable's) and the stops it skips.
struct LiveTripTimes: Hashable, Sendable {
    var arrivals: [Int32]
    var departures: [Int32]
    var skipped: [Bool]

    /// A time further than this from the timetable's is a wrong date or unit, not a delay.
    static let maximumOffset = 86_400

    /// Applies the stop time updates of `update` to the scheduled times of one trip run.
    ///
    /// Rules (as OTP2 and nigiri): updates name stops by `stop_sequence` or, without one, by
    /// `stop_id`, in trip order. A stop's delay carries forward to the following stops without
    /// an update; before the first update the trip-level `delay` applies, or else the timetable.
    /// An absolute time wins over a delay. A SKIPPED stop keeps no boarding or alighting, and
    /// NO_DATA returns to the timetable (and stops the carried delay). Given times must not go
    /// backwards; carried times are clamped so that the trip never goes back in time.
    /// - parameter reference: POSIX seconds of the run's service day reference.
    /// - returns: the live run, or why the update cannot be applied (never half of it).
    static func apply(_ update: RealtimeTripUpdate, scheduledArrivals: ArraySlice<Int32>,
                      scheduledDepartures: ArraySlice<Int32>, sequences: ArraySlice<Int32>, stops: ArraySlice<Int32>,
                      stopTable: [Timetable.Stop], reference: Int) -> Result<LiveTripTimes, RealtimeRefusal> {
        let arrivalsIn = Array(scheduledArrivals), departuresIn = Array(scheduledDepartures)
        let sequences = Array(sequences), stops = Array(stops)
        let n = arrivalsIn.count
        // Which stop each update names, in order.
        var updateAt = [Int?](repeating: nil, count: n)
        var next = 0
        var anyTime = update.delay != nil
        for (u, stopUpdate) in update.stopTimeUpdates.enumerated() {
            var found: Int? = nil
            // By the id's text among the trip's own stops: feeds of a region may share stop IDs.
            let named = stopUpdate.stopID
            if let sequence = stopUpdate.stopSequence {
                found = (next..<n).first { Int(sequences[$0]) == sequence }
                if let found, let named, stopTable[Int(stops[found])].id != named { return .failure(.unknownStop) }
            } else if let named {
                found = (next..<n).first { stopTable[Int(stops[$0])].id == named }
            }
            guard let position = found else { return .failure(.unknownStop) }
            updateAt[position] = u
            next = position + 1
            let events = [stopUpdate.arrival, stopUpdate.departure].compactMap { $0 }
            if stopUpdate.relationship == .scheduled {
                guard events.contains(where: { $0.delay != nil || $0.time != nil }) else { return .failure(.noTimes) }
            }
            if stopUpdate.relationship != .scheduled || !events.isEmpty { anyTime = true }
        }
        guard anyTime else { return .failure(.noTimes) }
        // Decoding keeps times within `RealtimeInstant.range`; a feed made in memory is checked
        // here too, so that no sum below can overflow.
        let offsets = -maximumOffset...maximumOffset
        let events = update.stopTimeUpdates.flatMap { [$0.arrival, $0.departure] }.compactMap { $0 }
        guard update.delay.map(offsets.contains) ?? true,
              events.allSatisfy({ event in
                  (event.delay.map(offsets.contains) ?? true) && (event.time.map(RealtimeInstant.range.contains) ?? true)
              }) else { return .failure(.timesOutOfRange) }

        var live = LiveTripTimes(arrivals: arrivalsIn, departures: departuresIn, skipped: [Bool](repeating: false, count: n))
        var given = [Bool](repeating: false, count: 2 * n)  // arrival 2i, departure 2i + 1
        var carry = update.delay ?? 0
        func time(_ event: RealtimeStopTimeEvent?, scheduled: Int32) -> Int? {
            guard let event else { return nil }
            if let absolute = event.time { return Int(absolute) - reference }
            return event.delay.map { Int(scheduled) + $0 }
        }
        for i in 0..<n {
            let scheduledArrival = Int(arrivalsIn[i]), scheduledDeparture = Int(departuresIn[i])
            var arrival = scheduledArrival + carry, departure = scheduledDeparture + carry
            if let u = updateAt[i] {
                let stopUpdate = update.stopTimeUpdates[u]
                switch stopUpdate.relationship {
                case .skipped:
                    live.skipped[i] = true
                case .noData, .unscheduled:
                    carry = 0
                    arrival = scheduledArrival
                    departure = scheduledDeparture
                case .scheduled:
                    let givenArrival = time(stopUpdate.arrival, scheduled: arrivalsIn[i])
                    let givenDeparture = time(stopUpdate.departure, scheduled: departuresIn[i])
                    if let a = givenArrival {
                        arrival = a
                        given[2 * i] = true
                    } else if let d = givenDeparture {
                        arrival = scheduledArrival + (d - scheduledDeparture)
                    }
                    if let d = givenDeparture {
                        departure = d
                        given[2 * i + 1] = true
                    } else {
                        departure = scheduledDeparture + (arrival - scheduledArrival)
                    }
                    carry = departure - scheduledDeparture
                }
            }
            guard abs(arrival - scheduledArrival) <= maximumOffset, abs(departure - scheduledDeparture) <= maximumOffset else {
                return .failure(.timesOutOfRange)
            }
            live.arrivals[i] = Int32(arrival)
            live.departures[i] = Int32(departure)
        }
        // Given times must run forwards; the rest is clamped to follow them.
        var lastGiven = Int.min
        for k in 0..<(2 * n) where given[k] {
            let t = Int(k % 2 == 0 ? live.arrivals[k / 2] : live.departures[k / 2])
            if t < lastGiven { return .failure(.timesBackwards) }
            lastGiven = t
        }
        var floor = Int32.min
        for i in 0..<n {
            live.arrivals[i] = max(live.arrivals[i], floor)
            live.departures[i] = max(live.departures[i], live.arrivals[i])
            floor = live.departures[i]
        }
        return .success(live)
    }
}
