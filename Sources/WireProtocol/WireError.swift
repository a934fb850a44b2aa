/// An error as it travels on the wire, as JSON-RPC 2.0 asks: an integer `code` (the
/// specification's codes, or one of ours from -32000 down), a message naming what was wrong
/// for people, and `data` whose `code` is our stable snake_case word for scripts.
///
/// ```json
/// {"code":-32010,"message":"plan 12 does not exist","data":{"code":"not_found","plan_id":12}}
/// ```
/// In Swift, `code` is the word (what callers match on) and `number` the integer.
public struct WireError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The stable word; on the wire it is `data.code`.
    public var code: String
    public var message: String
    /// More structured detail, an object whose fields go into `data` beside `code`.
    public var data: JSONValue?

    public init(_ code: Code, _ message: String, data: JSONValue? = nil) {
        self.code = code.rawValue
        self.message = message
        self.data = data
    }

    public init(code: String, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public var description: String { "\(code): \(message)" }

    /// The JSON-RPC `error.code` for this error's word.
    public var number: Int { Code(rawValue: code).number }

    enum CodingKeys: String, CodingKey {
        case code, message, data
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(number, forKey: .code)
        try container.encode(message, forKey: .message)
        try container.encode(wireData, forKey: .data)
    }

    /// `data` as sent: the word under `code`, then any detail fields.
    public var wireData: JSONValue {
        var fields: [String: JSONValue] = [:]
        if case .object(let detail)? = data { fields = detail }
        fields["code"] = .string(code)
        return .object(fields)
    }

    /// Reads an error a daemon sent. An error without our word (another JSON-RPC peer) keeps
    /// its number as the word, so nothing is lost; a version 1 daemon's word-as-code is read
    /// too, so that its "unsupported version" reaches the person.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        message = try container.decode(String.self, forKey: .message)
        if let word = try? container.decode(String.self, forKey: .code) {
            code = word
            data = try container.decodeIfPresent(JSONValue.self, forKey: .data)
            return
        }
        let number = try container.decode(Int.self, forKey: .code)
        var detail = try container.decodeIfPresent(JSONValue.self, forKey: .data)
        if case .object(var fields)? = detail, case .string(let word)? = fields.removeValue(forKey: "code") {
            code = word
            detail = fields.isEmpty ? nil : .object(fields)
        } else {
            code = Code.word(for: number)
        }
        data = detail
    }

    /// The words the daemon itself produces, each with its JSON-RPC number. Other layers'
    /// words (`RoutingError.code`, `PlannerError.code`, `StoreError.code`) pass through
    /// unchanged with the number -32000 unless listed here; `docs/protocol.md` has the table.
    public struct Code: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The line was not JSON.
        public static let parseError = Code(rawValue: "parse_error")
        /// Not a JSON-RPC request object: no `method`, a wrong `jsonrpc` or `id`, an empty batch or
        /// one of more than `WireLimits.maximumBatchCalls` calls.
        public static let invalidRequest = Code(rawValue: "invalid_request")
        public static let methodNotFound = Code(rawValue: "method_not_found")
        /// A param is missing, has the wrong type or an impossible value; the message names it.
        public static let invalidParams = Code(rawValue: "invalid_params")
        public static let internalError = Code(rawValue: "internal_error")
        /// Any other layer's error; its own word is in `data.code`.
        public static let applicationError = Code(rawValue: "application_error")
        /// A line longer than `WireLimits.maximumLineBytes`; the connection is closed after it.
        public static let lineTooLong = Code(rawValue: "line_too_long")
        /// The client speaks a protocol version this daemon no longer (or not yet) understands.
        public static let unsupportedVersion = Code(rawValue: "unsupported_version")
        /// The daemon is shutting down and accepts no new work.
        public static let shuttingDown = Code(rawValue: "shutting_down")
        /// The connecting user is neither the daemon's user nor root.
        public static let permissionDenied = Code(rawValue: "permission_denied")
        /// The daemon already serves its most connections (`max_connections`); the new one is closed.
        public static let tooManyConnections = Code(rawValue: "too_many_connections")
        /// A batch's answers together passed the connection's output limit (`max_output_kb`);
        /// the calls after that point were not run.
        public static let answerTooLarge = Code(rawValue: "answer_too_large")
        /// The work was cancelled (the daemon is stopping, or a newer edit superseded it).
        public static let cancelled = Code(rawValue: "cancelled")
        public static let notFound = Code(rawValue: "not_found")
        public static let alreadyExists = Code(rawValue: "already_exists")
        /// A plan edit's `expected_generation` is not the plan's: another edit came first.
        public static let conflict = Code(rawValue: "conflict")
        /// No region is imported, so there is nothing to route or search in.
        public static let noRegion = Code(rawValue: "no_region")
        public static let unsupportedInRegion = Code(rawValue: "unsupported_in_region")
        public static let noRoute = Code(rawValue: "no_route")
        /// A place given as text matched nothing.
        public static let placeNotFound = Code(rawValue: "place_not_found")
        /// `@here` was used before any location was set.
        public static let noLocation = Code(rawValue: "no_location")

        /// The specification's five codes, then ours (-32000 to -32099, "server error").
        static let numbers: [Code: Int] = [
            .parseError: -32700, .invalidRequest: -32600, .methodNotFound: -32601, .invalidParams: -32602,
            .internalError: -32603,
            .applicationError: -32000, .lineTooLong: -32001, .unsupportedVersion: -32002, .shuttingDown: -32003,
            .cancelled: -32004, .permissionDenied: -32005, .tooManyConnections: -32006,
            .answerTooLarge: -32007, .notFound: -32010, .alreadyExists: -32011,
            .conflict: -32012, .noRegion: -32020,
            .unsupportedInRegion: -32021, .noRoute: -32022, .placeNotFound: -32023, .noLocation: -32024,
        ]

        /// Every word listed above with its number, for documentation and tests.
        public static var table: [(word: String, number: Int)] {
            numbers.map { ($0.key.rawValue, $0.value) }.sorted { $0.number > $1.number }
        }

        public var number: Int { Self.numbers[self] ?? -32000 }

        static func word(for number: Int) -> String {
            numbers.first { $0.value == number && $0.key != .applicationError }?.key.rawValue ?? String(number)
        }
    }
}
