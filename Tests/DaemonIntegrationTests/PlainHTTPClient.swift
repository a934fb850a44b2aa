import Foundation
import Glibc
import HTTPTestSupport

/// A minimal HTTP/1.1 client over a plain socket, so that a test sends exactly the headers it
/// means to (a browser or URLSession adds and checks its own Host, Origin and cookies).
struct PlainHTTPClient {
    struct Answer {
        var status: Int
        /// Header names in lower case; a repeated header keeps its last value.
        var headers: [String: String]
        var body: String
    }

    var port: UInt16

    /// The daemon's web address from `web-login` (`origin=http://127.0.0.1:PORT`).
    init(loginFile: String) throws {
        let text = try String(contentsOfFile: loginFile, encoding: .utf8)
        guard let origin = text.split(separator: "\n").first(where: { $0.hasPrefix("origin=") }),
              let port = UInt16(origin.split(separator: ":").last ?? "") else {
            throw CocoaError(.fileReadCorruptFile)
        }
        self.port = port
    }

    var host: String { "127.0.0.1:\(port)" }
    var origin: String { "http://\(host)" }

    /// Sends one request with exactly `headers` (plus Content-Length for a body, and
    /// `Connection: close` unless `headers` name a Connection) and reads the answer to its end.
    func send(_ method: String, _ target: String, headers: [String: String], body: String = "") throws -> Answer {
        guard let fd = connectedLoopbackSocket(port: port) else { throw POSIXError(.ECONNREFUSED) }
        defer { close(fd) }
        var lines = ["\(method) \(target) HTTP/1.1"] + headers.map { "\($0.key): \($0.value)" }
        if !body.isEmpty { lines.append("Content-Length: \(body.utf8.count)") }
        if !headers.keys.contains(where: { $0.lowercased() == "connection" }) { lines.append("Connection: close") }
        let request = Array((lines.joined(separator: "\r\n") + "\r\n\r\n" + body).utf8)
        _ = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        let text = String(decoding: received, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw POSIXError(.EBADMSG) }
        let headLines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        let status = Int(headLines[0].split(separator: " ")[1]) ?? 0
        var answerHeaders: [String: String] = [:]
        for line in headLines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            answerHeaders[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Answer(status: status, headers: answerHeaders, body: String(text[split.upperBound...]))
    }
}
