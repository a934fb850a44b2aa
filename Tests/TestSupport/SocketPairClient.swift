import Foundation
import Glibc
import WireProtocol

/// A connected pair of Unix stream sockets for a test that serves one end in process (a
/// daemon's `Connection`) and speaks JSON lines on the other. The test's end reads with a
/// receive timeout: only a safety net, so that an end that never answers fails the test
/// instead of hanging it.
///
/// ```swift
/// let pair = try SocketPairClient()
/// let connection = Connection(id: 1, fd: pair.servedEnd, …)
/// pair.send(#"{"jsonrpc":"2.0","id":1,"method":"status"}"# + "\n")
/// let answers = try pair.answers(1)
/// ```
public final class SocketPairClient {
    /// Fewer answer lines came than were asked for: the other end closed, or the timeout passed.
    public struct NoAnswer: Error, CustomStringConvertible {
        public let description: String
    }

    /// The end the code under test serves (and closes).
    public let servedEnd: Int32
    /// The test's end; -1 once closed.
    public private(set) var fd: Int32
    private var pending = Data()

    /// - parameter seconds: how long a read of the test's end waits at most.
    public init(receiveTimeout seconds: Int = 60) throws {
        var ends: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else {
            throw NoAnswer(description: "no socket pair (errno \(errno))")
        }
        servedEnd = ends[0]
        fd = ends[1]
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close() }

    /// Sends `text` whole; the bytes sent (the caller checks them against the text's).
    @discardableResult
    public func send(_ text: String) -> Int {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) }
    }

    /// The next `count` answer lines, each parsed (each read bounded by the receive timeout).
    public func answers(_ count: Int) throws -> [JSONValue] {
        var lines: [JSONValue] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            while lines.count < count, let end = pending.firstIndex(of: 0x0A) {
                lines.append(try JSONParser.parse(pending[pending.startIndex..<end]))
                pending = Data(pending[(end + 1)...])
            }
            if lines.count == count { return lines }
            let read = recv(fd, &buffer, buffer.count, 0)
            guard read > 0 else {
                throw NoAnswer(description: "no answer came (read \(read), errno \(errno)) after \(lines.count) of \(count)")
            }
            pending.append(contentsOf: buffer[0..<read])
        }
    }

    /// Ends the test's writing (the served end reads its end of input).
    public func shutdownWriting() -> Int32 { shutdown(fd, Int32(SHUT_WR)) }

    /// Closes the test's end (once).
    public func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }
}
