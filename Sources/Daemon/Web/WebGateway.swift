import Executors
import Foundation
import Glibc
import Synchronization
import WireProtocol

/// The web app's HTTP server (`usefulmapd --http 127.0.0.1:PORT`): a thin gateway onto the
/// same method table as the socket. `POST /api/METHOD` runs the method through the
/// `RequestDispatcher` with the JSON body as its params; `GET /events` streams the `EventHub`'s
/// events (what `umctl watch` shows) as Server-Sent Events; the rest is the app's files,
/// Leaflet and the map's squares (`WebTiles`).
///
/// Only the socket's owner gets in: `umctl web` reads the secret from `web-login` (0600, next to
/// the socket) and signs a one-time login token, which `/login` turns into an HttpOnly,
/// SameSite=Strict session cookie. Every request must name the served address as its Host (a
/// DNS-rebound name gets 421), and a POST must come from the app's own Origin (403).
///
/// Each connection has a thread of its own (`ServerThreads`); its socket's timeouts bound a
/// client that sends or reads slowly, and at most `maxConnections` are served. A connection
/// carries up to `maxRequestsPerConnection` requests (HTTP/1.1 keep-alive, so a page's many
/// squares and calls do not each open one), may idle `idleTimeoutSeconds` between them, and is
/// kept only while at most half the connections are taken: held-open connections cannot crowd
/// out a new client.
public final class WebGateway: Sendable {
    /// Connections served at once; more are answered 503 and closed.
    static let maxConnections = 64
    /// Seconds a client may take to send its request or read a part of the answer.
    static let socketTimeoutSeconds = 10
    /// Seconds a kept connection may wait for its next request before it is closed.
    static let idleTimeoutSeconds = 5
    /// Requests one connection carries; the last answer closes it.
    static let maxRequestsPerConnection = 100
    /// Seconds between an event stream's keep-alive comments (how soon a gone client is noticed).
    static let eventKeepAliveSeconds = 15
    static let cookieName = "usefulmap_session"

    public let origin: String
    let host: String
    private let listener: Int32
    private let loginFile: String
    let sessions: WebSessions
    private let dispatcher: RequestDispatcher
    private let events: EventHub
    private let tiles: WebTiles
    private let logger: DaemonLogger
    private let threads = ServerThreads()
    private let open = Atomic<Int>(0)
    private let nextConnection = Atomic<Int>(1_000_000)
    private let stopping = Atomic<Bool>(false)

