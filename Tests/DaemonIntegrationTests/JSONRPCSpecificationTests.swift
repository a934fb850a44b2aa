import Foundation
import WireProtocol
import XCTest

/// The examples of the JSON-RPC 2.0 specification (section 7), adapted to our methods (they
/// take params by name, so `subtract`/`sum` become `location.set`/`status`), each answer's
/// shape checked against what the specification shows.
final class JSONRPCSpecificationTests: DaemonTestCase {
    /// Sends one line and reads one line back, as JSON.
    func exchange(_ line: String, on client: WireClient) throws -> JSONValue {
        try client.send(Data((line + "\n").utf8))
        return try JSONParser.parse(client.receiveLine())
    }

    func assertError(_ answer: JSONValue?, code: Int, word: String, id: JSONValue,
                     file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(answer?["jsonrpc"], .string("2.0"), file: file, line: line)
        XCTAssertEqual(answer?["id"], id, file: file, line: line)
        XCTAssertNil(answer?["result"], "an error answer has no result", file: file, line: line)
        XCTAssertEqual(answer?["error"]?["code"], .number(Double(code)), "error.code is an integer", file: file, line: line)
        XCTAssertNotNil(answer?["error"]?["message"]?.stringValue, file: file, line: line)
        XCTAssertEqual(answer?["error"]?["data"]?["code"], .string(word), "our word is in error.data.code", file: file, line: line)
    }

    func testCallWithNamedParamsIsAnsweredWithItsResultAndID() throws {
        let answer = try exchange(#"{"jsonrpc":"2.0","method":"location.set","params":{"lat":61.5,"lon":23.76},"id":3}"#,
                                  on: harness.client())
        XCTAssertEqual(answer["id"], .number(3))
        XCTAssertEqual(answer["result"]?["lat"], .number(61.5))
        XCTAssertNil(answer["error"])
    }

    func testCallWithPositionalParamsIsInvalidParams() throws {
        assertError(try exchange(#"{"jsonrpc":"2.0","method":"location.set","params":[61.5,23.76],"id":1}"#, on: harness.client()),
                    code: -32602, word: "invalid_params", id: .number(1))
    }

    func testNotificationIsRunAndGetsNoAnswer() throws {
        let client = try harness.client()
        try client.send(Data((#"{"jsonrpc":"2.0","method":"location.set","params":{"lat":61.25,"lon":23.5}}"# + "\n").utf8))
        // The next line read is the answer to the next call: the notification got none, but it ran.
        let shown = try exchange(#"{"jsonrpc":"2.0","method":"location.show","id":"after"}"#, on: client)
        XCTAssertEqual(shown["id"], .string("after"))
        XCTAssertEqual(shown["result"]?["lat"], .number(61.25))
    }

    func testUnknownMethodIsMethodNotFound() throws {
        assertError(try exchange(#"{"jsonrpc":"2.0","method":"foobar","id":"1"}"#, on: harness.client()),
                    code: -32601, word: "method_not_found", id: .string("1"))
    }

    func testInvalidJSONIsParseErrorWithNullID() throws {
        assertError(try exchange(#"{"jsonrpc":"2.0","method":"foobar, "params":"bar", "baz]"#, on: harness.client()),
                    code: -32700, word: "parse_error", id: .null)
    }

    func testInvalidRequestObjectIsInvalidRequestWithNullID() throws {
        assertError(try exchange(#"{"jsonrpc":"2.0","method":1,"params":"bar"}"#, on: harness.client()),
                    code: -32600, word: "invalid_request", id: .null)
    }

    func testBatchThatIsInvalidJSONIsOneParseError() throws {
        let line = #"[{"jsonrpc":"2.0","method":"status","params":{},"id":"1"},{"jsonrpc":"2.0","method"]"#
        assertError(try exchange(line, on: harness.client()), code: -32700, word: "parse_error", id: .null)
    }

    func testEmptyBatchIsOneInvalidRequest() throws {
        assertError(try exchange("[]", on: harness.client()), code: -32600, word: "invalid_request", id: .null)
    }

    func testBatchOfNonRequestsGetsOneInvalidRequestEach() throws {
        let client = try harness.client()
        let one = try exchange("[1]", on: client).arrayValue
        XCTAssertEqual(one?.count, 1)
        assertError(one?.first, code: -32600, word: "invalid_request", id: .null)
        let three = try exchange("[1,2,3]", on: client).arrayValue
        XCTAssertEqual(three?.count, 3)
        for answer in three ?? [] { assertError(answer, code: -32600, word: "invalid_request", id: .null) }
    }

    func testBatchIsAnsweredRequestByRequestWithoutTheNotifications() throws {
        let line = "[" + [
            #"{"jsonrpc":"2.0","method":"location.set","params":{"lat":61.5,"lon":23.76},"id":"1"}"#,
            #"{"jsonrpc":"2.0","method":"location.set","params":{"lat":61.4,"lon":23.7}}"#,
            #"{"jsonrpc":"2.0","method":"location.set","params":{"lat":"north","lon":23.7},"id":"2"}"#,
            #"{"foo":"boo"}"#,
            #"{"jsonrpc":"2.0","method":"foo.get","params":{"name":"myself"},"id":"5"}"#,
            #"{"jsonrpc":"2.0","method":"status","id":"9"}"#,
        ].joined(separator: ",") + "]"
        let answers = try XCTUnwrap(try exchange(line, on: harness.client()).arrayValue)
        XCTAssertEqual(answers.count, 5, "every request but the notification is answered")
        let byID = Dictionary(answers.map { ($0["id"] ?? .null, $0) }, uniquingKeysWith: { first, _ in first })
        XCTAssertEqual(byID[.string("1")]?["result"]?["lat"], .number(61.5))
        assertError(byID[.string("2")], code: -32602, word: "invalid_params", id: .string("2"))
        assertError(byID[.null], code: -32600, word: "invalid_request", id: .null)
        assertError(byID[.string("5")], code: -32601, word: "method_not_found", id: .string("5"))
        XCTAssertEqual(byID[.string("9")]?["result"]?["protocol_version"], .number(Double(ProtocolVersion.current)))
    }

    func testBatchOfNotificationsGetsNothingBack() throws {
        let client = try harness.client()
        try client.send(Data((#"[{"jsonrpc":"2.0","method":"status"},{"jsonrpc":"2.0","method":"location.show"}]"# + "\n").utf8))
        let next = try exchange(#"{"jsonrpc":"2.0","method":"status","id":7}"#, on: client)
        XCTAssertEqual(next["id"], .number(7), "nothing was sent for the batch of notifications")
    }

    func testVersionOneClientIsToldToUpdateInTheShapeItReads() async throws {
        let answer = try exchange(#"{"jsonrpc":"2.0","method":"hello","params":{"protocol_version":1},"id":1}"#, on: harness.client())
        XCTAssertEqual(answer["error"]?["code"], .string("unsupported_version"), "a version 1 client reads the code as a word")
        XCTAssertTrue(answer["error"]?["message"]?.stringValue?.contains("update umctl") ?? false, "\(answer)")
        let current = try await harness.client().call(Endpoints.hello, Params.Hello())
        XCTAssertEqual(current.protocolVersion, 2)
    }
}
