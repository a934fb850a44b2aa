import Executors
import Foundation
import Glibc
import Synchronization

/// Reads position reports from gpsd and hands each one to `onPosition`.
///
/// It speaks gpsd's JSON protocol itself (`?WATCH`, then one JSON object per line) rather than
/// linking libgps: the protocol is gpsd's documented, versioned client interface, while libgps's
/// C structs change layout with every API major version; and the daemon only needs the TPV
/// report. The connection runs on a thread of its own, so a gpsd that is slow, gone or not
/// gpsd at all never holds a request: requests read the latest accepted fix from
/// `LocationState`. When gpsd goes away or keeps dropping the connection, the source
/// reconnects, waiting twice as long after each failed attempt (from `initialBackoff` up to
/// `maximumBackoff`); only a connection that stays up for `stableSeconds` resets the wait.
/// The log gets one line per change of state (connected, failing), not one per attempt.
///
/// A `DaemonService`: its `run` starts the connection thread and, once cancelled, ends it.
public final class GpsdLocationSource: DaemonService {
    public static let initialBackoff = 0.25
    public static let maximumBackoff = 60.0
    /// How long a connection must stay up to count as working again.
    public static let stableSeconds = 10.0

    /// What the log last said about the connection.
    private enum LinkState {
        case starting, connected, failing
    }

    /// What `status` shows of the connection.
    public struct Status: Hashable, Sendable {
        public var connected = false
        /// Connections made since the daemon started (1 + reconnections).
        public var connections = 0
        public var lastError: String?
    }

    public let address: GpsdAddress
    private let logger: DaemonLogger
    private let onPosition: @Sendable (FixFilter.Candidate) -> Void
    private let state = Mutex(Status())
    private let stopping = Atomic<Bool>(false)
    /// The open socket, so that `stop` can wake a blocked read.
    private let socket = Atomic<Int32>(-1)
    /// Opened by `stop`, so a wait between attempts ends at once.
    private let stopped = Gate()

    public init(address: GpsdAddress, logger: DaemonLogger, onPosition: @escaping @Sendable (FixFilter.Candidate) -> Void) {
        self.address = address
        self.logger = logger.with(["gpsd": address.description])
        self.onPosition = onPosition
    }

    public var status: Status { state.withLock { $0 } }

    var name: String { "gpsd" }

    /// Reads gpsd on a thread of its own until cancelled; then ends the connection (the thread
    /// exits within a read timeout).
    func run() async {
        startThread(named: "usefulmapd-gpsd") { [self] in connectionLoop() }
        await untilCancelled()
        stop()
    }

