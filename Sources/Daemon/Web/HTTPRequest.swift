import Foundation
import Glibc

/// One HTTP/1.1 request as the web gateway reads it: bounded (`headerLimit`, `bodyLimit`), no
/// chunked bodies (a browser's `fetch` of JSON never sends one). A connection may carry several,
/// one after the other (`read(from:buffer:)` keeps what follows one request for the next).
struct HTTPRequest: Sendable {
    var method: String
    /// `HTTP/1.1` or `HTTP/1.0`.
    var version: String
    /// The path without its query, e.g. `/api/plan.show`.
    var path: String
    /// The query's `name=value` pairs, percent-decoded.
    var query: [String: String]
    /// Header names in lower case.
    var headers: [String: String]
    var body: Data

    static let headerLimit = 16 << 10
    static let bodyLimit = 1 << 20

    /// Why a request could not be read: the status it is answered with, and why.
    struct Refusal: Error {
        var status: Int
        var reason: String
    }

    /// Whether the client wants the connection kept for another request: HTTP/1.1 without
    /// `Connection: close` (an HTTP/1.0 client gets one answer a connection).
    var keepsAlive: Bool {
        let connection = (headers["connection"] ?? "").lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return version == "HTTP/1.1" && !connection.contains("close")
    }

    /// Reads one request from `fd` (blocking; the socket's receive timeout bounds a slow client),
    /// starting with the bytes already in `buffer`, and leaves in it what came after the request.
    /// - returns: nil when the client closed or went silent before a whole request.
    /// - throws: `Refusal` for a request too large or malformed.
    static func read(from fd: Int32, buffer: inout Data) throws -> HTTPRequest? {
        var chunk = [UInt8](repeating: 0, count: 8192)
        let separator = Data("\r\n\r\n".utf8)
        var headEnd = buffer.range(of: separator)
        while headEnd == nil {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, 8192, 0) }
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<count])
            headEnd = buffer.range(of: separator)
            if headEnd == nil, buffer.count > headerLimit {
                throw Refusal(status: 431, reason: "the request's headers pass \(headerLimit) bytes")
            }
        }
        guard let headEnd, headEnd.lowerBound <= headerLimit else {
            throw Refusal(status: 431, reason: "the request's headers pass \(headerLimit) bytes")
        }
        guard let head = String(data: buffer[..<headEnd.lowerBound], encoding: .utf8) else {
            throw Refusal(status: 400, reason: "the request's headers are not UTF-8")
        }
        var request = try parse(head: head)
        if request.headers["transfer-encoding"] != nil {
            throw Refusal(status: 501, reason: "chunked request bodies are not taken: send Content-Length")
        }
        let length = Int(request.headers["content-length"] ?? "0") ?? -1
        guard length >= 0 else { throw Refusal(status: 400, reason: "Content-Length is not a number") }
        guard length <= bodyLimit else { throw Refusal(status: 413, reason: "the body passes \(bodyLimit) bytes") }
        var rest = Data(buffer[headEnd.upperBound...])
        while rest.count < length {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, min(8192, length - rest.count), 0) }
            guard count > 0 else { return nil }
            rest.append(contentsOf: chunk[0..<count])
        }
        request.body = Data(rest.prefix(length))
        buffer = Data(rest.dropFirst(length))
        return request
    }

    /// Reads the request line and the headers. - throws: `Refusal` (400, 505).
    static func parse(head: String) throws -> HTTPRequest {
        let lines = head.components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[1].hasPrefix("/") else {
            throw Refusal(status: 400, reason: "not an HTTP request line: \(lines[0].prefix(80))")
        }
        guard parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0" else {
            throw Refusal(status: 505, reason: "only HTTP/1.1 is spoken")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw Refusal(status: 400, reason: "a header line without a colon") }
            let name = line[..<colon].lowercased()
            // A repeated Host, Origin or Cookie could be read one way here and another elsewhere.
            guard headers[name] == nil || !["host", "origin", "cookie", "content-length"].contains(name) else {
                throw Refusal(status: 400, reason: "the header \(name) is repeated")
            }
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let target = String(parts[1])
        let pathEnd = target.firstIndex(of: "?") ?? target.endIndex
        var query: [String: String] = [:]
        if pathEnd < target.endIndex {
            for pair in target[target.index(after: pathEnd)...].split(separator: "&") {
                let field = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let value = field.count == 2 ? String(field[1]).replacingOccurrences(of: "+", with: " ") : ""
                query[String(field[0]).removingPercentEncoding ?? String(field[0])] = value.removingPercentEncoding ?? value
            }
        }
        let path = String(target[..<pathEnd]).removingPercentEncoding ?? String(target[..<pathEnd])
        return HTTPRequest(method: String(parts[0]), version: String(parts[2]), path: path, query: query, headers: headers, body: Data())
    }

    /// The value of cookie `name`, if sent.
    func cookie(_ name: String) -> String? {
        for pair in (headers["cookie"] ?? "").split(separator: ";") {
            let field = pair.split(separator: "=", maxSplits: 1)
            if field.count == 2, field[0].trimmingCharacters(in: .whitespaces) == name {
                return field[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }
}
