import Foundation
import Glibc
import Synchronization
import WireProtocol

/// Accepts connections on the listening socket, checks who is calling, and hands each
/// connection to the dispatcher. A `DaemonService`: it accepts from its `start` (before the
/// services after it start); its `run`, once cancelled, stops accepting, lets in-flight requests
/// finish within `grace` seconds, then cancels what is left.
public final class DaemonServer: DaemonService {
    private struct State {
        var connections: [Int: Connection] = [:]
        var nextID = 0
        var stopping = false
    }

    private let listener: Int32
    private let dispatcher: RequestDispatcher
    private let logger: DaemonLogger
    private let limits: ConnectionLimits
    /// Seconds the requests running at shutdown get to finish before they are cancelled.
    private let grace: Double
    private let state = Mutex(State())
    private let acceptFinished = Mutex(false)
    /// `stop` waiting for the accept loop to see it and end.
    private let acceptEnded = Waiters()
    private let threads = ServerThreads()
    private let daemonUID = getuid()
    private let descriptors = DescriptorBudget()

    public init(listener: Int32, dispatcher: RequestDispatcher, logger: DaemonLogger, limits: ConnectionLimits = ConnectionLimits(),
                grace: Double) {
        self.listener = listener
        self.dispatcher = dispatcher
        self.logger = logger
        self.limits = limits
        self.grace = grace
    }

    var name: String { "socket server" }

    /// Starts the accept loop on its own thread and returns: the daemon answers from here on.
    func start() async {
        threads.start(name: "usefulmapd-accept") { [self] in acceptLoop() }
    }

    /// Serves (on the server's threads) until cancelled, then stops: its grace is a sleep,
    /// run outside the cancellation.
    func run() async {
        await untilCancelled()
        await outsideCancellation { [self] in await stop() }
    }

    public var connectionCount: Int { state.withLock { $0.connections.count } }