    /// Binds `address`, writes `web-login` next to `socketPath`, and starts serving.
    /// - throws: `DaemonError.socketSetup` when the address cannot be bound.
    public init(address: WebAddress, socketPath: String, dataDirectory: URL, dispatcher: RequestDispatcher,
                events: EventHub, regions: RegionRegistry, tileCacheBytes: Int,
                logger: DaemonLogger) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw DaemonError.socketSetup("socket(): \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = address.port.bigEndian
        inet_pton(AF_INET, address.host, &socketAddress.sin_addr)
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw DaemonError.socketSetup("cannot serve the web app on \(address): \(reason)")
        }
        var boundAddress = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &boundAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        host = "\(address.host):\(UInt16(bigEndian: boundAddress.sin_port))"
        origin = "http://\(host)"
        listener = fd
        loginFile = WebLogin.path(socketPath: socketPath)
        sessions = WebSessions()
        self.dispatcher = dispatcher
        self.events = events
        self.tiles = WebTiles(regions: regions, dataDirectory: dataDirectory, cacheLimitBytes: tileCacheBytes)
        self.logger = logger.with(["component": "web"])
        try writeLoginFile()
        threads.start(name: "usefulmapd-web") { [self] in acceptLoop() }
        self.logger.notice("serving the web app", ["address": origin])
    }

    /// Stops accepting, ends the event streams and waits for every connection's thread.
    private func stop() async {
        stopping.store(true, ordering: .relaxed)
        unlink(loginFile)
        shutdown(listener, Int32(SHUT_RDWR))
        await threads.allEnded()
        close(listener)
    }

    private func writeLoginFile() throws {
        let fd = Glibc.open(loginFile, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode_t(0o600))
        guard fd >= 0 else {
            throw DaemonError.socketSetup("cannot write \(loginFile): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        fchmod(fd, 0o600)
        let text = Array(WebLogin(origin: origin, secret: sessions.secret).text.utf8)
        guard text.withUnsafeBytes({ Glibc.write(fd, $0.baseAddress, $0.count) }) == text.count else {
            throw DaemonError.socketSetup("cannot write \(loginFile): \(String(cString: strerror(errno)))")
        }
    }

    private func acceptLoop() {
        while !stopping.load(ordering: .relaxed) {
            let client = accept(listener, nil, nil)
            if client >= 0 { _ = fcntl(client, F_SETFD, FD_CLOEXEC) }
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED || errno == EMFILE || errno == ENFILE { continue }
                return
            }
            var timeout = timeval(tv_sec: Self.socketTimeoutSeconds, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            guard open.add(1, ordering: .relaxed).newValue <= Self.maxConnections else {
                _ = writeAll(client, Self.whole(.text(503, "too many connections to the web app; try again")))
                close(client)
                open.subtract(1, ordering: .relaxed)
                continue
            }
            threads.start(name: "usefulmapd-web-client") { [self] in
                defer {
                    close(client)
                    open.subtract(1, ordering: .relaxed)
                }
                serve(client)
            }
        }
    }

    /// Serves the requests of one connection, one after the other, until the client closes it,
    /// asks for `Connection: close`, idles too long, sends a bad request or reaches the cap.
    private func serve(_ fd: Int32) {
        var buffer = Data()
        for served in 1...Self.maxRequestsPerConnection {
            if served > 1, buffer.isEmpty, !waitForNextRequest(on: fd) { return }
            let request: HTTPRequest
            do {
                guard let read = try HTTPRequest.read(from: fd, buffer: &buffer) else { return }
                request = read
            } catch let refusal as HTTPRequest.Refusal {
                _ = writeAll(fd, Self.whole(.text(refusal.status, refusal.reason)))
                return
            } catch {
                return
            }
            if request.method == "GET", request.path == "/events", refusal(of: request) == nil {
                streamEvents(to: fd)
                return
            }
            var response = answer(request)
            if response.status >= 400 {
                logger.info("web request refused", ["method": request.method, "path": request.path, "status": String(response.status)])
            }
            response.keepAlive = request.keepsAlive && served < Self.maxRequestsPerConnection && !stopping.load(ordering: .relaxed)
                && open.load(ordering: .relaxed) <= Self.maxConnections / 2
            guard writeAll(fd, Self.whole(response)), response.keepAlive else { return }
        }
    }

    /// Whether a kept connection's next request begins within `idleTimeoutSeconds` (false when
    /// the client closed it, or the daemon stops: it is looked at every half second).
    private func waitForNextRequest(on fd: Int32) -> Bool {
        var waited = 0
        while waited < Self.idleTimeoutSeconds * 1000, !stopping.load(ordering: .relaxed) {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let count = poll(&ready, 1, 500)
            if count > 0 { return ready.revents & Int16(POLLIN) != 0 }
            if count < 0, errno != EINTR { return false }
            waited += 500
        }
        return false
    }

    static func whole(_ response: HTTPResponse) -> Data { response.head + response.body }

    // MARK: - Rules

    /// The refusal a request gets before anything is looked at, or nil when it may go on: the
    /// Host must be the served address; a session is needed but to log in; a POST needs the
    /// app's own Origin.
    func refusal(of request: HTTPRequest) -> HTTPResponse? {
        guard request.headers["host"] == host else {
            return .text(421, "this server answers only requests for \(host) (Host was \(request.headers["host"] ?? "missing"))")
        }
        if request.path == "/login" { return nil }
        guard sessions.isOpen(request.cookie(Self.cookieName)) else {
            return .text(401, "not logged in: open the app with `umctl web` (or `umctl web --print` for its address)")
        }
        if request.method != "GET", request.method != "HEAD" {
            guard request.headers["origin"] == origin else {
                return .text(403, "a change must come from the app's own page (\(origin)); Origin was \(request.headers["origin"] ?? "missing")")
            }
        }
        return nil
    }

    func answer(_ request: HTTPRequest) -> HTTPResponse {
        if let refused = refusal(of: request) { return refused }
        let path = request.path
        switch (request.method, path) {
        case ("GET", "/login"): return logIn(request)
        case ("GET", "/"): return appFile("index.html")
        case ("GET", _) where path.hasPrefix("/app/"): return appFile(String(path.dropFirst(5)))
        case ("GET", _) where path.hasPrefix("/leaflet/"):
            guard let file = WebAssets.leaflet(String(path.dropFirst(9))) else { return .text(404, "no such file: \(path)") }
            return HTTPResponse(status: 200, contentType: file.type, body: file.bytes, headers: [("Cache-Control", "private, max-age=86400")])
        case ("GET", _) where path.hasPrefix("/tiles/"): return tile(path)
        case ("POST", _) where path.hasPrefix("/api/"): return call(String(path.dropFirst(5)), body: request.body)
        case (_, _) where ["/", "/login", "/events"].contains(path) || path.hasPrefix("/app/") || path.hasPrefix("/tiles/"):
            return .text(405, "\(request.method) is not taken at \(path)")
        case (_, _) where path.hasPrefix("/api/"): return .text(405, "methods are called with POST /api/METHOD and JSON params")
        default: return .text(404, "no such page: \(path)")
        }
    }

    private func logIn(_ request: HTTPRequest) -> HTTPResponse {
        guard let token = request.query["token"], let session = sessions.logIn(token: token, now: Int(Date().timeIntervalSince1970)) else {
            return .text(403, "this login link was used already or is too old: run `umctl web` again")
        }
        var response = HTTPResponse(status: 303, contentType: "text/plain; charset=utf-8", body: Data("logged in\n".utf8))
        response.headers += [("Location", "/"), ("Cache-Control", "no-store"),
                             ("Set-Cookie", "\(Self.cookieName)=\(session); Path=/; HttpOnly; SameSite=Strict")]
        return response
    }

    private func appFile(_ name: String) -> HTTPResponse {
        guard let file = WebAssets.app(name) else { return .text(404, "no such file: /app/\(name)") }
        return HTTPResponse(status: 200, contentType: file.type, body: Data(file.bytes), headers: [("Cache-Control", "no-cache")])
    }

    private func tile(_ path: String) -> HTTPResponse {
        let parts = path.split(separator: "/")
        guard parts.count == 5, parts[4].hasSuffix(".png"), let zoom = Int(parts[2]), let x = Int(parts[3]),
              let y = Int(parts[4].dropLast(4)) else {
            return .text(404, "a map square's address is /tiles/REGION/Z/X/Y.png")
        }
        do {
            let png = try tiles.png(region: String(parts[1]), zoom: zoom, x: x, y: y)
            return HTTPResponse(status: 200, contentType: "image/png", body: png, headers: [("Cache-Control", "private, max-age=3600")])
        } catch {
            let wire = RequestDispatcher.wireError(from: error)
            return .text(wire.code == WireError.Code.notFound.rawValue || wire.code == WireError.Code.invalidParams.rawValue ? 404 : 500,
                         wire.message)
        }
    }

    // MARK: - Methods and events

    /// Runs one method as the socket would: its answer is the JSON-RPC answer, `result` or `error`.
    private func call(_ name: String, body: Data) -> HTTPResponse {
        guard let method = WireMethod(rawValue: name) else { return .text(404, "unknown method \"\(name)\"") }
        guard !method.isStreaming else { return .text(400, "\(name) streams: the app follows events at GET /events") }
        let params: JSONValue
        do {
            params = body.isEmpty ? .object([:]) : try WireCodec.value(from: body)
        } catch {
            return .text(400, "the body is not JSON: \(error)")
        }
        guard case .object = params else { return .text(400, "the body must be a JSON object of the method's params") }
        let line = WireCodec.requestText(WireRequest(id: .number(1), method: name, params: params))
        let connection = nextConnection.add(1, ordering: .relaxed).newValue
        let answer = Handoff<Data?>() // this connection's own thread waits; the task never blocks
        let dispatcher = dispatcher
        Task { answer.hand(await dispatcher.respond(to: line, connection: connection) { _ in false }) }
        return .json(answer.wait() ?? Data("{}".utf8))
    }

    /// Server-Sent Events: each `EventHub` event as one `data:` line of JSON, until the client
    /// leaves or the daemon stops. A slow client loses events as a slow `watch` does.
    private func streamEvents(to fd: Int32) {
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nConnection: close\r\n"
            + "X-Content-Type-Options: nosniff\r\n\r\n: usefulmapd events\n\n"
        guard writeAll(fd, Data(head.utf8)) else { return }
        let (id, stream) = events.subscribe()
        let queue = EventQueue()
        let events = events
        let reader = Task {
            for await event in stream {
                events.taken(event, by: id)
                queue.push(event.value)
            }
            queue.finish()
        }
        defer {
            events.unsubscribe(id)
            reader.cancel()
        }
        while !stopping.load(ordering: .relaxed) {
            let (values, finished) = queue.wait(seconds: Self.eventKeepAliveSeconds)
            var text = values.map { "data: \(String(decoding: WireCodec.text(of: $0), as: UTF8.self))\n\n" }.joined()
            if values.isEmpty { text = ": still here\n\n" }
            guard !finished, writeAll(fd, Data(text.utf8)) else { return }
        }
    }
}

/// The events waiting to be written to one event stream's client (its thread waits on them).
final class EventQueue: Sendable {
    /// The values, then nil once the stream ended.
    private let values = Mailbox<JSONValue?>()

    func push(_ value: JSONValue) { values.put(value) }

    func finish() { values.put(nil) }

    /// What came since the last call, waiting up to `seconds` for something; and whether the stream ended.
    func wait(seconds: Int) -> (values: [JSONValue], finished: Bool) {
        let taken = values.takeAll(waitingUpTo: Double(seconds))
        let finished = taken.contains { $0 == nil }
        if finished { values.put(nil) } // ended for every later call too
        return (taken.compactMap { $0 }, finished)
    }
}

extension WebGateway: DaemonService {
    var name: String { "web gateway" }

    /// It serves (on its own threads) from its `init` until cancelled; then it stops accepting,
    /// ends its event streams and waits for its connections' threads, outside the cancellation
    /// (a wait for threads returns when cancelled).
    func run() async {
        await untilCancelled()
        await outsideCancellation { [self] in await stop() }
    }
}
