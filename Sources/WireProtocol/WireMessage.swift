/// A request from a client: `{"jsonrpc":"2.0","id":1,"method":"status","params":{}}`.
public struct WireRequest: Hashable, Sendable, Codable {
    public var jsonrpc: String
    public var id: RequestID
    public var method: String
    public var params: JSONValue?

    public init(id: RequestID, method: String, params: JSONValue? = nil) {
        self.jsonrpc = "2.0"
        self.id = id
        self.method = method
        self.params = params
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
        var object: [String: JSONValue] = ["jsonrpc": .string(jsonrpc)]
        switch id {
        case .number(let number)?: object["id"] = .number(Double(number))
        case .string(let text)?: object["id"] = .string(text)
        case nil: object["id"] = .null
        }
        if let error {
            var fields: [String: JSONValue] = ["code": .string(error.code), "message": .string(error.message)]
            if let data = error.data { fields["data"] = data }
            object["error"] = .object(fields)
        } else {
            object["result"] = result ?? .null
        }
        return .object(object)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(jsonrpc, forKey: .jsonrpc)
        try container.encode(id, forKey: .id) // explicit null, as JSON-RPC asks
        if let error {
            try container.encode(error, forKey: .error)
        } else {
            try container.encode(result ?? .null, forKey: .result)
        }
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
