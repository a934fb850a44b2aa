import Foundation
import TestSupport
import WireProtocol
import XCTest

/// The web app's rules for a local web server (issue 42), checked with a plain HTTP client
/// against the real daemon: only a login by `umctl web` opens a session, only the served
/// address is answered, and a change must come from the app's own page.
final class WebGatewaySecurityTests: DaemonTestCase {
    override var daemonArguments: [String] { ["--http", "127.0.0.1:0"] }

    private var loginFile: String { WebLogin.path(socketPath: harness.socketPath) }

    private func client() throws -> PlainHTTPClient { try PlainHTTPClient(loginFile: loginFile) }

    /// A one-time login URL's path and query, as `umctl web --print` prints it.
    private func loginTarget() throws -> String {
        let printed = try harness.umctl(["web", "--print"])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        let url = printed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let client = try client()
        XCTAssertTrue(url.hasPrefix(client.origin + "/login?token="), url)
        return String(url.dropFirst(client.origin.count))
    }

    /// Logs in and answers the session cookie (`name=value`).
    private func session() throws -> String {
        let client = try client()
        let answer = try client.send("GET", try loginTarget(), headers: ["Host": client.host])
        XCTAssertEqual(answer.status, 303, answer.body)
        let cookie = try XCTUnwrap(answer.headers["set-cookie"])
        return String(cookie.split(separator: ";")[0])
    }

    func testTheLoginFileIsTheOwnersOnly() throws {
        let attributes = try FileManager.default.attributesOfItem(atPath: loginFile)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
    }

    func testWithoutASessionNothingIsServed() throws {
        let client = try client()
        for (method, target) in [("GET", "/"), ("GET", "/app/app.js"), ("GET", "/events"), ("GET", "/tiles/tampere/14/9344/4480.png"),
                                 ("POST", "/api/plan.list")] {
            let answer = try client.send(method, target, headers: ["Host": client.host, "Origin": client.origin], body: method == "POST" ? "{}" : "")
            XCTAssertEqual(answer.status, 401, "\(method) \(target): \(answer.body)")
            XCTAssertTrue(answer.body.contains("umctl web"), answer.body)
        }
    }

    func testALoginTokenOpensOneHttpOnlyStrictSessionOnce() throws {
        let client = try client()
        let target = try loginTarget()
        let first = try client.send("GET", target, headers: ["Host": client.host])
        XCTAssertEqual(first.status, 303)
        let cookie = try XCTUnwrap(first.headers["set-cookie"])
        XCTAssertTrue(cookie.contains("HttpOnly"), cookie)
        XCTAssertTrue(cookie.contains("SameSite=Strict"), cookie)
        let again = try client.send("GET", target, headers: ["Host": client.host])
        XCTAssertEqual(again.status, 403, "a login token works once")
        XCTAssertNil(again.headers["set-cookie"])

        let page = try client.send("GET", "/", headers: ["Host": client.host, "Cookie": String(cookie.split(separator: ";")[0])])
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.body.contains("type=\"search\""))
        let policy = try XCTUnwrap(page.headers["content-security-policy"])
        XCTAssertTrue(policy.contains("default-src 'self'"), policy)
        XCTAssertFalse(policy.contains("http"), "only the app's own origin: \(policy)")
    }

    func testAForgedOrAlteredTokenOpensNoSession() throws {
        let client = try client()
        let target = try loginTarget()
        let altered = String(target.dropLast()) + (target.hasSuffix("0") ? "1" : "0")
        XCTAssertEqual(try client.send("GET", altered, headers: ["Host": client.host]).status, 403)
        let forged = "/login?token=\(WebLogin.token(secret: WebLogin.newSecret(), now: Int(Date().timeIntervalSince1970)))"
        XCTAssertEqual(try client.send("GET", forged, headers: ["Host": client.host]).status, 403)
        // The altered token spent nothing: the real one still logs in.
        XCTAssertEqual(try client.send("GET", target, headers: ["Host": client.host]).status, 303)
    }

    func testAForeignHostIsRefusedEvenWithASession() throws {
        let client = try client()
        let cookie = try session()
        for host in ["evil.example:\(client.port)", "localhost:\(client.port)", "127.0.0.1"] {
            let answer = try client.send("GET", "/", headers: ["Host": host, "Cookie": cookie])
            XCTAssertEqual(answer.status, 421, "Host \(host)")
        }
        let login = try client.send("GET", try loginTarget(), headers: ["Host": "evil.example:\(client.port)"])
        XCTAssertEqual(login.status, 421, "a rebound name cannot log in either")
    }

    func testACrossSitePostIsRefusedAndChangesNothing() throws {
        let client = try client()
        let cookie = try session()
        let body = #"{"name":"Evil","place":"61.4978,23.761"}"#
        for origin in ["http://evil.example", "null", "http://127.0.0.1:1"] {
            let answer = try client.send("POST", "/api/place.save", headers: ["Host": client.host, "Cookie": cookie, "Origin": origin], body: body)
            XCTAssertEqual(answer.status, 403, "Origin \(origin)")
        }
        let withoutOrigin = try client.send("POST", "/api/place.save", headers: ["Host": client.host, "Cookie": cookie], body: body)
        XCTAssertEqual(withoutOrigin.status, 403)
        let places = try client.send("POST", "/api/place.list", headers: ["Host": client.host, "Cookie": cookie, "Origin": client.origin])
        XCTAssertEqual(places.status, 200)
        XCTAssertEqual(places.body.trimmingCharacters(in: .whitespacesAndNewlines), #"{"id":1,"jsonrpc":"2.0","result":{"places":[]}}"#)
    }

    func testTheGatewayAnswersWithTheSameMethodsAndErrorsAsTheSocket() throws {
        let client = try client()
        let cookie = try session()
        let headers = ["Host": client.host, "Cookie": cookie, "Origin": client.origin, "Content-Type": "application/json"]
        let missing = try client.send("POST", "/api/plan.show", headers: headers, body: #"{"id":99}"#)
        XCTAssertTrue(missing.body.contains(#""code":"not_found""#), missing.body)
        XCTAssertTrue(missing.body.contains("plan 99 does not exist"), missing.body)
        XCTAssertEqual(try client.send("POST", "/api/no.such", headers: headers, body: "{}").status, 404)
        XCTAssertEqual(try client.send("POST", "/api/plan.show", headers: headers, body: "[1]").status, 400)
        XCTAssertEqual(try client.send("POST", "/api/watch", headers: headers, body: "{}").status, 400)
    }

    func testANonLoopbackAddressIsRefusedAtStart() throws {
        for address in ["0.0.0.0:8765", "192.168.1.10:8765", "example.org:80", "[::]:8765"] {
            let result = try DaemonHarness.run(DaemonHarness.usefulmapd, ["--http", address, "--data-dir", harness.directory.path + "/other",
                                                                        "--socket", harness.directory.path + "/other.sock"],
                                               in: harness.directory)
            XCTAssertNotEqual(result.status, 0, address)
            XCTAssertTrue(result.stderr.contains("loopback"), "\(address): \(result.stderr)")
        }
        let config = harness.directory.appendingPathComponent("web.conf")
        try "http = 10.0.0.1:8765\n".write(to: config, atomically: true, encoding: .utf8)
        let fromFile = try DaemonHarness.run(DaemonHarness.usefulmapd, ["--config", config.path], in: harness.directory)
        XCTAssertNotEqual(fromFile.status, 0)
        XCTAssertTrue(fromFile.stderr.contains("10.0.0.1 is not a loopback address"), fromFile.stderr)
    }
}
