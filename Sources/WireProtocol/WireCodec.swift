import FoundationEssentials

/// Turns messages into lines and lines into messages, with an error that names the problem:
/// the one codec of the protocol at both ends. umctl (`WireClient`), the web gateway and the
/// daemon's server write and read every request, answer and event line through it
/// (`ProtocolCodecRulesTests` keeps `JSONWriter` and `JSONParser` out of them).
/// Key names come from one strategy: Swift's camelCase properties are snake_case on the wire.
///
/// ```swift
/// switch WireCodec.requests(from: line) {
/// case .single(.success(let request)): let params = try request.params(Params.PlanID.self) ...
/// case .single(.failure(let failure)): WireCodec.errorAnswer(id: failure.id, error: failure.error) ...
/// case .batch(let requests): ...
/// }
/// let answer = try WireCodec.resultAnswer(id: .number(1), result: DeletedDocument(deleted: 3))
/// ```
public enum WireCodec {
    /// Keys are written sorted so that the same value is always the same line.
    public static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
    }

    public static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    /// One message as a line, newline included. A message never contains a raw newline:
    /// JSON escapes them inside strings.
    public static func line<T: Encodable>(for message: T) throws -> Data {
        var data: Data
        switch message {
        case let request as WireRequest: data = JSONWriter.data(request)
        case let response as WireResponse: data = JSONWriter.data(response.jsonValue)
        case let notification as WireNotification: data = JSONWriter.data(notification.jsonValue)
        case let value as JSONValue: data = JSONWriter.data(value)
        default: data = try encoder.encode(message)
        }
        data.append(0x0A)
        return data
    }

    /// A request's JSON text (no newline), as umctl sends it and `requests(from:)` reads it;
    /// the web gateway hands the daemon its calls so too.
    public static func requestText(_ request: WireRequest) -> Data {
        JSONWriter.data(request)
    }

    // MARK: - JSON values (event lines, the web gateway's bodies, traces)

    /// A value's JSON text (no newline): compact, keys sorted, as every line of the protocol is
    /// written (`EventLine` writes an event's members with it, the web app's event stream its events).
    public static func text(of value: JSONValue) -> Data {
        JSONWriter.data(value)
    }

    /// Reads a JSON text (the web gateway's body of params, the bench's lines of the daemon's at-once trace).
    /// - throws: what the reader found wrong, with where.
    public static func value(from text: Data) throws -> JSONValue {
        try JSONParser.parse(text)
    }

    // MARK: - Writing answers (the daemon)

    /// The answer to a request, its result encoded once with the envelope (no newline).
    public static func resultAnswer<Result: Encodable>(id: RequestID, result: Result) throws -> Data {
        try encoder.encode(ResultEnvelope(id: id, result: result))
    }

    /// An error answer (no newline); `id` nil is written as null.
    public static func errorAnswer(id: RequestID?, error: WireError) -> Data {
        // Encoding these plain values cannot fail; the fallback keeps the answer well-formed anyway.
        (try? encoder.encode(ErrorEnvelope(error: error, id: id)))
            ?? JSONWriter.data(WireResponse(id: id, error: error).jsonValue)
    }

    /// An error answer in protocol version 1's shape (the word as `code`), for the one answer
    /// an old client must still understand: that it is too old.
    public static func versionOneErrorAnswer(id: RequestID, error: WireError) -> Data {
        JSONWriter.data(.object(["jsonrpc": .string("2.0"), "id": id.jsonValue,
                                 "error": .object(["code": .string(error.code), "message": .string(error.message)])]))
    }

    /// The line for a batch's answers: a JSON array of them (none for a batch of notifications).
    public static func batchLine(_ answers: [Data]) -> Data? {
        guard !answers.isEmpty else { return nil }
        var line = Data("[".utf8)
        for (index, answer) in answers.enumerated() {
            if index > 0 { line.append(UInt8(ascii: ",")) }
            line.append(answer)
        }
        line.append(contentsOf: [UInt8(ascii: "]"), 0x0A])
        return line
    }

    // MARK: - Reading requests (the daemon)

    /// Reads one request line (without its newline): a request object, or a batch array of
    /// them. A line that is not JSON, an empty batch or one longer than `WireLimits.maximumBatchCalls`
    /// is one failure.
    public static func requests(from line: Data) -> RequestLine {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            return .single(.failure(RequestFailure(id: nil, error: WireError(.parseError, "the line is not valid JSON (\(error))"))))
        }
        guard case .array(let elements) = value else { return .single(request(from: value, document: line)) }
        guard !elements.isEmpty else {
            return .single(.failure(RequestFailure(id: nil, error: WireError(.invalidRequest, "a batch must not be empty"))))
        }
        guard elements.count <= WireLimits.maximumBatchCalls else {
            return .single(.failure(RequestFailure(id: nil, error: WireError(.invalidRequest,
                "a batch holds at most \(WireLimits.maximumBatchCalls) calls; this one has \(elements.count) (send several batches)"))))
        }
        // Each request of a batch is written back on its own so that its params decode like a line's.
        return .batch(elements.map { request(from: $0, document: JSONWriter.data($0)) })
    }

    /// Reads one request object. On failure returns the id when it could be read, so that the
    /// error answer still names the request.
    static func request(from value: JSONValue, document: Data) -> Result<IncomingRequest, RequestFailure> {
        guard case .object(let object) = value else {
            return .failure(RequestFailure(id: nil, error: WireError(.invalidRequest, "a request must be a JSON object")))
        }
        var id: RequestID?
        switch object["id"] {
        case nil: id = nil // a notification
        case .number(let number)? where number.rounded() == number && abs(number) < 9e15:
            id = .number(Int64(number))
        case .string(let text)?:
            id = .string(text)
        case .null?:
            return .failure(RequestFailure(id: nil, error: WireError(.invalidRequest, "\"id\" must not be null")))
        default:
            return .failure(RequestFailure(id: nil, error: WireError(.invalidRequest, "\"id\" must be an integer or a string")))
        }
        if let version = object["jsonrpc"], version != .string("2.0") {
            return .failure(RequestFailure(id: id, error: WireError(.invalidRequest, "\"jsonrpc\" must be \"2.0\"")))
        }
        guard case .string(let method)? = object["method"], !method.isEmpty else {
            return .failure(RequestFailure(id: id, error: WireError(.invalidRequest, "\"method\" must be a non-empty string")))
        }
        let members: [String: JSONValue]
        switch object["params"] {
        case nil, .null?: members = [:]
        case .object(let found)?: members = found
        default:
            return .failure(RequestFailure(id: id, error: WireError(.invalidParams, "\"params\" must be an object")))
        }
        return .success(IncomingRequest(id: id, method: method, document: members.isEmpty ? nil : document, members: members))
    }

    // MARK: - Reading answers (the client)

    /// Reads a line the daemon sent: a notification (no `id`, has `method`) or a response.
    public static func incoming(from line: Data) throws -> WireIncoming {
        let value = try JSONParser.parse(line)
        guard case .object(let object) = value else { throw WireError(.parseError, "a message must be a JSON object") }
        if case .string(let method)? = object["method"], object["id"] == nil {
            return .notification(WireNotification(method: method, params: object["params"] ?? .null))
        }
        let id: RequestID?
        switch object["id"] {
        case .number(let number)?: id = .number(Int64(number))
        case .string(let text)?: id = .string(text)
        default: id = nil
        }
        if let error = object["error"], error != .null {
            return .response(WireResponse(id: id, error: try JSONValueDecoder.decode(WireError.self, from: error)))
        }
        guard let result = object["result"] else { throw WireError(.parseError, "a response needs result or error") }
        return .response(WireResponse(id: id, result: result))
    }

    /// Reads a result the daemon sent as `T` with `JSONValueDecoder` (the client's decoder:
    /// no Foundation `JSONDecoder` and its conformance scans in a short-lived process).
    /// - throws: `WireClientError.invalidResponse` naming the method, the key and what was wrong.
    public static func answer<T: Decodable>(_ type: T.Type, from value: JSONValue, method: String) throws -> T {
        do {
            return try JSONValueDecoder.decode(T.self, from: value)
        } catch {
            throw WireClientError.invalidResponse("the \(method) answer did not have the expected shape: \(JSONValueDecoder.describe(error))")
        }
    }

    /// Reads one line the daemon sent as `T` (an answer envelope).
    /// - throws: `WireClientError.invalidResponse` when the line is not JSON or not of that shape.
    public static func answer<T: Decodable>(_ type: T.Type, fromLine line: Data, method: String) throws -> T {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            throw WireClientError.invalidResponse("the \(method) answer is not JSON: \(error)")
        }
        return try answer(T.self, from: value, method: method)
    }

    // MARK: - Params

    /// Runs a decoding of params, turning a `DecodingError` into `invalid_params` naming the param.
    static func decodingParams<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DecodingError {
            throw WireError(.invalidParams, describe(error))
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [CodingKey]) -> String {
            let named = keys.first?.stringValue == ParamsCarrierKey.params.stringValue ? Array(keys.dropFirst()) : keys
            return named.map { $0.intValue.map { "[\($0)]" } ?? snakeCase($0.stringValue) }.joined(separator: ".")
        }
        switch error {
        case let .keyNotFound(key, context):
            return "missing param \"\(path(context.codingPath + [key]))\""
        case let .typeMismatch(type, context):
            return "param \"\(path(context.codingPath))\" must be \(typeName(type))"
        case let .valueNotFound(type, context):
            return "param \"\(path(context.codingPath))\" must be \(typeName(type)), not null"
        case let .dataCorrupted(context):
            let name = path(context.codingPath)
            return name.isEmpty ? context.debugDescription : "param \"\(name)\": \(context.debugDescription)"
        @unknown default:
            return "invalid params"
        }
    }

    /// A property name as the wire spells it (`arriveBy` → `arrive_by`, `tripID` → `trip_id`).
    static func snakeCase(_ name: String) -> String {
        var result = ""
        var previous: Character?
        for character in name {
            if character.isUppercase, let previous, previous.isLowercase || previous.isNumber { result.append("_") }
            result.append(contentsOf: character.lowercased())
            previous = character
        }
        return result
    }

    static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Int64.Type: "an integer"
        case is Double.Type: "a number"
        default: type is any Collection.Type ? "an array" : "an object"
        }
    }
}

