import FoundationEssentials
import Glibc

/// A client for one connection to the daemon: `umctl`, the benchmarks and the integration
/// tests all speak through it, so there is one implementation of the framing. Two ways to
/// call: `call(_:_:)` with an `Endpoint` and its params, answered with its result type, and
/// `call(_:params:)` for any method name, answered with the result as JSON; `send(_:)` and
/// `receiveLine()` are the raw lines underneath, for protocol tests.
///
/// ```swift
/// let client = try WireClient(socketPath: path)
/// let status = try await client.call(Endpoints.status, Params.Empty()) // a StatusDocument
/// ```
/// The calls are `async` so that callers in tasks await them like any other call, but the
/// socket is blocking: a call never suspends, it runs to its end on the caller's thread and
/// executor (`nonisolated(nonsending)`: no hop), holding that thread while it waits for the
/// answer. A caller on the cooperative pool holds one of its few threads (two on a 2-core
/// machine) for the whole round trip; many concurrent clients belong on their own threads
/// (the bench's load generators). Synchronous code calls through `runToEnd`, which then
/// completes inline without starting a thread (umctl's `main`). Not thread-safe: use one
/// client per task.
public final class WireClient {
    private let descriptor: Int32
    private var framer = LineFramer(limit: WireLimits.maximumAnswerBytes)
    private var nextID: Int64 = 1
    /// What `read` fills, made once and never zeroed: the kernel touches only the pages it
    /// writes, where a zeroed 64 KiB per read faulted in all sixteen of them.
    private let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)
    /// A `hello` said ahead of the next request (`hello(_:)`): its line, until it is sent,
    /// and its id, until its answer is read.
    private var helloLine: Data?
    private var unansweredHello: RequestID?

    /// Connects to the daemon's Unix socket and checks that it is served by this user or root.
    /// - throws: `WireClientError.cannotConnect` naming the path and the reason, or
    ///   `.untrustedServer` for another user's socket.
    public init(socketPath: String) throws {
        descriptor = try Self.connectedSocket(path: socketPath)
    }

    /// A blocking stream socket connected to `path` and served by this user or root, for
    /// callers that do their own framing (the fuzzer, tests of clients that stop reading).
    /// The caller closes it.
    /// - throws: `WireClientError.cannotConnect` naming the path and the reason, or `.untrustedServer`.
    public static func connectedSocket(path socketPath: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw WireClientError.cannotConnect(path: socketPath, reason: String(cString: strerror(errno))) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(socketPath.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            close(fd)
            throw WireClientError.cannotConnect(path: socketPath, reason: "the path is longer than \(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw WireClientError.cannotConnect(path: socketPath, reason: reason)
        }
        do {
            try Self.checkServerIsTrusted(fd, path: socketPath)
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    deinit {
        close(descriptor)
        readBuffer.deallocate()
    }

    /// Says `hello`, so that a daemon that does not speak this protocol version refuses it
    /// with `unsupported_version` before anything else is answered. The hello goes with the
    /// next request: in one write when that request only reads (`WireMethod.mayGoWithHello`:
    /// one round trip), else alone, its answer read before the request is sent, so that a
    /// change never reaches a daemon that refuses the version.
    /// - throws: `WireClientError` when the hello cannot be encoded; the daemon's refusal is
    ///   thrown by the next call.
    public func hello(_ params: Params.Hello) throws {
        let id = nextRequestID()
        helloLine = try WireCodec.line(for: WireRequest(id: id, method: Endpoints.hello.method.rawValue,
                                                        params: params.jsonValue))
        unansweredHello = id
    }

    /// Reads the answer to the hello sent last, when it is still unread: an error in it is
    /// the error of whatever was asked after it.
    private func readHelloAnswer(onNotification: (WireNotification) -> Void) throws {
        while let id = unansweredHello {
            switch try receive() {
            case .notification(let notification):
                onNotification(notification)
            case .response(let response):
                unansweredHello = nil
                if let error = response.error { throw error }
                guard response.id == id else {
                    throw WireClientError.invalidResponse("response for request \(response.id?.description ?? "null"), expected \(id)")
                }
            }
        }
    }

    /// Calls one method: the params are encoded once, the answer decoded once as the
    /// endpoint's result. Notifications that arrive first go to `onNotification`.
    /// - parameter descriptors: open files passed with the request line (`SCM_RIGHTS`), for
    ///   a method that says which of its files come that way (`region.import`'s `passed_files`).
    /// - throws: the daemon's `WireError`, or `WireClientError` when the connection fails or
    ///   the answer does not have the result's shape.
    nonisolated(nonsending)
    public func call<P, R>(_ endpoint: Endpoint<P, R>, _ params: P, passing descriptors: [Int32] = [],
                           onNotification: (WireNotification) -> Void = { _ in }) async throws -> R {
        let id = try send(method: endpoint.method.rawValue, params: params, passing: descriptors, onNotification: onNotification)
        while true {
            let reply = try WireCodec.answer(ReplyEnvelope<R>.self, fromLine: receiveLine(), method: endpoint.method.rawValue)
            if reply.id == nil, let method = reply.method {
                onNotification(WireNotification(method: method, params: reply.params ?? .null))
                continue
            }
            if let error = reply.error { throw error }
            guard reply.id == id else {
                throw WireClientError.invalidResponse("response for request \(reply.id?.description ?? "null"), expected \(id)")
            }
            guard let result = reply.result else {
                throw WireClientError.invalidResponse("the \(endpoint.method.rawValue) answer has no result")
            }
            return result
        }
    }

    /// Sends any method name with any params and returns the result as the daemon wrote it:
    /// protocol tests send unknown methods and params a typed client cannot build (a
    /// `JSONValue`), and `umctl --json` prints the answer as it came.
    /// - parameter descriptors: open files passed with the request line, as `call(_:_:)`.
    /// - throws: the daemon's `WireError`, or `WireClientError`.
    nonisolated(nonsending)
    public func call<P: Encodable>(_ method: String, params: P, passing descriptors: [Int32] = [],
                                   onNotification: (WireNotification) -> Void = { _ in }) async throws -> JSONValue {
        try await callReturningLine(method, params: params, passing: descriptors, onNotification: onNotification).result
    }

    /// As `call(_:params:)`, and the line the answer came in, as the daemon wrote it: umctl
    /// checks its bytes for control characters in one pass (`TerminalText`) instead of walking
    /// every string of the result.
    nonisolated(nonsending)
    public func callReturningLine<P: Encodable>(_ method: String, params: P, passing descriptors: [Int32] = [],
                                                onNotification: (WireNotification) -> Void = { _ in }) async throws
        -> (result: JSONValue, line: Data) {
        let id = try send(method: method, params: params, passing: descriptors, onNotification: onNotification)
        while true {
            let line = try receiveLine()
            switch try message(in: line) {
            case .notification(let notification):
                onNotification(notification)
            case .response(let response):
                if let error = response.error { throw error }
                guard response.id == id else {
                    throw WireClientError.invalidResponse("response for request \(response.id?.description ?? "null"), expected \(id)")
                }
                return (response.result ?? .null, line)
            }
        }
    }

    private func nextRequestID() -> RequestID {
        defer { nextID += 1 }
        return .number(nextID)
    }

    /// Sends one request line, with `descriptors` passed alongside it, after a hello said
    /// before it (in the same write for a read, else answered first); returns its id. The
    /// hello's answer is read before the request's, whichever way it went.
    private func send<P: Encodable>(method: String, params: P, passing descriptors: [Int32],
                                    onNotification: (WireNotification) -> Void) throws -> RequestID {
        if let hello = helloLine, !WireMethod.mayGoWithHello(named: method) {
            helloLine = nil
            try send(hello)
            try readHelloAnswer(onNotification: onNotification)
        }
        let id = nextRequestID()
        // Our own encoder, not JSONEncoder: no protocol-conformance scans in umctl's start-up.
        var line = try WireCodec.line(for: WireRequest(id: id, method: method, params: JSONValue(encoding: params)))
        if let helloLine {
            line = helloLine + line
            self.helloLine = nil
        }
        if !descriptors.isEmpty {
            line = line.dropFirst(try DescriptorPassing.send(line, descriptors: descriptors, on: descriptor))
        }
        try send(line)
        try readHelloAnswer(onNotification: onNotification)
        return id
    }

    /// Writes raw bytes (tests send broken lines with it). Synchronous, as `receive()` and
    /// `receiveLine()`: the raw-line primitives under the calls.
    public func send(_ data: Data) throws {
        try data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if written < 0 {
                    if errno == EINTR { continue }
                    let reason = String(cString: strerror(errno))
                    throw errorSentBeforeClosing() ?? WireClientError.connectionClosed(reason)
                }
                offset += written
            }
        }
    }

    /// The error a daemon that refused this connection sent before closing it
    /// (`too_many_connections`, `permission_denied`): the peer is gone, so reading cannot block.
    private func errorSentBeforeClosing() -> WireError? {
        guard case .response(let response)? = try? receive(), response.id == nil else { return nil }
        return response.error
    }

    /// Reads the next message the daemon sent.
    public func receive() throws -> WireIncoming {
        try message(in: receiveLine())
    }

    private func message(in line: Data) throws -> WireIncoming {
        do {
            return try WireCodec.incoming(from: line)
        } catch {
            throw WireClientError.invalidResponse("the daemon sent a line that is not a message")
        }
    }

    /// Reads the next raw line, or throws `connectionClosed` at end of stream.
    public func receiveLine() throws -> Data {
        while true {
            switch framer.nextEvent() {
            case .line(let line)?: return line
            case .tooLong?: throw WireClientError.invalidResponse("a response line was longer than 64 MiB")
            case nil: break
            }
            let count = read(descriptor, readBuffer.baseAddress, readBuffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw WireClientError.connectionClosed(String(cString: strerror(errno)))
            }
            if count == 0 { throw WireClientError.connectionClosed("the daemon closed the connection") }
            framer.add(UnsafeRawBufferPointer(rebasing: readBuffer[0..<count]))
        }
    }

    /// Half-closes the sending side: the daemon sees end of stream after what was sent.
    public func finishSending() {
        shutdown(descriptor, Int32(SHUT_WR))
    }
}

/// Why talking to the daemon failed (as opposed to the daemon answering with an error).
public enum WireClientError: Error, Hashable, Sendable, CustomStringConvertible {
    case cannotConnect(path: String, reason: String)
    case connectionClosed(String)
    case invalidResponse(String)
    /// The socket is served by another user: refused before anything was sent.
    case untrustedServer(path: String, serverUID: UInt32, clientUID: UInt32)

    public var description: String {
        switch self {
        case let .cannotConnect(path, reason): "cannot connect to usefulmapd at \(path): \(reason)"
        case let .connectionClosed(reason): "connection to usefulmapd lost: \(reason)"
        case let .invalidResponse(reason): "unexpected answer from usefulmapd: \(reason)"
        case let .untrustedServer(path, serverUID, clientUID):
            "refusing \(path): it is served by uid \(serverUID), not by you (uid \(clientUID)) or root; nothing was sent"
        }
    }
}
