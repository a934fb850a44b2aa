/// What a trip must be for the traveller: `any`, `wheelchair` (step-free, data the feed does not
/// give allowed and marked unknown) or `wheelchair_strict` (only what the feed says is accessible).
/// A value outside these is refused as `invalid_params` naming it (`WireWord`).
public enum AccessLevel: String, WireWord {
    case any
    case wheelchair
    case wheelchairStrict = "wheelchair_strict"
}
