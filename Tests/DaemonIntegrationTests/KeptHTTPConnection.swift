import Foundation
import Glibc
import HTTPTestSupport

/// One raw TCP connection to the web gateway that stays open across requests, for the keep-alive
/// tests: it sends exactly the bytes it is given and reads answers one at a time by their
/// Content-Length. Every read is bounded by the socket's receive timeout (`timeoutSeconds`), so a
/// server that never answers fails the test instead of hanging it.
final class KeptHTTPConnection {
    struct Answer {
        var status: Int
        /// Header names in lower case.
        var headers: [String: String]
        var body: String
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let fd: Int32
    private var buffer: [UInt8] = []

    init(port: UInt16, timeoutSeconds: Int = 60) throws {
        guard let fd = connectedLoopbackSocket(port: port, timeoutSeconds: timeoutSeconds) else {
            throw Failure(description: "cannot connect to 127.0.0.1:\(port)")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw Failure(description: "could not send the request: \(String(cString: strerror(errno)))") }
    }

    /// Reads the next answer. - throws: `Failure` when the connection closed or timed out first.
    func answer() throws -> Answer {
        let separator: [UInt8] = [13, 10, 13, 10]
        var end: Int?
        while true {
            end = buffer.count < 4 ? nil : (0...(buffer.count - 4)).first { Array(buffer[$0..<($0 + 4)]) == separator }
            if end != nil { break }
            try receive()
        }
        let headLines = String(decoding: buffer[..<end!], as: UTF8.self).components(separatedBy: "\r\n")
        var headers: [String: String] = [:]
        for line in headLines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "") ?? 0
        let bodyStart = end! + 4
        while buffer.count < bodyStart + length { try receive() }
        let body = String(decoding: buffer[bodyStart..<(bodyStart + length)], as: UTF8.self)
        buffer.removeFirst(bodyStart + length)
        let status = headLines[0].split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return Answer(status: status, headers: headers, body: body)
    }

    /// Whether the server closed the connection (a read gives end of file) before the socket's
    /// receive timeout; false when it is still open then, or sent more.
    func closedByServer() -> Bool {
        var byte: UInt8 = 0
        return buffer.isEmpty && recv(fd, &byte, 1, 0) == 0
    }

    private func receive() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else {
            throw Failure(description: count == 0 ? "the server closed the connection" : "no answer: \(String(cString: strerror(errno)))")
        }
        buffer += chunk[0..<count]
    }
}
