import CSystemd
import Executors
import Foundation
import Synchronization

/// Sends `DesktopNotification`s to `org.freedesktop.Notifications` on the session bus with
/// sd-bus, and passes on its `ActionInvoked` and `NotificationClosed` signals. All bus work runs
/// on one thread of its own: `send` only queues, so no caller ever waits for D-Bus. Without a
/// bus, or without an owner of the name, `send`'s answer is the failure (connecting is tried
/// again on the next send).
public final class DesktopNotifier: Sendable {
    public typealias Answer = @Sendable (Result<UInt32, NotificationFailure>) -> Void

    private struct Job: Sendable {
        var notification: DesktopNotification
        var answer: Answer
    }

    /// The queue the callers fill and the bus thread empties.
    private final class SharedQueue: Sendable {
        /// Set by `stop`; a job is put only while it is false (under its lock).
        let stopped = Mutex(false)
        /// The jobs, in order; nil wakes the thread to stop.
        let jobs = Mailbox<Job?>()
    }

    private static let service = "org.freedesktop.Notifications"
    private static let path = "/org/freedesktop/Notifications"
    /// How long a `Notify` may take before it counts as failed (a server hung on the bus); set
    /// on the connection itself, so that every call sd-bus makes on it is bounded.
    private static let callTimeoutMicroseconds: UInt64 = 2_000_000
    /// How long connecting (the socket's authentication and `Hello`) may take: sd-bus would wait
    /// 90 s for a bus that accepts and never answers, holding every notice (and `stop`) behind it.
    private static let connectTimeoutMicroseconds: UInt64 = 2_000_000
    /// After a connection timed out, sends fail at once for this long rather than each waiting
    /// on the same hung bus again.
    private static let retryAfterTimeoutSeconds: Double = 30
    /// How long the thread sleeps in the bus between looks at the queue.
    private static let pollMicroseconds: UInt64 = 100_000

    private let queue = SharedQueue()
    private let finished = Gate()
    private let signals: SignalBox

    /// - parameter onSignal: called on the bus thread for each signal of the server.
    public init(onSignal: @escaping @Sendable (NotificationSignal) -> Void) {
        signals = SignalBox(onSignal)
        let started = startThread(named: "usefulmap-notifications") { [queue, finished, signals] in
            var loop = BusLoop(queue: queue, signals: signals)
            loop.run()
            finished.open()
        }
        if !started { // no thread: every send fails at once
            queue.stopped.withLock { $0 = true }
            finished.open()
        }
    }

    /// Queues `notification`; `answer` gets the server's ID for it, or why it was not shown.
    public func send(_ notification: DesktopNotification, answer: @escaping Answer) {
        let taken = queue.stopped.withLock { stopped -> Bool in
            guard !stopped else { return false }
            queue.jobs.put(Job(notification: notification, answer: answer))
            return true
        }
        if !taken { answer(.failure(.noSessionBus("the notifier has stopped"))) }
    }

