import Foundation
import Synchronization
import WireProtocol

/// Fans daemon events (plan recomputed, pending update proposed, import progress) out to every
/// `watch` client. Subscribers that are slow lose old events rather than slowing the daemon.
public final class EventHub: Sendable {
    private struct State {
        var subscribers: [Int: AsyncStream<JSONValue>.Continuation] = [:]
        var nextID = 0
        var closed = false
    }

    private let state = Mutex(State())
    private let timeZone: @Sendable () -> TimeZone

    /// - parameter timeZone: the zone event times are written in (the region's).
    public init(timeZone: @escaping @Sendable () -> TimeZone = { TimeZone.current }) {
        self.timeZone = timeZone
    }

    /// A stream of events until `unsubscribe` or `finishAll`.
    public func subscribe() -> (id: Int, events: AsyncStream<JSONValue>) {
        let (stream, continuation) = AsyncStream<JSONValue>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let id = state.withLock { state -> Int in
            if state.closed { continuation.finish() }
            state.nextID += 1
            state.subscribers[state.nextID] = continuation
            return state.nextID
        }
        return (id, stream)
    }

    public func unsubscribe(_ id: Int) {
        let continuation = state.withLock { $0.subscribers.removeValue(forKey: id) }
        continuation?.finish()
    }

    /// Publishes `{"kind": kind, ...fields, "at": now}`.
    public func publish(_ kind: String, _ fields: [String: JSONValue]) {
        var event = fields
        event["kind"] = .string(kind)
        event["at"] = .string(WireTime.string(from: Date(), timeZone: timeZone()))
        let value = JSONValue.object(event)
        let subscribers = state.withLock { Array($0.subscribers.values) }
        for subscriber in subscribers { subscriber.yield(value) }
    }

    /// Ends every stream (the daemon is stopping).
    public func finishAll() {
        let subscribers = state.withLock { state -> [AsyncStream<JSONValue>.Continuation] in
            state.closed = true
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
    }

    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }
}
