/// Which of a ride's two stops a realtime feed says the running trip does not call at (a
/// SKIPPED stop, or one a NO_SERVICE alert closes): the ride can't be taken there, though the
/// trip runs, so it is "does not stop at Keskustori B", not "cancelled" (trial 58 F6).
public enum SkippedCall: String, Hashable, Sendable, Codable {
    case boarding, alighting
}
