/// What a traveller needs from the way: anything, or step-free (wheelchair) travel.
/// A plan setting; walk legs then use the wheelchair street profile and transit searches the
/// step-free view of the timetable (docs/transit.md "Step-free trips").
public enum AccessNeed: String, Sendable, Codable, CaseIterable {
    /// No need: every way and every trip.
    case any
    /// Step-free, allowing trips and stops whose accessibility the feed does not know
    /// (each such leg is marked `LegAccessibility.unknown`).
    case wheelchair
    /// Step-free, and only trips and stops the feed says are accessible.
    case wheelchairStrict = "wheelchair_strict"

    /// Whether the traveller needs step-free ways (either wheelchair level).
    public var isStepFree: Bool { self != .any }
}
