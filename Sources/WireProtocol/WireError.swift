/// An error as it travels on the wire: a stable snake_case `code` for scripts, a message
/// naming what was wrong for people, and optional structured `data`.
///
/// ```json
/// {"code":"not_found","message":"plan 12 does not exist","data":{"plan_id":12}}
/// ```
public struct WireError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    public var code: String
    public var message: String
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

    /// The codes the daemon itself produces. Other layers' codes (`RoutingError.code`,
    /// `PlannerError.code`, `StoreError.code`) pass through unchanged, so `code` stays a string.
    public struct Code: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The line was not JSON, or not a JSON-RPC request object.
        public static let parseError = Code(rawValue: "parse_error")
        /// The request object lacks `method` or has a wrong `jsonrpc`/`id`.
        public static let invalidRequest = Code(rawValue: "invalid_request")
        public static let methodNotFound = Code(rawValue: "method_not_found")
        /// A param is missing, has the wrong type or an impossible value; the message names it.
        public static let invalidParams = Code(rawValue: "invalid_params")
        /// A line longer than `WireLimits.maximumLineBytes`; the connection is closed after it.
        public static let lineTooLong = Code(rawValue: "line_too_long")
        /// The client speaks a protocol version this daemon no longer (or not yet) understands.
        public static let unsupportedVersion = Code(rawValue: "unsupported_version")
        public static let notFound = Code(rawValue: "not_found")
        public static let alreadyExists = Code(rawValue: "already_exists")
        /// No region is imported, so there is nothing to route or search in.
        public static let noRegion = Code(rawValue: "no_region")
        public static let unsupportedInRegion = Code(rawValue: "unsupported_in_region")
        public static let noRoute = Code(rawValue: "no_route")
        /// A place given as text matched nothing.
        public static let placeNotFound = Code(rawValue: "place_not_found")
        /// `@here` was used before any location was set.
        public static let noLocation = Code(rawValue: "no_location")
        /// The work was cancelled (the daemon is stopping, or a newer edit superseded it).
        public static let cancelled = Code(rawValue: "cancelled")
        /// The daemon is shutting down and accepts no new work.
        public static let shuttingDown = Code(rawValue: "shutting_down")
        public static let internalError = Code(rawValue: "internal_error")
    }
}
