import Foundation
import Glibc
import Synchronization
import WireProtocol

/// One client connection. A thread reads lines (so that a hang-up is seen even while a
/// request runs); a task answers them in order. When the client hangs up, the task — and
/// with it the request's work — is cancelled.
final class Connection: Sendable {
    enum Item: Sendable {
        case line(Data)
        case tooLong
    }

    private struct State {
        var closed = false
        var inFlight = 0
        var draining = false
        var processing: Task<Void, Never>?
    }

    let id: Int
    let fd: Int32
    let peer: PeerCredentials
    private let state = Mutex(State())
    private let writeLock = Mutex(())

    init(id: Int, fd: Int32, peer: PeerCredentials) {
        self.id = id
        self.fd = fd
        self.peer = peer
    }

    /// Writes a whole line; false once the connection is closed or the peer is gone.
    @discardableResult
    func write(_ data: Data) -> Bool {
        writeLock.withLock { _ in
            guard !state.withLock({ $0.closed }) else { return false }
            return data.withUnsafeBytes { raw -> Bool in
                var offset = 0
                while offset < raw.count {
                    let written = send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                    if written < 0 {
                        if errno == EINTR { continue }
                        return false
                    }
                    offset += written
                }
                return true
            }
        }
    }

    @discardableResult
    func writeMessage<T: Encodable>(_ message: T) -> Bool {
        guard let line = try? WireCodec.line(for: message) else { return false }
        return write(line)
    }

    var inFlight: Int { state.withLock { $0.inFlight } }

    /// From now on new requests get `shutting_down`.
    func drain() { state.withLock { $0.draining = true } }

    /// Cancels the request being answered, if any.
    func cancel() {
        state.withLock { $0.processing }?.cancel()
    }

    /// Closes the socket (once; later calls return false); also wakes the reader thread.
    @discardableResult
    func close() -> Bool {
        let wasOpen = state.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        guard wasOpen else { return false }
        writeLock.withLock { _ in
            shutdown(fd, Int32(SHUT_RDWR))
            Glibc.close(fd)
        }
        return true
    }

    /// Reads and drops input until the client stops sending or `seconds` pass without data.
    private func discardInput(seconds: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        var total = 0
        while total < 64 << 20 {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, seconds * 1000) > 0 else { return }
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return }
            total += count
        }
    }

    /// Starts reading and answering. `onFinish` runs once when the connection is done.
    func start(dispatcher: RequestDispatcher, logger: DaemonLogger, onFinish: @escaping @Sendable (Connection) -> Void) {
        let (stream, continuation) = AsyncStream<Item>.makeStream()
        let processing = Task { [self] in
            for await item in stream {
                switch item {
                case .tooLong:
                    writeMessage(WireResponse(id: nil, error: WireError(
                        .lineTooLong, "a request line is longer than \(WireLimits.maximumLineBytes) bytes; closing the connection")))
                    logger.notice("line too long; closing", ["connection": String(id)])
                    // The reader discards what the client is still sending, then closes; closing
                    // now would make the client's write fail before it can read this answer.
                    writeLock.withLock { _ in _ = shutdown(fd, Int32(SHUT_WR)) }
                    return
                case .line(let line):
                    if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue } // blank lines are ignored
                    let draining = state.withLock { state -> Bool in
                        if !state.draining { state.inFlight += 1 }
                        return state.draining
                    }
                    if draining {
                        var id: RequestID?
                        if case .single(.success(let request)) = WireCodec.requests(from: line) {
                            guard let requestID = request.id else { continue } // a notification gets no answer
                            id = requestID
                        }
                        write(WireCodec.errorAnswer(id: id, error: WireError(.shuttingDown, "usefulmapd is shutting down")) + [0x0A])
                        continue
                    }
                    let answer = await dispatcher.respond(to: line, connection: id) { [self] notification in
                        writeMessage(notification)
                    }
                    if let answer { write(answer) }
                    state.withLock { $0.inFlight -= 1 }
                }
            }
            if close() { onFinish(self) }
        }
        state.withLock { $0.processing = processing }

        let thread = Thread { [self] in
            var framer = LineFramer()
            var buffer = [UInt8](repeating: 0, count: 65536)
            reading: while true {
                let count = read(fd, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                for event in framer.append(buffer[0..<count]) {
                    switch event {
                    case .line(let line): continuation.yield(.line(line))
                    case .tooLong:
                        continuation.yield(.tooLong)
                        continuation.finish()
                        discardInput(seconds: 2)
                        if close() { onFinish(self) }
                        return
                    }
                }
            }
            continuation.finish()
            // End of stream: a half-close still wants its answers; a full hang-up cancels the work.
            while !state.withLock({ $0.closed }) {
                var descriptor = pollfd(fd: fd, events: 0, revents: 0)
                let ready = poll(&descriptor, 1, 200)
                if ready > 0 && (descriptor.revents & Int16(POLLHUP | POLLERR | POLLNVAL)) != 0 {
                    if state.withLock({ $0.inFlight }) > 0 {
                        logger.info("client hung up; cancelling its request", ["connection": String(id)])
                    }
                    processing.cancel()
                    return
                }
            }
        }
        thread.name = "usefulmapd-connection-\(id)"
        thread.start()
    }
}