    /// Ends the connection; the thread exits within a read timeout.
    private func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        let fd = socket.load(ordering: .sequentiallyConsistent)
        if fd >= 0 { shutdown(fd, Int32(SHUT_RDWR)) }
        stopped.open()
    }

    private var isStopping: Bool { stopping.load(ordering: .sequentiallyConsistent) }

    // MARK: - The connection loop

    private func connectionLoop() {
        var backoff = Self.initialBackoff
        var link = LinkState.starting
        while !isStopping {
            do {
                let fd = try connectSocket()
                socket.store(fd, ordering: .sequentiallyConsistent)
                state.withLock {
                    $0.connected = true
                    $0.connections += 1
                    $0.lastError = nil
                }
                if link == .starting {
                    logger.info("connected to gpsd")
                    link = .connected
                } else {
                    logger.debug("reconnected to gpsd")
                }
                try stream(fd) {
                    backoff = Self.initialBackoff
                    if link != .connected { logger.info("connected to gpsd again") }
                    link = .connected
                }
                state.withLock { $0.lastError = "gpsd closed the connection" }
                logger.log(link == .connected ? .warning : .debug, "gpsd closed the connection; reconnecting",
                           ["retry_s": String(backoff)])
            } catch {
                state.withLock { $0.lastError = "\(error)" }
                logger.log(link == .failing ? .debug : .warning, "cannot read from gpsd; retrying",
                           ["error": "\(error)", "retry_s": String(backoff)])
            }
            link = .failing
            let fd = socket.exchange(-1, ordering: .sequentiallyConsistent)
            if fd >= 0 { close(fd) }
            state.withLock { $0.connected = false }
            pause(backoff)
            backoff = min(backoff * 2, Self.maximumBackoff)
        }
    }

    /// Sleeps `seconds` unless the source is stopped meanwhile.
    private func pause(_ seconds: Double) {
        guard !isStopping else { return }
        stopped.wait(seconds: seconds)
    }

    /// Sends `?WATCH`, then hands every TPV report on until gpsd closes the connection.
    /// Calls `stable` once the connection has stayed up for `stableSeconds`.
    private func stream(_ fd: Int32, stable: () -> Void) throws {
        try send(Array(GpsdReport.watchCommand.utf8), to: fd)
        let opened = Date()
        var stableCalled = false
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !isStopping {
            // The read times out every 0.5 s, so this is checked even when gpsd is quiet.
            if !stableCalled, Date().timeIntervalSince(opened) >= Self.stableSeconds {
                stableCalled = true
                stable()
            }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { return }
            if count < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
                throw GpsdProtocolError("read: \(String(cString: strerror(errno)))")
            }
            pending.append(contentsOf: buffer[0..<count])
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Data(pending[..<newline])
                pending.removeSubrange(...newline)
                handle(line)
            }
            // gpsd's lines are short; a long one means this is not gpsd.
            if pending.count > 65_536 { throw GpsdProtocolError("a line over 64 KiB: not gpsd") }
        }
    }

    private func handle(_ line: Data) {
        guard !line.allSatisfy({ $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: " ") }) else { return }
        do {
            switch try GpsdReport.parse(line) {
            case .position(let candidate): onPosition(candidate)
            case .other: break
            }
        } catch {
            logger.debug("ignored a line from gpsd", ["error": "\(error)"])
        }
    }

    // MARK: - Sockets

    private func connectSocket() throws -> Int32 {
        switch address {
        case .unix(let path):
            let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw GpsdProtocolError("socket: \(String(cString: strerror(errno)))") }
            var addr = sockaddr_un()
            addr.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &addr.sun_path) { raw in
                raw.copyBytes(from: path.utf8.prefix(raw.count - 1))
            }
            let result = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            return try connected(fd, result, what: path)
        case let .tcp(host, port):
            var hints = addrinfo()
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, String(port), &hints, &list)
            guard status == 0, let list else {
                throw GpsdProtocolError("cannot resolve \(host): \(String(cString: gai_strerror(status)))")
            }
            defer { freeaddrinfo(list) }
            var lastError = "no address"
            var entry: UnsafeMutablePointer<addrinfo>? = list
            while let current = entry {
                entry = current.pointee.ai_next
                let fd = Glibc.socket(current.pointee.ai_family, current.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue),
                                      current.pointee.ai_protocol)
                guard fd >= 0 else {
                    // The systemd unit allows only Unix sockets unless IP is switched on for gpsd.
                    if errno == EAFNOSUPPORT || errno == EPERM || errno == EACCES {
                        lastError = "IP sockets are not allowed here (\(String(cString: strerror(errno)))); under the systemd unit, "
                            + "allow them for gpsd with RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 (docs/operations.md)"
                    }
                    continue
                }
                let result = Glibc.connect(fd, current.pointee.ai_addr, current.pointee.ai_addrlen)
                do {
                    return try connected(fd, result, what: address.description)
                } catch {
                    lastError = "\(error)"
                }
            }
            throw GpsdProtocolError(lastError)
        }
    }

    /// Checks a `connect` result and sets the read timeout that lets `stop` be noticed.
    private func connected(_ fd: Int32, _ result: Int32, what: String) throws -> Int32 {
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw GpsdProtocolError("connect \(what): \(reason)")
        }
        var timeout = timeval(tv_sec: 0, tv_usec: 500_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    private func send(_ bytes: [UInt8], to fd: Int32) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EINTR { continue }
                throw GpsdProtocolError("write: \(String(cString: strerror(errno)))")
            }
            offset += sent
        }
    }
}
