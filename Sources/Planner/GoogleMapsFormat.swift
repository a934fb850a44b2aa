import Foundation

/// The Google Maps link layout, decoded from `Resources/google-maps-format.json` (embedded in the
/// module at build time). That file is the only place the token layout and constants are written;
/// this type only gives them a shape.
struct GoogleMapsFormat: Decodable, Sendable {
    struct Primary: Decodable, Sendable {
        var prefix: String
        var dataKey: String
        var coordinateFractionDigits: Int
        /// Token types that must never be emitted (a place-ID block makes Google ignore coordinates).
        var forbiddenTokenTypes: [String]
        var body: [TokenTemplate]
        var modeValues: [String: String]
    }

    struct Fallback: Decodable, Sendable {
        var prefix: String
        var originKey: String
        var destinationKey: String
        var travelModeKey: String
        var coordinateFractionDigits: Int
        var travelModes: [String: String]
    }

    /// One `!{field}{type}{value}` token; a block (`m`) has children and its value is their count.
    struct TokenTemplate: Decodable, Sendable {
        var field: Int
        var type: String
        var value: String?
        var children: [TokenTemplate]?
    }

    var version: Int
    var primary: Primary
    var fallback: Fallback

    /// The embedded format, or why it can't be used.
    static let embedded: Result<GoogleMapsFormat, PlannerError> = {
        do {
            let format = try JSONDecoder().decode(GoogleMapsFormat.self, from: Data(PackageResources.google_maps_format_json))
            try format.validate()
            return .success(format)
        } catch let error as PlannerError {
            return .failure(error)
        } catch {
            return .failure(.linkFormatInvalid("google-maps-format.json: \(error)"))
        }
    }()

    /// Checks what the builder relies on: every mode has a value, blocks have children and leaves
    /// have values.
    func validate() throws {
        for mode in TravelMode.allCases {
            guard primary.modeValues[mode.rawValue] != nil, fallback.travelModes[mode.rawValue] != nil else {
                throw PlannerError.linkFormatInvalid("no value for mode \(mode.rawValue)")
            }
        }
        func check(_ tokens: [TokenTemplate]) throws {
            for token in tokens {
                guard token.type.count == 1, token.field >= 0 else {
                    throw PlannerError.linkFormatInvalid("bad token !\(token.field)\(token.type)")
                }
                if token.type == "m" {
                    guard let children = token.children, !children.isEmpty, token.value == nil else {
                        throw PlannerError.linkFormatInvalid("block !\(token.field)m needs children and no value")
                    }
                    try check(children)
                } else if token.value == nil || token.children != nil {
                    throw PlannerError.linkFormatInvalid("token !\(token.field)\(token.type) needs a value and no children")
                }
            }
        }
        try check(primary.body)
    }
}