    /// Ends the bus thread (after the notification it is sending, if any) and closes the bus.
    /// Blocks until it has: a plain thread's call (the daemon stops it from the blocking pool).
    public func stop() {
        let first = queue.stopped.withLock { stopped -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        queue.jobs.put(nil)
        finished.wait()
    }

    /// The handler, kept alive for sd-bus's callbacks (which get it as their userdata).
    final class SignalBox: Sendable {
        let handler: @Sendable (NotificationSignal) -> Void
        init(_ handler: @escaping @Sendable (NotificationSignal) -> Void) { self.handler = handler }
    }

    /// The bus thread's state: only this thread touches the sd-bus connection.
    private struct BusLoop {
        let queue: SharedQueue
        let signals: SignalBox
        var bus: OpaquePointer?
        /// Until when sends fail at once after a connection timed out.
        var hungUntil: DispatchTime?
        /// A job taken while waiting without a bus, answered on the next turn.
        var held: [Job] = []

        init(queue: SharedQueue, signals: SignalBox) {
            self.queue = queue
            self.signals = signals
        }

        mutating func run() {
            while true {
                // Stopped read first: once it is set no job is put, so the jobs taken after it are the last.
                let stopped = queue.stopped.withLock { $0 }
                let jobs = held + queue.jobs.takeAll().compactMap { $0 }
                held = []
                // Stopping: what is still queued is answered as not shown, not sent to a bus that may hang.
                for job in jobs {
                    job.answer(stopped ? .failure(.noSessionBus("the notifier has stopped")) : deliver(job.notification))
                }
                if stopped { break }
                if let bus {
                    // Signals first; a broken connection is dropped and made again on the next send.
                    while true {
                        let processed = sd_bus_process(bus, nil)
                        if processed < 0 { disconnect(); break }
                        if processed == 0 { break }
                    }
                    if let bus = self.bus { _ = sd_bus_wait(bus, DesktopNotifier.pollMicroseconds) }
                } else if let next = queue.jobs.take(waitingUpTo: 1) {
                    held = next.map { [$0] } ?? []
                }
            }
            disconnect()
        }

        mutating func deliver(_ notification: DesktopNotification) -> Result<UInt32, NotificationFailure> {
            if bus == nil, let failure = connect() { return .failure(failure) }
            guard let bus else { return .failure(.noSessionBus("no session bus")) }
            var message: OpaquePointer?
            var status = sd_bus_message_new_method_call(bus, &message, DesktopNotifier.service, DesktopNotifier.path,
                                                        DesktopNotifier.service, "Notify")
            guard status >= 0, let message else { return .failure(.notifyFailed(Self.describe(status))) }
            defer { sd_bus_message_unref(message) }
            status = Self.append(notification, to: message)
            guard status >= 0 else { return .failure(.notifyFailed("cannot build Notify: \(Self.describe(status))")) }
            var error = sd_bus_error(name: nil, message: nil, _need_free: 0)
            defer { sd_bus_error_free(&error) }
            var reply: OpaquePointer?
            status = sd_bus_call(bus, message, DesktopNotifier.callTimeoutMicroseconds, &error, &reply)
            defer { if let reply { sd_bus_message_unref(reply) } }
            guard status >= 0, let reply else {
                let name = error.name.map { String(cString: $0) } ?? Self.describe(status)
                let detail = error.message.map { String(cString: $0) } ?? ""
                if status == -ECONNRESET || status == -ENOTCONN || status == -EPIPE { disconnect() }
                return .failure(.notifyFailed(detail.isEmpty ? name : "\(name): \(detail)"))
            }
            var id: UInt32 = 0
            status = sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "u")), &id)
            guard status > 0 else { return .failure(.notifyFailed("Notify answered without an ID")) }
            return .success(id)
        }

        /// Opens the session bus and listens for the server's two signals; the failure if it cannot.
        mutating func connect() -> NotificationFailure? {
            if let hungUntil, DispatchTime.now() < hungUntil {
                return .noSessionBus("the session bus did not answer within \(DesktopNotifier.connectTimeoutMicroseconds / 1_000_000) s")
            }
            var opened: OpaquePointer?
            let status = sd_bus_open_user(&opened)
            guard status >= 0, let opened else {
                return .noSessionBus("cannot connect to the session bus: \(Self.describe(status))")
            }
            if let failure = Self.waitUntilReady(opened) {
                sd_bus_close_unref(opened)
                hungUntil = .now() + DesktopNotifier.retryAfterTimeoutSeconds
                return failure
            }
            hungUntil = nil
            _ = sd_bus_set_method_call_timeout(opened, DesktopNotifier.callTimeoutMicroseconds)
            let userdata = Unmanaged.passUnretained(signals).toOpaque()
            for member in ["ActionInvoked", "NotificationClosed"] {
                _ = sd_bus_match_signal(opened, nil, nil, DesktopNotifier.path, DesktopNotifier.service, member,
                                        { message, userdata, _ in
                                            guard let message, let userdata else { return 0 }
                                            let box = Unmanaged<SignalBox>.fromOpaque(userdata).takeUnretainedValue()
                                            if let signal = BusLoop.signal(from: message) { box.handler(signal) }
                                            return 0
                                        }, userdata)
            }
            bus = opened
            return nil
        }

        /// Drives the connection's authentication and `Hello` until it is running, for at most
        /// `connectTimeoutMicroseconds`; the failure when it is not.
        static func waitUntilReady(_ bus: OpaquePointer) -> NotificationFailure? {
            let deadline = DispatchTime.now().uptimeNanoseconds + DesktopNotifier.connectTimeoutMicroseconds * 1_000
            while true {
                let ready = sd_bus_is_ready(bus)
                if ready > 0 { return nil }
                if ready < 0 { return .noSessionBus("cannot connect to the session bus: \(describe(ready))") }
                let processed = sd_bus_process(bus, nil)
                if processed < 0 { return .noSessionBus("cannot connect to the session bus: \(describe(processed))") }
                if processed > 0 { continue }
                let now = DispatchTime.now().uptimeNanoseconds
                guard now < deadline else {
                    return .noSessionBus("the session bus did not answer within \(DesktopNotifier.connectTimeoutMicroseconds / 1_000_000) s")
                }
                _ = sd_bus_wait(bus, (deadline - now) / 1_000)
            }
        }

        /// Closes without flushing: sd-bus's flush waits, with no timeout, for a bus that never
        /// finished connecting or stopped reading (the calls made are synchronous, so nothing
        /// queued is lost).
        mutating func disconnect() {
            if let bus { sd_bus_close_unref(bus) }
            bus = nil
        }

        /// `ActionInvoked` (u id, s key) or `NotificationClosed` (u id, u reason).
        static func signal(from message: OpaquePointer) -> NotificationSignal? {
            guard let member = sd_bus_message_get_member(message).map({ String(cString: $0) }) else { return nil }
            var id: UInt32 = 0
            guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "u")), &id) > 0 else { return nil }
            switch member {
            case "ActionInvoked":
                var key: UnsafePointer<CChar>?
                guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &key) > 0, let key else { return nil }
                return .actionInvoked(id: id, action: String(cString: key))
            case "NotificationClosed":
                var reason: UInt32 = 0
                guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "u")), &reason) > 0 else { return nil }
                return .closed(id: id, reason: reason)
            default:
                return nil
            }
        }

        /// Notify's arguments: (s app_name, u replaces_id, s app_icon, s summary, s body, as actions,
        /// a{sv} hints, i expire_timeout).
        static func append(_ notification: DesktopNotification, to message: OpaquePointer) -> Int32 {
            func string(_ value: String) -> Int32 { value.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) } }
            func type(_ character: Character) -> CChar { CChar(character.asciiValue ?? 0) }
            var replaces = notification.replacesID
            var expire: Int32 = -1
            var urgency: UInt8 = 1 // normal
            let steps: [() -> Int32] = [
                { string(DesktopNotification.appName) },
                { sd_bus_message_append_basic(message, type("u"), &replaces) },
                { string("") },
                { string(notification.summary) },
                { string(notification.body) },
                { sd_bus_message_open_container(message, type("a"), "s") },
            ] + notification.actions.flatMap { action in [{ string(action.key) }, { string(action.label) }] } + [
                { sd_bus_message_close_container(message) },
                { sd_bus_message_open_container(message, type("a"), "{sv}") },
                { sd_bus_message_open_container(message, type("e"), "sv") },
                { string("urgency") },
                { sd_bus_message_open_container(message, type("v"), "y") },
                { sd_bus_message_append_basic(message, type("y"), &urgency) },
                { sd_bus_message_close_container(message) },
                { sd_bus_message_close_container(message) },
                { sd_bus_message_close_container(message) },
                { sd_bus_message_append_basic(message, type("i"), &expire) },
            ]
            for step in steps {
                let status = step()
                if status < 0 { return status }
            }
            return 0
        }

        static func describe(_ status: Int32) -> String { String(cString: strerror(-status)) }
    }
}
