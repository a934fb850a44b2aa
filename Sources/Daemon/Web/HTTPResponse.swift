import Foundation
import Glibc

/// One answer of the web gateway, with the headers every answer carries: the page's
/// Content-Security-Policy (only its own origin), no sniffing, no framing, no referrer.
struct HTTPResponse: Sendable {
    var status: Int
    var headers: [(String, String)] = []
    var body: Data
    /// Whether the connection stays open for another request (`Connection: keep-alive`) or is
    /// closed after this answer.
    var keepAlive = false

    init(status: Int, contentType: String, body: Data, headers: [(String, String)] = []) {
        self.status = status
        self.body = body
        self.headers = [("Content-Type", contentType)] + headers
    }

    /// A short plain-text answer (errors, refusals): what was wrong, in words.
    static func text(_ status: Int, _ message: String) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: Data((message + "\n").utf8))
    }

    static func json(_ body: Data) -> HTTPResponse {
        HTTPResponse(status: 200, contentType: "application/json", body: body, headers: [("Cache-Control", "no-store")])
    }

    static let contentSecurityPolicy = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        + "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    /// The status line and headers (the body follows them).
    var head: Data {
        var lines = ["HTTP/1.1 \(status) \(Self.reason(status))"]
        for (name, value) in headers { lines.append("\(name): \(value)") }
        lines += ["Content-Length: \(body.count)", keepAlive ? "Connection: keep-alive" : "Connection: close", "Content-Security-Policy: \(Self.contentSecurityPolicy)",
                  "X-Content-Type-Options: nosniff", "X-Frame-Options: DENY", "Referrer-Policy: no-referrer",
                  "Cross-Origin-Resource-Policy: same-origin", "", ""]
        return Data(lines.joined(separator: "\r\n").utf8)
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 303: "See Other"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 413: "Content Too Large"
        case 421: "Misdirected Request"
        case 431: "Request Header Fields Too Large"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Error"
        }
    }
}

/// Writes all of `data` to a socket; false when the client is gone or stopped reading (the
/// socket's send timeout bounds a client that reads too slowly).
func writeAll(_ fd: Int32, _ data: Data) -> Bool {
    data.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
            let sent = send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            if sent <= 0 {
                if sent < 0, errno == EINTR { continue }
                return false
            }
            offset += sent
        }
        return true
    }
}