    private func acceptLoop() {
        // One descriptor kept open to give back when the table is full anyway (something else
        // filled it), so that the waiting client can still be told `too_many_connections`.
        var spare = open("/dev/null", O_RDONLY | O_CLOEXEC)
        var failures = LogThrottle(interval: 10)
        defer { if spare >= 0 { Glibc.close(spare) } }
        while !state.withLock({ $0.stopping }) {
            var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 100)
            if ready <= 0 { continue }
            let fd = accept(listener, nil, nil)
            if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) } // accept4 needs _GNU_SOURCE
            if fd < 0 {
                let reason = errno
                if reason == EINTR || reason == EAGAIN || reason == ECONNABORTED { continue }
                if let suppressed = failures.admit() {
                    var fields = ["errno": String(cString: strerror(reason))]
                    if suppressed > 0 { fields["suppressed"] = String(suppressed) }
                    logger.warning("accept failed", fields)
                }
                if (reason == EMFILE || reason == ENFILE), spare >= 0 {
                    Glibc.close(spare)
                    let waiting = accept(listener, nil, nil)
                    if waiting >= 0 {
                        refuse(waiting, WireError(.tooManyConnections, "usefulmapd has no file descriptors left; try again later"))
                    }
                    spare = open("/dev/null", O_RDONLY | O_CLOEXEC)
                } else {
                    usleep(50_000)
                }
                continue
            }
            guard let peer = PeerCredentials.of(fd) else {
                logger.warning("cannot read peer credentials; refusing connection")
                Glibc.close(fd)
                continue
            }
            guard peer.isSameUserOrRoot(as: daemonUID) else {
                logger.warning("refused connection from another user", ["uid": String(peer.uid), "pid": String(peer.pid)])
                refuse(fd, WireError(.permissionDenied, "usefulmapd runs as uid \(daemonUID) and answers only that user and root"))
                continue
            }
            enum Admission { case accepted(Connection), full, noDescriptors, stopping }
            let room = descriptors.admitsConnection()
            let admission = state.withLock { state -> Admission in
                guard !state.stopping else { return .stopping }
                guard state.connections.count < limits.maxConnections else { return .full }
                guard room.admitted, let connection = Connection(id: state.nextID + 1, fd: fd, peer: peer, limits: limits,
                                                                  descriptors: descriptors) else { return .noDescriptors }
                state.nextID += 1
                state.connections[connection.id] = connection
                return .accepted(connection)
            }
            let connection: Connection
            switch admission {
            case .accepted(let accepted): connection = accepted
            case .stopping:
                Glibc.close(fd)
                acceptFinished.withLock { $0 = true }
                acceptEnded.notifyAll()
                return
            case .full:
                logger.warning("refused a connection: too many connections", ["max_connections": String(limits.maxConnections)])
                refuse(fd, WireError(.tooManyConnections,
                                     "usefulmapd already serves its most connections (\(limits.maxConnections)); try again later"))
                continue
            case .noDescriptors:
                if let suppressed = failures.admit() {
                    var fields = ["open": String(room.open), "limit": String(room.limit), "reserved": String(DescriptorBudget.reserved)]
                    if suppressed > 0 { fields["suppressed"] = String(suppressed) }
                    logger.warning("refused a connection: near the open-file limit", fields)
                }
                refuse(fd, WireError(.tooManyConnections, "usefulmapd is near its open-file limit (\(room.open) of \(room.limit) "
                    + "descriptors open, \(DescriptorBudget.reserved) kept for routing and the database); try again later"))
                continue
            }
            logger.debug("connection accepted", ["connection": String(connection.id), "pid": String(peer.pid)])
            dispatcher.counters.connectionOpened()
            connection.start(dispatcher: dispatcher, logger: logger, on: threads) { [self] (finished: Connection) in
                _ = state.withLock { $0.connections.removeValue(forKey: finished.id) }
                dispatcher.counters.connectionClosed()
            }
        }
        acceptFinished.withLock { $0 = true }
        acceptEnded.notifyAll()
    }

    /// Sends one error line if the socket takes it at once, then closes.
    private func refuse(_ fd: Int32, _ error: WireError) {
        if let line = try? WireCodec.line(for: WireResponse(id: nil, error: error)) {
            _ = line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        }
        Glibc.close(fd)
    }

    /// Stops accepting; waits up to `grace` seconds for in-flight requests, then cancels them.
    private func stop() async {
        let connections = state.withLock { state -> [Connection] in
            state.stopping = true
            return Array(state.connections.values)
        }
        await acceptEnded.wait { [self] in acceptFinished.withLock { $0 } } // within its 100 ms poll
        Glibc.close(listener)
        for connection in connections { connection.drain() }
        await Self.wait(atMost: grace) { for connection in connections { await connection.idle() } }
        let cancelled = connections.filter { $0.inFlight > 0 }
        if !cancelled.isEmpty {
            logger.notice("cancelling requests still running after the grace period", ["count": String(cancelled.count)])
        }
        for connection in connections { connection.cancel() }
        // Give cancelled work a moment to answer `cancelled` before the sockets close. Nothing
        // here waits on a client: answers are only queued, and closing never blocks.
        await Self.wait(atMost: 2) { for connection in connections { await connection.idle() } }
        for connection in connections { connection.close() }
        // The closed connections' threads end at once; until they have, their bodies hold the
        // handlers and the store, which the daemon closes next.
        await Self.wait(atMost: 1) { [threads] in await threads.allEnded() }
    }

    /// Runs `body` until it returns or `seconds` pass, whichever comes first (then `body` is
    /// cancelled): a race of two child tasks, as swift-service-lifecycle bounds a graceful
    /// shutdown, instead of polling.
    static func wait(atMost seconds: Double, _ body: @escaping @Sendable () async -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await body() }
            group.addTask { try? await Task.sleep(for: .seconds(max(0, seconds))) }
            await group.next()
            group.cancelAll()
        }
    }
}
