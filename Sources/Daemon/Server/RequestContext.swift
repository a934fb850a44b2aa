import Foundation
import WireProtocol

/// What a method handler gets besides its params: a way to send notifications before its
/// final response (streaming methods), and a logger carrying the request's metadata.
public struct RequestContext: Sendable {
    /// Nil when the request is a notification (it gets no answer).
    public let id: RequestID?
    public let method: WireMethod
    public let logger: DaemonLogger
    let sendNotification: @Sendable (WireNotification) -> Bool
    /// Sends a notification already written as a line (newline included) and droppable as an
    /// event is: `watch`'s events, encoded once for every watcher. False once the client is gone.
    let sendNotificationLine: @Sendable (Data) -> Bool

    public init(id: RequestID?, method: WireMethod, logger: DaemonLogger,
                sendNotificationLine: @escaping @Sendable (Data) -> Bool = { _ in false },
                sendNotification: @escaping @Sendable (WireNotification) -> Bool) {
        self.id = id
        self.method = method
        self.logger = logger
        self.sendNotificationLine = sendNotificationLine
        self.sendNotification = sendNotification
    }

    /// The request's id as notifications carry it in `params.request_id`.
    var requestIDValue: JSONValue { id?.jsonValue ?? .null }

    /// Sends a notification tied to this request (`params.request_id`). Returns false once
    /// the client is gone.
    @discardableResult
    public func notify(_ method: String, _ params: [String: JSONValue]) -> Bool {
        var params = params
        params["request_id"] = requestIDValue
        return sendNotification(WireNotification(method: method, params: .object(params)))
    }
}
