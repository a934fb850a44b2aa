import FoundationEssentials
import TestSupport
@testable import WireProtocol
import XCTest

/// One codec at both ends (issue 45): what umctl writes the daemon reads as it was written, and
/// what the daemon answers umctl reads as it was answered, for any params and any result
/// (random values from a fixed seed, so that a failure is the same failure again).
final class WireCodecRoundTripTests: XCTestCase {
    /// A request umctl writes (`WireClient`: the params as a `JSONValue`, the line by
    /// `WireCodec.line(for:)`) is read by the daemon's decoder (`WireCodec.requests`) with the
    /// same id, method and params.
    func testARequestUmctlWritesIsReadByTheDaemonAsWritten() throws {
        var random = SeededValues(seed: 45)
        for round in 0..<2_000 {
            let id = random.requestID()
            let method = random.string(maximumLength: 12)
            let members = random.members(depth: 3)
            let line = try WireCodec.line(for: WireRequest(id: id, method: method.isEmpty ? "status" : method, params: .object(members)))
            XCTAssertEqual(line.last, 0x0A)
            XCTAssertFalse(line.dropLast().contains(0x0A), "round \(round): one line")
            guard case .single(.success(let request)) = WireCodec.requests(from: line.dropLast()) else {
                return XCTFail("round \(round): not read: \(String(decoding: line, as: UTF8.self))")
            }
            XCTAssertEqual(request.id, id, "round \(round)")
            XCTAssertEqual(request.method, method.isEmpty ? "status" : method, "round \(round)")
            XCTAssertEqual(request.members, members, "round \(round): \(String(decoding: line, as: UTF8.self))")
        }
    }

    /// Typed params go the same way: encoded as umctl encodes them, decoded as a method's params.
    func testTypedParamsUmctlWritesDecodeToTheSameValue() throws {
        var random = SeededValues(seed: 7)
        for _ in 0..<500 {
            let sent = Params.Hello(protocolVersion: Int(random.next() % 1_000), client: random.next() % 3 == 0 ? nil : random.string(maximumLength: 20))
            let line = try WireCodec.line(for: WireRequest(id: .number(1), method: "hello", params: JSONValue(encoding: sent)))
            guard case .single(.success(let request)) = WireCodec.requests(from: line.dropLast()) else { return XCTFail("\(sent)") }
            XCTAssertEqual(try request.params(Params.Hello.self), sent)
        }
    }

    /// An answer the daemon writes (`WireCodec.resultAnswer`, `errorAnswer`) and an event line
    /// (`WireCodec.line(for:)` of the notification, the bytes `EventLine` writes) are read by
    /// umctl (`WireCodec.incoming`) as they were written.
    func testAnswersAndEventLinesTheDaemonWritesAreReadByUmctlAsWritten() throws {
        var random = SeededValues(seed: 2026)
        for round in 0..<2_000 {
            let id = random.requestID()
            let result = random.value(depth: 3)
            let answer = try WireCodec.resultAnswer(id: id, result: result)
            XCTAssertFalse(answer.contains(0x0A), "round \(round): one line")
            XCTAssertEqual(try WireCodec.incoming(from: answer), .response(WireResponse(id: id, result: result)), "round \(round)")

            var detail = random.members(depth: 1)
            detail["code"] = nil // the word's own place in `data`
            let error = WireError(code: random.string(maximumLength: 10), message: random.string(maximumLength: 30),
                                  data: detail.isEmpty ? nil : .object(detail))
            XCTAssertEqual(try WireCodec.incoming(from: WireCodec.errorAnswer(id: id, error: error)),
                           .response(WireResponse(id: id, error: error)), "round \(round)")

            var params = random.members(depth: 2)
            params["request_id"] = id.jsonValue
            let event = WireNotification(method: WireMethod.eventNotification, params: .object(params))
            XCTAssertEqual(try WireCodec.incoming(from: try WireCodec.line(for: event).dropLast()), .notification(event), "round \(round)")
        }
    }
}

/// Random JSON values from a fixed seed (the tests' `SeededRandom`): strings with quotes,
/// backslashes, control characters and scalars beyond the BMP; whole and fractional numbers of
/// every size JSON carries.
struct SeededValues {
    private var random: SeededRandom

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    mutating func next() -> UInt64 { random.next() }

    /// An id as the daemon accepts them: an integer JSON carries exactly, or a string.
    mutating func requestID() -> RequestID {
        next() % 2 == 0 ? .number(Int64(bitPattern: next()) % 9_007_199_254_740_991) : .string(string(maximumLength: 8))
    }

    mutating func string(maximumLength: Int) -> String {
        let pool: [Unicode.Scalar] = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}", "ä", "€",
                                      "\u{2028}", "\u{FEFF}", "\u{1F68B}", "\u{10FFFF}", "_", "."]
        var text = String.UnicodeScalarView()
        for _ in 0..<Int(next() % UInt64(maximumLength + 1)) { text.append(pool[Int(next() % UInt64(pool.count))]) }
        return String(text)
    }

    mutating func number() -> Double {
        switch next() % 5 {
        case 0: Double(Int64(bitPattern: next()) % 1_000_000)
        case 1: Double(Int64(bitPattern: next()) % 9_007_199_254_740_991)
        case 2: Double(bitPattern: next() % 0x7FF0_0000_0000_0000) * (next() % 2 == 0 ? 1 : -1) // any finite double
        case 3: Double(next() % 100_000) / 1_000
        default: Double(next() % 1_000_000) * 1e-9
        }
    }

    mutating func value(depth: Int) -> JSONValue {
        switch next() % (depth > 0 ? 6 : 4) {
        case 0: .null
        case 1: .bool(next() % 2 == 0)
        case 2: .number(number())
        case 3: .string(string(maximumLength: 16))
        case 4: .array((0..<Int(next() % 4)).map { _ in value(depth: depth - 1) })
        default: .object(members(depth: depth - 1))
        }
    }

    mutating func members(depth: Int) -> [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        for _ in 0..<Int(next() % 5) { members[string(maximumLength: 6)] = value(depth: max(0, depth)) }
        return members
    }
}
