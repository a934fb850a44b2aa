import Planner

/// A place the user saved under a name of their own ("Home", "Work").
///
/// The CLI refers to saved places by `name`, so names are unique; the same `place` (by
/// `Place.id`) cannot be saved twice under different names either.
public struct SavedPlace: Sendable, Hashable, Codable {
    /// The user's name for it; unique among saved places.
    public var name: String
    /// The place as it was found (its own name, coordinate and kind).
    public var place: Place
    public var note: String?

    public init(name: String, place: Place, note: String? = nil) {
        self.name = name
        self.place = place
        self.note = note
    }
}
