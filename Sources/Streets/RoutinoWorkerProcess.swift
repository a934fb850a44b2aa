import Foundation
import Glibc

/// Why talking to a worker failed: it died (retry on a fresh one) or cannot start at all.
enum RoutinoWorkerFailure: Error {
    case died(String)
    case startFailed(String)
}

/// One `usefulmap-routino-worker` child, connected by a Unix socket pair on its stdin/stdout
/// (a socket, so a write to a dead worker fails with EPIPE instead of raising SIGPIPE in the
/// daemon). Used by one pool thread at a time.
final class RoutinoWorkerProcess {
    private let child: ChildProcess
    private let socket: Int32
    private var buffer: [UInt8] = []
    /// `no_route` answers so far: each leaks memory inside libroutino, so the pool recycles the worker.
    var failedRoutes = 0

    var pid: pid_t { child.pid }

    private init(child: ChildProcess, socket: Int32) {
        self.child = child
        self.socket = socket
    }

    /// Starts a worker on `database` and waits for its `ready` line.
    /// - parameter answerTimeout: seconds to wait for any line; a worker silent for longer is treated as dead.
    static func spawn(executable: String, database: String, answerTimeout: Double,
                      nice: Int32? = nil) throws(RoutinoWorkerFailure) -> RoutinoWorkerProcess {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw .startFailed("cannot create a socket pair: errno \(errno)")
        }
        let child: ChildProcess
        do {
            // The pool thread that starts a worker is the one that stops it, so the worker's
            // parent-death signal fires only when the daemon itself goes away.
            child = try ChildProcess.start(executable: executable, arguments: ["--database", database],
                                           standardInput: pair[1], standardOutput: pair[1])
        } catch {
            close(pair[0])
            close(pair[1])
            throw .startFailed(error.description)
        }
        close(pair[1])
        // Raising a child's nice value needs no privilege; it is done before the worker loads
        // its database, and the worker has one thread.
        if let nice { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(child.pid), nice) }
        var timeout = timeval(tv_sec: Int(answerTimeout), tv_usec: Int((answerTimeout - answerTimeout.rounded(.down)) * 1e6))
        setsockopt(pair[0], SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let worker = RoutinoWorkerProcess(child: child, socket: pair[0])
        let greeting: String
        do {
            greeting = try worker.readLine()
        } catch {
            worker.kill()
            throw .startFailed("\(executable) exited before it was ready")
        }
        guard greeting == "ready" else {
            worker.kill()
            throw .startFailed(greeting.hasPrefix("fatal ") ? String(greeting.dropFirst(6)) : "unexpected greeting: \(greeting)")
        }
        return worker
    }

    func send(_ line: String) throws(RoutinoWorkerFailure) {
        var bytes = Array((line + "\n").utf8)[...]
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { throw .died("write failed: errno \(errno)") }
            bytes = bytes.dropFirst(sent)
        }
    }

    func readLine() throws(RoutinoWorkerFailure) -> String {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let received = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if received < 0 && errno == EINTR { continue }
            if received < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { throw .died("no answer in time") }
            guard received > 0 else { throw .died(received == 0 ? "the worker closed its output" : "read failed: errno \(errno)") }
            buffer.append(contentsOf: chunk[..<received])
        }
    }

    /// Asks the worker to exit (end of input) and reaps it.
    func stop() {
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
        child.wait()
    }

    /// Ends a worker that died or misbehaved, and reaps it.
    func kill() {
        close(socket)
        child.kill()
    }
}