/// What one request line holds: one request, or a batch of them.
public enum RequestLine: Sendable {
    case single(Result<IncomingRequest, RequestFailure>)
    case batch([Result<IncomingRequest, RequestFailure>])
}

/// One request read from a line: its id (nil for a notification), its method, and its params
/// still as JSON text, decoded once when the method's params type is known.
public struct IncomingRequest: Sendable {
    public var id: RequestID?
    public var method: String
    /// The request object's JSON text; nil when its params are absent or `{}`.
    let document: Data?
    /// The params' members as the line's parse read them; empty when absent or `{}`.
    let members: [String: JSONValue]

    public var isNotification: Bool { id == nil }

    /// Decodes the params as `T` straight from the request's text (absent params read as `{}`);
    /// the params of `hello` and `status` from the parsed members when they are plain
    /// (`ReadFromParsedParams`).
    /// - throws: `invalid_params` naming the missing or ill-typed param, or the params the
    ///   method does not take.
    public func params<T: Decodable>(_ type: T.Type) throws -> T {
        let params = try decodedParams(type)
        try refuseUnknownMembers(of: params)
        return params
    }

    /// Refuses members `params` does not read, naming them: a misspelt `expected_generaton`, or
    /// a condition a method does not check, must not pass silently as "no condition". The
    /// members a params type reads are those it writes back, learnt once per type
    /// (`ParamsMemberNames`); a member given as null is taken as absent.
    private func refuseUnknownMembers(of params: some Decodable) throws {
        guard !members.isEmpty else { return }
        let unknown = ParamsMemberNames.unknown(members, readAs: params)
        guard !unknown.isEmpty else { return }
        let names = unknown.map { "\"\($0)\"" }.joined(separator: ", ")
        throw WireError(.invalidParams, "\(method) does not take \(unknown.count == 1 ? "param" : "params") \(names)")
    }

