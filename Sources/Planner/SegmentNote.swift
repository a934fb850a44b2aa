/// What a segment says about itself, stored with the plan (migration 0018): why it has its mode
/// (a hop walked because walking is no slower than the ride, a ride the user chose although
/// walking is no slower) and why it has no leg (the routing error of the computation that left
/// it empty), so `plan show` says both after a restart as before it.
public struct SegmentNote: Hashable, Sendable, Codable {
    /// "walked: walking (6 min) is no slower than transit (9 min)"; nil when nothing was chosen.
    public var mode: String?
    /// The code and message of the routing error that left the leg empty (`RoutingError.code`).
    public var errorCode: String?
    public var errorMessage: String?

    public init(mode: String? = nil, errorCode: String? = nil, errorMessage: String? = nil) {
        self.mode = mode
        self.errorCode = errorCode
        self.errorMessage = errorMessage
    }

    /// Nothing to say: the plan keeps no such note.
    public var isEmpty: Bool { mode == nil && errorCode == nil }
}

extension RoutePlan {
    /// Sets the mode note of segment `index` (nil clears it), keeping its error.
    mutating func setModeNote(_ text: String?, ofSegment index: Int) {
        let key = segmentKey(index)
        var note = notes[key] ?? SegmentNote()
        note.mode = text
        notes[key] = note.isEmpty ? nil : note
    }

    /// The routing errors of a computation: `failures` (by segment) are stored with their
    /// segments, and every other segment forgets an error it had (its leg was found, or not asked).
    mutating func settingRoutingErrors(_ failures: [SegmentFailure]) {
        let keys = segmentKeys
        for (index, key) in keys.enumerated() {
            var note = notes[key] ?? SegmentNote()
            let failure = failures.first { $0.segment == index }
            note.errorCode = failure?.error.code
            note.errorMessage = failure?.error.message
            notes[key] = note.isEmpty ? nil : note
        }
    }
}
