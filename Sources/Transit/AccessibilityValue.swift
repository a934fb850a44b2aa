import Planner

/// GTFS `wheelchair_boarding` (stops) and `wheelchair_accessible` (trips) as stored: 0 the feed
/// does not say, 1 accessible, 2 not. Any other value is read as unknown and counted.
enum AccessibilityValue {
    static let unknown: UInt8 = 0
    static let accessible: UInt8 = 1
    static let notAccessible: UInt8 = 2

    /// The column's value in `row`: empty or absent is unknown, as the GTFS reference says; a
    /// value outside 0–2 is unknown too, counted in the report under the file and column.
    static func read(_ row: CSVRecord, _ column: Int?, file: String, column name: String,
                     report: inout GTFSImportReport) -> UInt8 {
        guard let column, row.optionalString(column) != nil else { return unknown }
        guard let value = row.int(column), (0...2).contains(value) else {
            report.skip("\(file): \(name) not 0, 1 or 2 (read as unknown, row kept)")
            return unknown
        }
        return UInt8(value)
    }

    /// A value read back from the timetable file; anything outside 0–2 is unknown.
    static func stored(_ value: Int) -> UInt8 {
        (0...2).contains(value) ? UInt8(value) : unknown
    }

    /// What a ride's trip and its boarding and alighting stops say together: not accessible when
    /// any says 2, step-free when all say 1, else unknown.
    static func ride(trip: UInt8, boarding: UInt8, alighting: UInt8) -> LegAccessibility {
        let values = [trip, boarding, alighting]
        if values.contains(notAccessible) { return .no }
        return values.allSatisfy { $0 == accessible } ? .stepFree : .unknown
    }

    /// Whether a change from stop `a` to stop `b` is known to be step-free, as far as a feed can
    /// say: at the same stop, or between platforms of one station (each platform's
    /// `wheelchair_boarding` promises a step-free way in from the station's entrance). A walk to
    /// another stop crosses streets the feed says nothing of: its accessibility is unknown.
    static func changeIsStepFree(from a: Int32, to b: Int32, in stops: [Timetable.Stop]) -> Bool {
        if a == b { return true }
        guard let station = stops[Int(a)].parentStationID else { return false }
        return stops[Int(b)].parentStationID == station
    }

}
