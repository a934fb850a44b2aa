/// A request from a client: `{"jsonrpc":"2.0","id":1,"method":"status","params":{}}`.
/// Without `id` it is a notification: the daemon runs it and sends no answer.
public struct WireRequest: Hashable, Sendable, Codable {
    public var jsonrpc: String
    public var id: RequestID?
    public var method: String
    public var params: JSONValue?

    public init(id: RequestID?, method: String, params: JSONValue? = nil) {
        self.jsonrpc = "2.0"
        self.id = id
        self.method = method
        self.params = params
    }

    /// The request as a JSON object; an absent `id` (a notification) or `params` is left out.
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = ["jsonrpc": .string(jsonrpc), "method": .string(method)]
        object["id"] = id?.jsonValue
        object["params"] = params
        return .object(object)
    }
}

/// The single final answer to a request: exactly one of `result` and `error`.
public struct WireResponse: Hashable, Sendable, Codable {
    public var jsonrpc: String
    /// Null only when the request was too broken to have an id.
    public var id: RequestID?
    public var result: JSONValue?
    public var error: WireError?

    public init(id: RequestID?, result: JSONValue) {
        self.jsonrpc = "2.0"
        self.id = id
        self.result = result
        self.error = nil
    }

    public init(id: RequestID?, error: WireError) {
        self.jsonrpc = "2.0"
        self.id = id
        self.result = nil
        self.error = error
    }

    /// The response as a JSON object (what goes on the wire).
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = ["jsonrpc": .string(jsonrpc), "id": id?.jsonValue ?? .null]
        if let error {
            object["error"] = .object(["code": .number(Double(error.number)), "message": .string(error.message),
                                       "data": error.wireData])
        } else {
            object["result"] = result ?? .null
        }
        return .object(object)
    }
}

/// A message the daemon sends before the final response of a streaming method
/// (`region.import` progress, `watch` events). It has no `id` of its own;
/// `params.request_id` names the request it belongs to.
public struct WireNotification: Hashable, Sendable, Codable {
    public var jsonrpc: String
    public var method: String
    public var params: JSONValue

    public init(method: String, params: JSONValue) {
        self.jsonrpc = "2.0"
        self.method = method
        self.params = params
    }

    public var jsonValue: JSONValue {
        .object(["jsonrpc": .string(jsonrpc), "method": .string(method), "params": params])
    }
}

/// Anything a client may read from the daemon: a notification or the final response.
public enum WireIncoming: Hashable, Sendable {
    case notification(WireNotification)
    case response(WireResponse)
}

/// A typed answer as the daemon writes it: the result is encoded once, with the envelope.
struct ResultEnvelope<Result: Encodable>: Encodable {
    var id: RequestID
    var jsonrpc = "2.0"
    var result: Result
}

/// An error answer; `id` is written as null when the request had none that could be read.
struct ErrorEnvelope: Encodable {
    var error: WireError
    @NullWhenNil var id: RequestID?
    var jsonrpc = "2.0"
}

/// Any line a client reads, decoded once against the result type it expects: a notification
/// has `method` and no `id`; an answer has `result` or `error`.
struct ReplyEnvelope<Result: Decodable>: Decodable {
    var id: RequestID?
    var method: String?
    var params: JSONValue?
    var result: Result?
    var error: WireError?
}
