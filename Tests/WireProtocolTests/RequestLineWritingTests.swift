import FoundationEssentials
import WireProtocol
import XCTest

/// A request line is written member by member, without making the envelope's object: the
/// bytes are the same as the envelope written as one `JSONValue` (sorted keys), for every
/// shape of id and params.
final class RequestLineWritingTests: XCTestCase {
    func testARequestIsWrittenAsItsEnvelopeObjectWouldBe() {
        let params: [JSONValue?] = [
            nil, .object([:]), .null,
            .object(["protocol_version": .number(2), "client": .string("umctl 0.1.0")]),
            .object(["b": .array([.number(1.5), .bool(true), .null]), "a": .object(["z\"\\\n": .string("tab\there\u{1}")])]),
            .array([.string("ä ✓")]),
        ]
        let ids: [RequestID?] = [nil, .number(1), .number(-7), .number(9_007_199_254_740_991), .string(""), .string("id \"quoted\"")]
        for id in ids {
            for params in params {
                for method in ["status", "plan.show", "wéird \"method\"\n"] {
                    let request = WireRequest(id: id, method: method, params: params)
                    XCTAssertEqual(String(decoding: JSONWriter.data(request), as: UTF8.self),
                                   String(decoding: JSONWriter.data(request.jsonValue), as: UTF8.self))
                }
            }
        }
    }

    func testARequestLineIsItsJSONAndANewline() throws {
        let request = WireRequest(id: .number(2), method: "status", params: .object([:]))
        XCTAssertEqual(String(decoding: try WireCodec.line(for: request), as: UTF8.self),
                       #"{"id":2,"jsonrpc":"2.0","method":"status","params":{}}"# + "\n")
    }

    func testTheHelloParamsAreWrittenWithBothKeys() {
        XCTAssertEqual(String(decoding: JSONWriter.data(Params.Hello(protocolVersion: 2, client: "umctl 0.1.0").jsonValue), as: UTF8.self),
                       #"{"client":"umctl 0.1.0","protocol_version":2}"#)
        XCTAssertEqual(String(decoding: JSONWriter.data(Params.Hello(protocolVersion: 2).jsonValue), as: UTF8.self),
                       #"{"protocol_version":2}"#)
    }
}
