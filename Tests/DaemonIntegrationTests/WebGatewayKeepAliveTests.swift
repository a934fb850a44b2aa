import Foundation
import TestSupport
import WireProtocol
import XCTest

/// The web gateway's persistent connections (issue 42): one connection carries several requests
/// (a page's squares and calls do not each open one), `Connection: close` and HTTP/1.0 get one
/// answer, an idle connection is closed after the idle timeout, and a client that holds a
/// connection open does not keep another from being served. Checked with raw sockets.
final class WebGatewayKeepAliveTests: DaemonTestCase {
    override var daemonArguments: [String] { ["--http", "127.0.0.1:0"] }

    private func client() throws -> PlainHTTPClient {
        try PlainHTTPClient(loginFile: WebLogin.path(socketPath: harness.socketPath))
    }

    /// Logs in as `umctl web` would and answers the session cookie (`name=value`).
    private func session() throws -> String {
        let printed = try harness.umctl(["web", "--print"])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        let client = try client()
        let target = String(printed.stdout.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst(client.origin.count))
        let answer = try client.send("GET", target, headers: ["Host": client.host])
        XCTAssertEqual(answer.status, 303, answer.body)
        return String(try XCTUnwrap(answer.headers["set-cookie"]).split(separator: ";")[0])
    }

    private func get(_ path: String, cookie: String, version: String = "HTTP/1.1", extra: String = "") throws -> String {
        "GET \(path) \(version)\r\nHost: \(try client().host)\r\nCookie: \(cookie)\r\n\(extra)\r\n"
    }

    func testOneConnectionCarriesSeveralRequestsUntilItAsksToClose() throws {
        let cookie = try session()
        let connection = try KeptHTTPConnection(port: try client().port)
        // Two requests sent together (pipelined), then a third on the same connection.
        try connection.send(try get("/app/api.js", cookie: cookie) + get("/app/views.js", cookie: cookie))
        let first = try connection.answer()
        let second = try connection.answer()
        XCTAssertEqual([first.status, second.status], [200, 200], "\(first.body) \(second.body)")
        XCTAssertTrue(first.body.contains("export async function call"), "the first answer is api.js")
        XCTAssertTrue(second.body.contains("export function planView"), "the second answer is views.js")
        XCTAssertEqual(first.headers["connection"], "keep-alive")
        try connection.send(try get("/app/api.js", cookie: cookie, extra: "Connection: close\r\n"))
        let last = try connection.answer()
        XCTAssertEqual(last.status, 200)
        XCTAssertEqual(last.headers["connection"], "close")
        XCTAssertTrue(connection.closedByServer(), "Connection: close ends the connection after its answer")
    }

    /// docs/operations.md: a connection carries at most 100 requests; the 100th answer closes it.
    func testAConnectionCarriesAtMostItsCapOfRequests() throws {
        let cookie = try session()
        let connection = try KeptHTTPConnection(port: try client().port)
        try connection.send(String(repeating: try get("/app/api.js", cookie: cookie), count: 100))
        let answers = try (1...100).map { _ in try connection.answer() }
        XCTAssertEqual(Set(answers.map(\.status)), [200])
        XCTAssertEqual(answers.dropLast().filter { $0.headers["connection"] != "keep-alive" }.count, 0)
        XCTAssertEqual(answers.last?.headers["connection"], "close")
        XCTAssertTrue(connection.closedByServer(), "the connection closes after the 100th answer")
    }

    func testAnHTTP10ClientGetsOneAnswerAConnection() throws {
        let cookie = try session()
        let connection = try KeptHTTPConnection(port: try client().port)
        try connection.send(try get("/app/api.js", cookie: cookie, version: "HTTP/1.0"))
        let answer = try connection.answer()
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.headers["connection"], "close")
        XCTAssertTrue(connection.closedByServer())
    }

    func testAnIdleConnectionIsClosedAfterTheIdleTimeout() throws {
        let cookie = try session()
        // The receive timeout (60 s) only bounds the test; the gateway closes after 5 s idle.
        let connection = try KeptHTTPConnection(port: try client().port, timeoutSeconds: 60)
        try connection.send(try get("/app/api.js", cookie: cookie))
        XCTAssertEqual(try connection.answer().headers["connection"], "keep-alive")
        XCTAssertTrue(connection.closedByServer(), "an idle kept connection is closed by the gateway, not left open")
    }

    func testAClientHoldingAConnectionOpenDoesNotStallAnother() throws {
        let cookie = try session()
        let port = try client().port
        // One client keeps a connection after an answer; another sends half a request and stops.
        let idle = try KeptHTTPConnection(port: port)
        try idle.send(try get("/app/api.js", cookie: cookie))
        XCTAssertEqual(try idle.answer().status, 200)
        let stalled = try KeptHTTPConnection(port: port)
        try stalled.send("GET /app/api.js HTTP/1.1\r\nHost: \(try client().host)\r\n")
        // Meanwhile a third client is answered at once, and the idle one can still ask again.
        let other = try KeptHTTPConnection(port: port)
        try other.send(try get("/app/views.js", cookie: cookie))
        XCTAssertEqual(try other.answer().status, 200)
        try idle.send(try get("/app/views.js", cookie: cookie))
        XCTAssertEqual(try idle.answer().status, 200)
    }
}
