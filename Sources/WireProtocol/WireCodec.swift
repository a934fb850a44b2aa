import Foundation

/// Turns messages into lines and lines into messages, with an error that names the problem.
///
/// ```swift
/// let line = try WireCodec.line(for: WireRequest(id: .number(1), method: "status"))
/// switch WireCodec.request(from: line) { ... }
/// ```
public enum WireCodec {
    /// Keys are written sorted so that the same value is always the same line.
    public static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    public static var decoder: JSONDecoder { JSONDecoder() }

    /// One message as a line, newline included. A message never contains a raw newline:
    /// JSON escapes them inside strings.
    public static func line<T: Encodable>(for message: T) throws -> Data {
        var data: Data
        switch message {
        case let response as WireResponse: data = JSONWriter.data(response.jsonValue)
        case let notification as WireNotification: data = JSONWriter.data(notification.jsonValue)
        case let value as JSONValue: data = JSONWriter.data(value)
        default: data = try encoder.encode(message)
        }
        data.append(0x0A)
        return data
    }

    /// Reads one request line (without its newline). On failure returns the id when it could
    /// be read, so that the error response still names the request.
    public static func request(from line: Data) -> Result<WireRequest, RequestFailure> {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            return .failure(RequestFailure(id: nil, error: WireError(.parseError, "the line is not valid JSON (\(error))")))
        }
        guard case .object(let object) = value else {
            return .failure(RequestFailure(id: nil, error: WireError(.invalidRequest, "a request must be a JSON object")))
        }
        var id: RequestID?
        switch object["id"] {
        case .number(let number)? where number.rounded() == number && abs(number) < 9e15:
            id = .number(Int64(number))
        case .string(let text)?:
            id = .string(text)
        case nil, .null?:
            return .failure(RequestFailure(id: nil, error: WireError(.invalidRequest, "the request has no \"id\"")))
        default:
            return .failure(RequestFailure(id: nil, error: WireError(.invalidRequest, "\"id\" must be an integer or a string")))
        }
        if let version = object["jsonrpc"], version != .string("2.0") {
            return .failure(RequestFailure(id: id, error: WireError(.invalidRequest, "\"jsonrpc\" must be \"2.0\"")))
        }
        guard case .string(let method)? = object["method"], !method.isEmpty else {
            return .failure(RequestFailure(id: id, error: WireError(.invalidRequest, "\"method\" must be a non-empty string")))
        }
        let params = object["params"]
        switch params {
        case nil, .null?, .object?: break
        default:
            return .failure(RequestFailure(id: id, error: WireError(.invalidParams, "\"params\" must be an object")))
        }
        return .success(WireRequest(id: id ?? .number(0), method: method, params: params))
    }

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
            return .response(WireResponse(id: id, error: try error.decode(as: WireError.self)))
        }
        guard let result = object["result"] else { throw WireError(.parseError, "a response needs result or error") }
        return .response(WireResponse(id: id, result: result))
    }

    /// Decodes a method's params, naming the missing or ill-typed param in the error.
    public static func params<T: Decodable>(_ params: JSONValue?, as type: T.Type) throws -> T {
        do {
            return try (params ?? .object([:])).decode(as: T.self)
        } catch let error as DecodingError {
            throw WireError(.invalidParams, describe(error))
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
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

/// A request line that could not be accepted, with the id when it was readable.
public struct RequestFailure: Error, Hashable, Sendable {
    public var id: RequestID?
    public var error: WireError
}
