import Executors
import Foundation
import Synchronization
import WireProtocol

/// Fans every `DaemonEvent` out to the `watch` clients, the web app's event streams and the
/// daemon's own listeners (`listen`, e.g. `ReminderService`: a stream each, removed when its
/// consumer's task ends).
///
/// The request that caused an event pays for stamping and queueing it, never per watcher: the
/// fan-out runs on a thread of the hub's own (`usefulmapd-events`, an `ExecutorThread`, started
/// with the hub: by the daemon before any request lowers its thread's priority), in publishing order. There each event is encoded once
/// (`EventLine`) and handed to every `watch` (`watch(_:)`), whose connection sends it at once
/// or queues it behind what its client has not read yet (no task, no encoding, no thread woken
/// per watcher: 200 watchers that each had a task of the shared pool resumed and an encoding
/// per event kept the sender's answer waiting behind them). A watcher that is slow loses events
/// in its connection's output rather than slowing the daemon. The web app's event streams
/// (`subscribe()`) get the events through a stream each, with at most `maxEvents` and
/// `maxBytes` waiting (`taken` counts an event out). Every watcher ends with its consumer: a
/// `watch` when its `ended` stream terminates, a subscriber when its stream does. No caller
/// ever blocks: `delivered()`, `endWatch` and `finishAll` await the fan-out.
public final class EventHub: Sendable {
    /// One event as published, with the size of its JSON (what it costs while it waits).
    public struct Event: Sendable {
        public var value: JSONValue
        public var bytes: Int
    }

    /// A running `watch`, from `watch(_:)` until `endWatch(_:)`.
    public struct Watch: Sendable {
        public let id: Int
        /// Finishes when its client is gone or the daemon stops; when the task waiting on it
        /// ends or is cancelled, the watch goes with it.
        public let ended: AsyncStream<Void>
        fileprivate let sink: Sink
    }

    public static let maxEvents = 256
    public static let maxBytes = 64 << 10

    private let watchers: Watchers
    /// Where events are handed to the watchers, one after another; it holds `watchers`, never the hub.
    private let fanOut: ExecutorThread<FanOutEntry, Watchers>
    private let timeZone: @Sendable () -> TimeZone

    /// - parameter timeZone: the zone event times are written in (the region's).
    public init(timeZone: @escaping @Sendable () -> TimeZone = { TimeZone.current }) {
        self.timeZone = timeZone
        let watchers = Watchers()
        self.watchers = watchers
        // Its nice value is the creator's: the daemon makes the hub before any request lowers a thread.
        fanOut = ExecutorThread(name: "usefulmapd-events", local: watchers, batchLimit: 64) { entries, watchers in
            for entry in entries { watchers.take(entry) }
        }
    }

    deinit { fanOut.stop() }

    /// Hands every event published from now on to `write`, on the hub's thread, in publishing
    /// order, until `write` returns false (its client is gone), `endWatch`, `finishAll` or the
    /// end of the task that waits on the watch's `ended`.
    /// `write` only queues (a connection's `writeEvent`): it runs once per event per watcher.
    public func watch(_ write: @escaping @Sendable (EventLine) -> Bool) -> Watch {
        let (ended, continuation) = AsyncStream<Void>.makeStream()
        let sink = watchers.state.withLock { state -> Sink in
            state.nextID += 1
            let sink = Sink(id: state.nextID, write: write, ended: continuation)
            if state.closed { continuation.finish() } else { state.sinks.append(sink) }
            return sink
        }
        continuation.onTermination = { [weak watchers] _ in watchers?.remove(sink) }
        return Watch(id: sink.id, ended: ended, sink: sink)
    }

    /// Ends `watch`; returns, once no event can reach it any more, how many it was handed.
    public func endWatch(_ watch: Watch) async -> Int {
        watchers.remove(watch.sink)
        watch.sink.ended.finish()
        // A fan-out that took the watch before it went runs to its end first: after this, nothing
        // reaches the connection behind the watch's final answer.
        await delivered()
        return watch.sink.delivered.load(ordering: .relaxed)
    }

