import Foundation
import TestSupport
import WireProtocol
import XCTest

final class JSONParserTests: XCTestCase {
    func parse(_ text: String) throws -> JSONValue { try JSONParser.parse(Data(text.utf8)) }

    func testReadsEveryKindOfValue() throws {
        let value = try parse(#" {"a": [1, -2.5, 3e2, true, false, null], "b": {"c": "d"}, "e": ""} "#)
        XCTAssertEqual(value, .object([
            "a": .array([.number(1), .number(-2.5), .number(300), .bool(true), .bool(false), .null]),
            "b": .object(["c": .string("d")]), "e": .string(""),
        ]))
    }

    func testStringEscapesAndSurrogatePairsDecode() throws {
        XCTAssertEqual(try parse(#""a\"b\\c\/d\n\t\u00e4\ud83d\ude8b""#), .string("a\"b\\c/d\n\tä🚋"))
        XCTAssertEqual(try parse(#""Hervannan kampus → Tampere-talo""#), .string("Hervannan kampus → Tampere-talo"))
    }

    func testInvalidTextIsRefused() {
        for text in ["", "{", "[1,]", "{\"a\":1,}", "01", "1.", "-", "1e", "tru", "\"a", "\"\u{01}\"", "{} x", "{'a':1}",
                     #""\ud83d""#, #""\x""#, "nan", "[1 2]"] {
            XCTAssertThrowsError(try parse(text), text)
        }
    }

    func testDeepNestingIsRefusedInsteadOfExhaustingTheStack() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        XCTAssertThrowsError(try parse(deep))
        XCTAssertNoThrow(try parse(String(repeating: "[", count: 100) + String(repeating: "]", count: 100)))
    }

    func testAgreesWithFoundationOnAPlanDocument() throws {
        let plan = PlanDocument(
            id: 3, title: "to \"work\"\n", nodes: [NodeDocument(name: "Keskustori ä", lat: 61.4983297, lon: 23.7608257,
                                                                time: "2022-01-12T08:01:58+02:00", inferred: false, currentLocation: false)],
            segments: [SegmentDocument(mode: .walk, locked: true, leg: LegDocument(
                durationS: 97.25, distanceM: 1418.7522636248432, departure: nil, arrival: nil, transfers: 0, rides: []))],
            totalDurationS: nil, totalDistanceM: 1e-7, pending: [], pace: .normal,
            timePreference: TimePreferenceDocument(kind: "leave_now", time: nil), pinnedSegment: nil, generation: 2,
            timeZone: "Europe/Helsinki")
        let data = try WireCodec.encoder.encode(plan)
        XCTAssertEqual(try JSONParser.parse(data), try JSONDecoder().decode(JSONValue.self, from: data))
    }

    func testWriterOutputReadsBackToTheSameValue() throws {
        let value: JSONValue = .object(["z": .array([.number(1), .number(0.1), .number(-1e20), .string("a\u{01}\"\\/é")]),
                                        "a": .null, "m": .object(["k": .bool(true)])])
        XCTAssertEqual(try JSONParser.parse(JSONWriter.data(value)), value)
        XCTAssertEqual(String(decoding: JSONWriter.data(.object(["b": .number(2), "a": .number(1)])), as: UTF8.self), #"{"a":1,"b":2}"#)
    }

    func testWriterNeverProducesInvalidJSONForNonFiniteNumbers() throws {
        XCTAssertEqual(String(decoding: JSONWriter.data(.array([.number(.nan), .number(.infinity)])), as: UTF8.self), "[null,null]")
    }

    /// Objects are made at their end from the members read (nested ones first): each object
    /// gets its own members, and a repeated key keeps its last value.
    func testNestedObjectsKeepTheirOwnMembersAndTheLastOfARepeatedKey() throws {
        let text = #"{"x":{"y":{"z":1},"w":2,"y2":{}},"v":[{"a":1},{"b":{"c":[{"d":3}]}}],"k":1,"k":{"last":true}}"#
        XCTAssertEqual(try JSONParser.parse(Data(text.utf8)), .object([
            "x": .object(["y": .object(["z": .number(1)]), "w": .number(2), "y2": .object([:])]),
            "v": .array([.object(["a": .number(1)]), .object(["b": .object(["c": .array([.object(["d": .number(3)])])])])]),
            "k": .object(["last": .bool(true)]),
        ]))
        XCTAssertThrowsError(try JSONParser.parse(Data(#"{"a":{"b":1,}"#.utf8)), "a failure inside a nested object")
    }

    /// Whole numbers are read without strtod: every number reads as `Double(text)` does, the
    /// sign of zero included, on both sides of the 15 digits read directly.
    func testEveryNumberReadsAsDoubleReadsItsText() throws {
        var texts = ["0", "-0", "7", "-7", "10", "42", "-0.0", "0.5", "1e3", "1E-2", "-12.5e+2", "123456789012345",
                     "-123456789012345", "999999999999999", "1000000000000000", "9007199254740993", "12345678901234567890",
                     "-9223372036854775808", "92233720368547758070"]
        var random = SeededRandom(seed: 26)
        for _ in 0..<500 {
            let seed = random.next()
            let digits = Int(seed >> 60) + 1
            texts.append((seed & 1 == 0 ? "-" : "") + String(String(seed >> 1).prefix(digits)))
        }
        for text in texts {
            let parsed = try JSONParser.parse(Data("[\(text)]".utf8))
            guard case .array(let values) = parsed, case .number(let number)? = values.first else { return XCTFail(text) }
            let expected = try XCTUnwrap(Double(text), text)
            XCTAssertEqual(number.bitPattern, expected.bitPattern, text)
        }
    }

    func testANumberFollowedByMoreDigitsAfterALeadingZeroIsRefused() {
        XCTAssertThrowsError(try JSONParser.parse(Data("[01]".utf8)))
        XCTAssertThrowsError(try JSONParser.parse(Data("[-]".utf8)))
    }
}
