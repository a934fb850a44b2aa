import Dispatch
import Foundation
import Synchronization
import WireProtocol

/// Fans every `DaemonEvent` out to the `watch` clients and to the daemon's own listeners
/// (`listen`, e.g. `ReminderService`). A `watch` client that is slow loses events rather than
/// slowing the daemon: each has at most `maxEvents` and `maxBytes` waiting (`taken` counts an
/// event out), and what waits is freed when it unsubscribes. The fan-out to `watch` clients
/// (encoding, measuring, one yield per watcher) runs on a serial queue of the hub's own, in
/// publishing order, so the request that caused an event pays for stamping and queueing it,
/// not for 200 watchers.
public final class EventHub: Sendable {
    /// One event as published, with the size of its JSON (what it costs while it waits).
    public struct Event: Sendable {
        public var value: JSONValue
        public var bytes: Int
    }

    private struct Subscriber {
        var continuation: AsyncStream<Event>.Continuation
        var waitingBytes = 0
    }

    private struct State {
        var subscribers: [Int: Subscriber] = [:]
        /// The daemon's own listeners (not `watch` clients, so not counted as watchers).
        var listeners: [@Sendable (DaemonEvent) -> Void] = []
        var nextID = 0
        var closed = false
    }

    public static let maxEvents = 256
    public static let maxBytes = 64 << 10

    private let state = Mutex(State())
    private let timeZone: @Sendable () -> TimeZone
    /// Where events are handed to the watchers, one after another.
    private let fanOut: DispatchQueue

    /// - parameter timeZone: the zone event times are written in (the region's).
    /// - parameter fanOut: the serial queue events reach watchers on (tests pass one they can hold).
    public init(timeZone: @escaping @Sendable () -> TimeZone = { TimeZone.current },
                fanOut: DispatchQueue = DispatchQueue(label: "usefulmap-events", qos: .userInitiated)) {
        self.timeZone = timeZone
        self.fanOut = fanOut
    }

    /// A stream of events until `unsubscribe` or `finishAll`.
    public func subscribe() -> (id: Int, events: AsyncStream<Event>) {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(Self.maxEvents))
        let id = state.withLock { state -> Int in
            if state.closed { continuation.finish() }
            state.nextID += 1
            state.subscribers[state.nextID] = Subscriber(continuation: continuation)
            return state.nextID
        }
        return (id, stream)
    }

    /// The subscriber took `event` off its stream: it no longer counts as waiting.
    public func taken(_ event: Event, by id: Int) {
        state.withLock { state in state.subscribers[id]?.waitingBytes -= event.bytes }
    }

    public func unsubscribe(_ id: Int) {
        let subscriber = state.withLock { $0.subscribers.removeValue(forKey: id) }
        subscriber?.continuation.finish()
    }

    /// Calls `listener` with every event published from now on, on the publisher's thread (so
    /// it should only hand the event on). For the daemon's own parts, e.g. `ReminderService`.
    public func listen(_ listener: @escaping @Sendable (DaemonEvent) -> Void) {
        state.withLock { $0.listeners.append(listener) }
    }

    /// Publishes `{"kind": event.kind, ...event.fields, "at": now}`.
    public func publish(_ daemonEvent: DaemonEvent) {
        for listener in state.withLock({ $0.listeners }) { listener(daemonEvent) }
        var event = daemonEvent.fields
        event["kind"] = .string(daemonEvent.kind)
        event["at"] = .string(WireTime.string(from: Date(), timeZone: timeZone()))
        // Nobody watching (the usual case, e.g. an import's progress): nothing to encode or measure.
        guard state.withLock({ !$0.subscribers.isEmpty }) else { return }
        let value = JSONValue.object(event)
        fanOut.async { [self] in deliver(value) }
    }

    /// Hands one event to every watcher subscribed now (on `fanOut`).
    private func deliver(_ value: JSONValue) {
        let published = Event(value: value, bytes: JSONWriter.data(value).count)
        state.withLock { state in
            for (id, subscriber) in state.subscribers {
                // Far behind in bytes: the newest goes (the stream itself drops the oldest by count).
                guard subscriber.waitingBytes + published.bytes <= Self.maxBytes else { continue }
                state.subscribers[id]?.waitingBytes += published.bytes
                if case .dropped(let oldest) = subscriber.continuation.yield(published) {
                    state.subscribers[id]?.waitingBytes -= oldest.bytes
                }
            }
        }
    }

    /// Ends every stream (the daemon is stopping), after the events already published.
    public func finishAll() {
        fanOut.sync {}
        let subscribers = state.withLock { state -> [Subscriber] in
            state.closed = true
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.continuation.finish() }
    }

    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Bytes of events handed to subscriber `id` and not yet taken; nil once it is gone.
    func waitingBytes(of id: Int) -> Int? { state.withLock { $0.subscribers[id]?.waitingBytes } }
}
