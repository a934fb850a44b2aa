import Foundation
@testable import WireProtocol
import XCTest

/// Issue 26 (speed): `hello` and `status` params are read from the line's parse, not by
/// `JSONDecoder` reading the text again; whatever the params, the value or the error is the
/// one `JSONDecoder` gives (plain params are read from the parse, the rest by `JSONDecoder`).
final class ParamsFromParsedRequestTests: XCTestCase {
    private func request(params: String?) throws -> IncomingRequest {
        let line = #"{"jsonrpc":"2.0","id":1,"method":"hello""# + (params.map { #","params":"# + $0 } ?? "") + "}"
        guard case .single(.success(let request)) = WireCodec.requests(from: Data(line.utf8)) else {
            throw WireError(.invalidRequest, "not one request: \(line)")
        }
        return request
    }

    /// The params as `JSONDecoder` alone reads them: the value, or the failure's message.
    private func decoded<T: Decodable>(_ type: T.Type, _ params: String?) -> Result<T, WireError> {
        Result {
            try WireCodec.decoder.decode(type, from: Data((params ?? "{}").utf8))
        }.mapError { error in
            (error as? DecodingError).map { WireError(.invalidParams, WireCodec.describe($0)) } ?? WireError(.internalError, "\(error)")
        }
    }

    private func read<T: Decodable>(_ type: T.Type, _ params: String?) throws -> Result<T, WireError> {
        let request = try request(params: params)
        return Result { try request.params(type) }.mapError { $0 as? WireError ?? WireError(.internalError, "\($0)") }
    }

    func testHelloParamsAreReadAsJSONDecoderReadsThem() throws {
        let cases = [
            #"{"protocol_version":2}"#, #"{"protocol_version":2,"client":"umctl"}"#, #"{"protocol_version":2,"client":null}"#,
            #"{"protocol_version":2.0}"#, #"{"protocol_version":2e0}"#, #"{"protocol_version":-0}"#,
            #"{"protocol_version":2,"client":"a\"b\u00e4"}"#,
            #"{"protocol_version":2.5}"#, #"{"protocol_version":1e300}"#, #"{"protocol_version":"2"}"#,
            #"{"protocol_version":2,"client":5}"#, #"{"client":"umctl"}"#, "{}", nil,
        ]
        for params in cases {
            let expected = decoded(Params.Hello.self, params), got = try read(Params.Hello.self, params)
            switch (expected, got) {
            case (.success(let expected), .success(let got)): XCTAssertEqual(got, expected, params ?? "absent")
            case (.failure(let expected), .failure(let got)): XCTAssertEqual(got.code, expected.code, params ?? "absent")
            default: XCTFail("\(params ?? "absent"): JSONDecoder \(expected), read \(got)")
            }
        }
    }

    func testStatusParamsAreReadAsJSONDecoderReadsThem() throws {
        for params in [nil, "{}", "null"] {
            XCTAssertEqual(try read(Params.Empty.self, params).get(), Params.Empty(), params ?? "absent")
        }
    }

    /// Issue 44: a member the params do not hold is refused by name, whichever reader read them.
    func testMembersTheParamsDoNotHoldAreRefusedByName() throws {
        for (params, name) in [(#"{"protocolVersion":2}"#, "protocolVersion"), (#"{"protocol_version":2,"other":1}"#, "other")] {
            guard case .failure(let error) = try read(Params.Hello.self, params) else { return XCTFail("\(params) was read") }
            XCTAssertEqual(error.code, WireError.Code.invalidParams.rawValue, params)
            XCTAssertTrue(error.message.contains("\"\(name)\""), error.message)
        }
        guard case .failure(let error) = try read(Params.Empty.self, #"{"anything":1}"#) else { return XCTFail("read") }
        XCTAssertTrue(error.message.contains("\"anything\""), error.message)
    }
}
