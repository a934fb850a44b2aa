import Foundation
import WireProtocol

/// What a method handler gets: its params, a way to send notifications before its final
/// response (streaming methods), and a logger carrying the request's metadata.
public struct RequestContext: Sendable {
    public let id: RequestID
    public let method: WireMethod
    public let params: JSONValue?
    public let logger: DaemonLogger
    let sendNotification: @Sendable (WireNotification) -> Bool

    public init(id: RequestID, method: WireMethod, params: JSONValue?, logger: DaemonLogger,
                sendNotification: @escaping @Sendable (WireNotification) -> Bool) {
        self.id = id
        self.method = method
        self.params = params
        self.logger = logger
        self.sendNotification = sendNotification
    }

    /// Decodes the params, naming a missing or ill-typed one in the `invalid_params` error.
    public func params<T: Decodable>(_ type: T.Type) throws -> T {
        try WireCodec.params(params, as: T.self)
    }

    /// Sends a notification tied to this request (`params.request_id`). Returns false once
    /// the client is gone.
    @discardableResult
    public func notify(_ method: String, _ params: [String: JSONValue]) -> Bool {
        var params = params
        params["request_id"] = try? JSONValue(encoding: id)
        return sendNotification(WireNotification(method: method, params: .object(params)))
    }
}