    /// Returns once every event published before the call has been handed to the watchers there
    /// were (suspending, never blocking: the fan-out thread resumes it).
    public func delivered() async {
        await withCheckedContinuation { (passed: CheckedContinuation<Void, Never>) in fanOut.submit(.passed(passed)) }
    }

    /// Holds the delivery of every event published from now on until the gate is opened (a test
    /// sees what `publish` itself did, before any watcher was handed anything). Open it: the
    /// hub's thread waits on it.
    func holdDelivery() -> Gate {
        let gate = Gate()
        fanOut.submit(.held(gate))
        return gate
    }

    /// A stream of events until `unsubscribe`, `finishAll` or the stream's end (its consumer's
    /// task ended or was cancelled): the web app's event stream.
    public func subscribe() -> (id: Int, events: AsyncStream<Event>) {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(Self.maxEvents))
        let id = watchers.state.withLock { state -> Int in
            state.nextID += 1
            if !state.closed { state.subscribers[state.nextID] = Subscriber(continuation: continuation) }
            return state.nextID
        }
        continuation.onTermination = { [weak watchers] _ in
            _ = watchers?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        if watchers.state.withLock({ $0.closed }) { continuation.finish() }
        return (id, stream)
    }

    /// The subscriber took `event` off its stream: it no longer counts as waiting.
    public func taken(_ event: Event, by id: Int) {
        watchers.state.withLock { state in state.subscribers[id]?.waitingBytes -= event.bytes }
    }

    public func unsubscribe(_ id: Int) {
        let subscriber = watchers.state.withLock { $0.subscribers.removeValue(forKey: id) }
        subscriber?.continuation.finish()
    }

