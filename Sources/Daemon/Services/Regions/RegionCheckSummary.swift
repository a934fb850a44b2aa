/// What one scheduled check of a region did, for the log: what it rebuilt (`nothing`,
/// `timetable`, `streets and timetable`) or why it failed.
struct RegionCheckSummary: Sendable {
    var rebuilt: String
    var failure: (code: String, message: String)?
}
