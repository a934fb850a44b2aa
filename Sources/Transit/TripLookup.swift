import Foundation

/// The timetable's trips by trip_id, and each trip's pattern: how a ride met before (a plan's,
/// a realtime update's) is found again. Two `Int32` a trip (the trips in the order of their ids,
/// searched by halves, and the patterns). Apart from the realtime index (`RealtimeTripIndex`,
/// its dictionaries about 100 bytes a trip), which only realtime needs: a daemon finding the
/// calls of its answers' rides in three Tampere regions kept 1.8 MB for that index (issue 43).
struct TripLookup: Sendable {
    /// The timetable's trip_ids (its own array, shared, not copied).
    private let ids: [String]
    /// The trips in the order of their ids, trips of one id (two feeds', or a frequency's runs
    /// of one trip) in trip order.
    private let byID: [Int32]
    /// Per trip: its pattern.
    let tripPattern: [Int32]

    init(timetable tt: Timetable) {
        ids = tt.tripIDs
        var pattern = [Int32](repeating: 0, count: tt.tripIDs.count)
        for (p, pat) in tt.patterns.enumerated() {
            for trip in Int(pat.firstTrip)..<Int(pat.firstTrip + pat.tripCount) { pattern[trip] = Int32(p) }
        }
        tripPattern = pattern
        let ids = tt.tripIDs
        byID = (0..<Int32(ids.count)).sorted { ids[Int($0)] < ids[Int($1)] || (ids[Int($0)] == ids[Int($1)] && $0 < $1) }
    }

    /// The trips with trip_id `id`, in trip order; empty when none has it.
    func trips(withID id: String) -> ArraySlice<Int32> {
        var low = 0, high = byID.count
        while low < high {
            let middle = (low + high) / 2
            if ids[Int(byID[middle])] < id { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < byID.count, ids[Int(byID[end])] == id { end += 1 }
        return byID[low..<end]
    }
}
