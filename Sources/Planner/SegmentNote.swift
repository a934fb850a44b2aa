import Foundation

/// What a segment says about itself, stored with the plan (migration 0018): why it has its mode
/// (a hop walked because walking is no slower than the ride, a ride the user chose although
/// walking is no slower) and why it has no leg (the routing error of the computation that left
/// it empty), so `plan show` says both after a restart as before it. A mode note is true of one
/// leg, the one it was written for (`leg`), and is shown only while its segment has that leg
/// (`RoutePlan.modeNote(ofSegment:)`, issue 39: a ride replaced by a neighbour's mode change kept
/// saying "22 min door to door" of the ride it no longer was).
public struct SegmentNote: Hashable, Sendable, Codable {
    /// "walked: walking (6 min) is no slower than transit (9 min)"; nil when nothing was chosen.
    public var mode: String?
    /// The leg `mode` speaks of: the segment's leg when the note was written, or, written while
    /// the segment had none (an inserted hop's reason, a walk the rule chose), the first leg
    /// computed for it (`bindingModeNotesToTheirLegs`). Not stored: a note is stored only while
    /// true of its segment's leg, and restored bound to that leg.
    public var leg: RouteLeg?
    /// When the segment left then (`RoutePlan.departureTimes`): a walk's minutes are read between
    /// two shown times, so the same walk moved in time may read a minute more or less, and a
    /// ride door to door counts the wait before it.
    public var leaving: Date?
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
    /// The note speaks of the segment's leg as it is now, leaving when it now leaves (no leg yet:
    /// of the leg computed next).
    mutating func setModeNote(_ text: String?, ofSegment index: Int) {
        let key = segmentKey(index)
        var note = notes[key] ?? SegmentNote()
        note.mode = text
        note.leg = text == nil ? nil : legs[index]
        note.leaving = note.leg == nil ? nil : departureTimes()[index]
        notes[key] = note.isEmpty ? nil : note
    }

    /// What segment `index` says of its mode (`plan show`'s `mode:`, the wire's `mode_note`, what
    /// is stored): its note while the segment has the leg the note was written for, leaving when
    /// it left then, or has no leg to contradict it. A note whose leg an edit replaced (a
    /// neighbour's mode change retimed the ride, the engine chose other stops) says nothing until
    /// the planner judges it again; the planner itself still reads it (`note(ofSegment:)`: a walk the walk rule chose stays the
    /// planner's to judge again when its time moves).
    public func modeNote(ofSegment index: Int) -> String? {
        modeNote(ofSegment: index, leaving: { departureTimes()[index] })
    }

    /// Every segment's `modeNote`, the plan's departures computed once (a plan shown or stored
    /// reads them all).
    public var modeNotes: [String?] {
        var departures: [Date?]?
        return legs.indices.map { index in
            modeNote(ofSegment: index, leaving: {
                if departures == nil { departures = departureTimes() }
                return departures?[index] ?? nil
            })
        }
    }

    /// `leaving`: when the segment leaves now, asked only of a note whose leg it still has.
    private func modeNote(ofSegment index: Int, leaving: () -> Date?) -> String? {
        guard let note = note(ofSegment: index), let text = note.mode else { return nil }
        guard let leg = legs[index], let judged = note.leg else { return text }
        return leg.isTheLeg(judged) && leaving() == note.leaving ? text : nil
    }

    /// Each mode note written while its segment had no leg now speaks of the leg computed for it,
    /// leaving when it now leaves (every computation ends so: `Planner.computeLegsReporting`, a
    /// restored plan); a walk rule's reason for a walk gives that walk's minutes as its segment
    /// shows them (`Planner.walkRuleReason(_:readAs:)`).
    mutating func bindingModeNotesToTheirLegs() {
        let keys = segmentKeys
        let awaiting = keys.indices.filter { notes[keys[$0]]?.mode != nil && notes[keys[$0]]?.leg == nil && legs[$0] != nil }
        guard !awaiting.isEmpty else { return }
        let departures = departureTimes(), arrivals = schedule()
        for index in awaiting {
            guard var note = notes[keys[index]], let leg = legs[index], let text = note.mode else { continue }
            if modes[index] == .walk, let leaving = departures[index], let arriving = arrivals[index + 1] {
                let walked = min(arriving, leaving.addingTimeInterval(leg.expectedTravelTime))
                note.mode = Planner.walkRuleReason(text, readAs: ShownTime.text(from: leaving, to: walked))
            }
            note.leg = leg
            note.leaving = departures[index]
            notes[keys[index]] = note
        }
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

extension RouteLeg {
    /// Whether this is `other`, the leg a note was written for: the same mode on the same trips
    /// at the same times, taking as long, whatever else a recompute of it may give otherwise (a
    /// walk's geometry, its price, the planner's marks): `plan refresh` recomputing a moved day
    /// plan's ride dropped its note although `plan show` showed the same leg.
    func isTheLeg(_ other: RouteLeg) -> Bool {
        mode == other.mode && tripIDs == other.tripIDs && departure == other.departure && arrival == other.arrival
            && expectedTravelTime == other.expectedTravelTime
    }
}