    private func decodedParams<T: Decodable>(_ type: T.Type) throws -> T {
        if let reader = T.self as? any ReadFromParsedParams.Type, let params = reader.read(members) as? T { return params }
        return try WireCodec.decodingParams {
            let decoder = WireCodec.decoder
            do {
                if let document, let params = try decoder.decode(ParamsCarrier<T>.self, from: document).params { return params }
            } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
                if let document, let params = try? JSONParser.parse(document)["params"],
                   let message = UnfitNumberFinder.message(params: params, as: T.self) {
                    throw WireError(.invalidParams, message)
                }
                throw DecodingError.dataCorrupted(context)
            }
            return try decoder.decode(T.self, from: Data("{}".utf8))
        }
    }
}

/// Params read from the request's parsed members without `JSONDecoder`, for the methods every
/// umctl process sends (`hello`, `status`): `JSONDecoder` reads the line's text again, and was
/// most of what the daemon spent on a `hello`. Only plain params are read so, to the same value
/// `JSONDecoder` gives; for anything else `read` returns nil and `JSONDecoder` reads them
/// (its errors name the param).
protocol ReadFromParsedParams {
    /// - parameter members: the params' members; empty when the params are absent or `{}`.
    static func read(_ members: [String: JSONValue]) -> Self?
}

extension Params.Empty: ReadFromParsedParams {
    static func read(_ members: [String: JSONValue]) -> Params.Empty? { members.isEmpty ? Params.Empty() : nil }
}

extension Params.Hello: ReadFromParsedParams {
    /// `protocol_version` a whole number that fits (as `JSONDecoder` reads `2.0` or `2e0` as 2),
    /// `client` absent, null or a string, and no other member.
    static func read(_ members: [String: JSONValue]) -> Params.Hello? {
        guard members.keys.allSatisfy({ $0 == "protocol_version" || $0 == "client" }),
              case .number(let number)? = members["protocol_version"], let version = Int(exactly: number) else { return nil }
        switch members["client"] {
        case nil, .null?: return Params.Hello(protocolVersion: version)
        // A replacement character may stand for what `JSONDecoder` refuses (a lone surrogate).
        case .string(let client)? where !client.unicodeScalars.contains("\u{FFFD}"):
            return Params.Hello(protocolVersion: version, client: client)
        default: return nil
        }
    }
}

private enum ParamsCarrierKey: String, CodingKey { case params }

/// Reads only the `params` member of a request object.
private struct ParamsCarrier<T: Decodable>: Decodable {
    var params: T?

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: ParamsCarrierKey.self)
        params = try container.decodeIfPresent(T.self, forKey: .params)
    }
}

/// A request that could not be accepted, with the id when it was readable.
public struct RequestFailure: Error, Hashable, Sendable {
    public var id: RequestID?
    public var error: WireError
}
