/// What a trip must be for the traveller: `any`, `wheelchair` (step-free, data the feed does not
/// give allowed and marked unknown) or `wheelchair_strict` (only what the feed says is accessible).
/// A value outside these is refused as `invalid_params` naming it.
public enum AccessLevel: String, Hashable, Sendable, Codable, CaseIterable {
    case any
    case wheelchair
    case wheelchairStrict = "wheelchair_strict"

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let level = AccessLevel(rawValue: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription:
                "\"\(text)\" is not an access level; use \(Self.allCases.map(\.rawValue).joined(separator: ", "))"))
        }
        self = level
    }
}