    /// The events published from now on that `wanted` keeps (it runs on the publisher's thread:
    /// keep it a test of the kind), as a stream for one of the daemon's own parts, e.g.
    /// `ReminderService`. At most `bufferingNewest` wait; the oldest go first. The listener ends,
    /// and is removed, when its consumer's task ends or is cancelled (the stream terminates).
    public func listen(where wanted: @escaping @Sendable (DaemonEvent) -> Bool = { _ in true },
                       bufferingNewest limit: Int = 256) -> AsyncStream<DaemonEvent> {
        let (stream, continuation) = AsyncStream<DaemonEvent>.makeStream(bufferingPolicy: .bufferingNewest(max(1, limit)))
        let id = watchers.state.withLock { state -> Int in
            state.nextID += 1
            state.listeners[state.nextID] = Listener(wanted: wanted, continuation: continuation)
            return state.nextID
        }
        continuation.onTermination = { [weak watchers] _ in
            _ = watchers?.state.withLock { $0.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    /// The daemon's own listeners now (a test sees one removed).
    public var listenerCount: Int { watchers.state.withLock { $0.listeners.count } }

    /// Publishes `{"kind": event.kind, ...event.fields, "at": now}`.
    public func publish(_ daemonEvent: DaemonEvent) {
        for listener in watchers.state.withLock({ $0.listeners.values }) where listener.wanted(daemonEvent) {
            listener.continuation.yield(daemonEvent)
        }
        // Nobody watching (the usual case, e.g. an import's progress): nothing to encode or measure.
        guard watchers.state.withLock({ !$0.subscribers.isEmpty || !$0.sinks.isEmpty }) else { return }
        var event = daemonEvent.fields
        event["kind"] = .string(daemonEvent.kind)
        event["at"] = .string(WireTime.string(from: Date(), timeZone: timeZone()))
        fanOut.submit(.deliver(event))
    }

    /// Ends every stream (the daemon is stopping), after the events already published.
    public func finishAll() async {
        await delivered()
        let (subscribers, sinks) = watchers.state.withLock { state -> ([Subscriber], [Sink]) in
            state.closed = true
            defer { (state.subscribers, state.sinks) = ([:], []) }
            return (Array(state.subscribers.values), state.sinks)
        }
        await delivered() // a fan-out that took them before they went
        for subscriber in subscribers { subscriber.continuation.finish() }
        for sink in sinks { sink.ended.finish() }
    }

    /// `watch`es and event streams.
    public var subscriberCount: Int { watchers.state.withLock { $0.subscribers.count + $0.sinks.count } }

    /// Bytes of events handed to subscriber `id` and not yet taken; nil once it is gone.
    func waitingBytes(of id: Int) -> Int? { watchers.state.withLock { $0.subscribers[id]?.waitingBytes } }
}

// MARK: - The watchers and their fan-out

/// What the hub's thread takes, in publishing order.
private enum FanOutEntry: Sendable {
    /// An event's fields, to encode once and hand to every watcher.
    case deliver([String: JSONValue])
    /// Everything before it was handed out: resumes a `delivered()`.
    case passed(CheckedContinuation<Void, Never>)
    /// The thread waits here until the gate opens (`holdDelivery`).
    case held(Gate)
}

/// A web app's event stream and the bytes waiting on it.
private struct Subscriber {
    var continuation: AsyncStream<EventHub.Event>.Continuation
    var waitingBytes = 0
}

/// One of the daemon's own listeners: the events it wants go on its stream.
private struct Listener {
    var wanted: @Sendable (DaemonEvent) -> Bool
    var continuation: AsyncStream<DaemonEvent>.Continuation
}

/// A `watch`: `write` hands it an event on the hub's thread (false once its client is gone).
private final class Sink: Sendable {
    let id: Int
    let write: @Sendable (EventLine) -> Bool
    let delivered = Atomic<Int>(0)
    let ended: AsyncStream<Void>.Continuation

    init(id: Int, write: @escaping @Sendable (EventLine) -> Bool, ended: AsyncStream<Void>.Continuation) {
        self.id = id
        self.write = write
        self.ended = ended
    }
}

/// The hub's watchers: the fan-out thread's value, apart from the hub, so that the thread
/// never keeps the hub alive (the hub stops it as it goes).
private final class Watchers: Sendable {
    struct State {
        var subscribers: [Int: Subscriber] = [:]
        /// The running `watch`es, kept as one array the fan-out takes at once (not copied per event).
        var sinks: [Sink] = []
        /// The daemon's own listeners (not `watch` clients, so not counted as watchers), by id.
        var listeners: [Int: Listener] = [:]
        var nextID = 0
        var closed = false
    }

    let state = Mutex(State())

    func remove(_ sink: Sink) {
        state.withLock { state in state.sinks.removeAll { $0 === sink } }
    }

    /// On the fan-out thread.
    func take(_ entry: FanOutEntry) {
        switch entry {
        case .deliver(let fields): deliver(fields)
        case .passed(let continuation): continuation.resume()
        case .held(let gate): gate.wait()
        }
    }

    /// Hands one event, encoded once, to every watcher there is now.
    private func deliver(_ fields: [String: JSONValue]) {
        let line = EventLine(fields: fields)
        // Taken at once (the array is not copied) and written to outside the lock: `publish` and
        // new watchers never wait for a fan-out.
        let sinks = state.withLock { $0.sinks }
        var gone: [Sink] = []
        for sink in sinks {
            if sink.write(line) { sink.delivered.add(1, ordering: .relaxed) } else { gone.append(sink) }
        }
        if !gone.isEmpty {
            state.withLock { state in state.sinks.removeAll { sink in gone.contains { $0 === sink } } }
            for sink in gone { sink.ended.finish() }
        }
        let published = EventHub.Event(value: line.value, bytes: line.json.count)
        state.withLock { state in
            for (id, subscriber) in state.subscribers {
                // Far behind in bytes: the newest goes (the stream itself drops the oldest by count).
                guard subscriber.waitingBytes + published.bytes <= EventHub.maxBytes else { continue }
                state.subscribers[id]?.waitingBytes += published.bytes
                if case .dropped(let oldest) = subscriber.continuation.yield(published) {
                    state.subscribers[id]?.waitingBytes -= oldest.bytes
                }
            }
        }
    }
}

// MARK: - Its lifetime

extension EventHub: DaemonService {
    var name: String { "events" }

    /// Ends every `watch` and event stream when cancelled (the daemon is stopping), after the
    /// events already published; the hub's thread goes with the hub.
    func run() async {
        await untilCancelled()
        await finishAll()
    }
}
