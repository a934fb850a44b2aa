import Foundation
import TestSupport
import WireProtocol
import XCTest

/// A param a method does not take is refused by name, never ignored: a misspelt guard, a
/// setting the method does not have, or one on `status`. And `plan.delete` honours
/// `expected_generation` like every edit (`plan.copy` and `plan.remind` too: GuardedPlanMethodsTests).
final class StrictParamsTests: TampereDaemonTestCase {
    func exchange(_ line: String) throws -> JSONValue {
        let client = try harness.client()
        try client.send(Data((line + "\n").utf8))
        return try JSONParser.parse(client.receiveLine())
    }

    func testUnknownParamsAreRefusedAsInvalidParamsNamingThemAndChangeNothing() throws {
        let plan = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "walk", "--at", Tampere.morning])
        let id = try XCTUnwrap(plan["id"]?.numberValue)
        let calls = [
            (#"{"jsonrpc":"2.0","method":"status","params":{"verbose":true},"id":1}"#, "verbose"),
            (#"{"jsonrpc":"2.0","method":"plan.remind","params":{"id":\#(Int(id)),"on":true,"lead":60},"id":2}"#, "lead"),
            (#"{"jsonrpc":"2.0","method":"plan.copy","params":{"id":\#(Int(id)),"expected_generaton":1},"id":3}"#, "expected_generaton"),
            (#"{"jsonrpc":"2.0","method":"plan.rename","params":{"id":\#(Int(id)),"title":"x","expected_generaton":1},"id":4}"#,
             "expected_generaton"),
            // A read takes no guard: plan.link's is refused as plan.show's is (it was taken and ignored).
            (#"{"jsonrpc":"2.0","method":"plan.link","params":{"id":\#(Int(id)),"segment":1,"expected_generation":1},"id":6}"#,
             "expected_generation"),
        ]
        for (line, name) in calls {
            let answer = try exchange(line)
            XCTAssertEqual(answer["error"]?["data"]?["code"], .string("invalid_params"), "\(line): \(answer)")
            XCTAssertTrue(answer["error"]?["message"]?.stringValue?.contains("\"\(name)\"") == true, "names it: \(answer)")
        }
        let after = try harness.json(["plan", "show", String(Int(id))])
        XCTAssertEqual(after["title"], plan["title"], "the rename with a misspelt guard did nothing")
        XCTAssertEqual(after["reminder"]?["on"] ?? .null, plan["reminder"]?["on"] ?? .null)
        XCTAssertEqual(try harness.json(["plan", "list"])["plans"]?.arrayValue?.count, 1, "no copy was made")
        let known = try exchange(#"{"jsonrpc":"2.0","method":"plan.show","params":{"id":\#(Int(id)),"geometry":null},"id":5}"#)
        XCTAssertNotNil(known["result"], "a param given as null is as absent: \(known)")
    }

    func testPlanDeleteOnAStaleGenerationIsAConflictAndDeletesNothing() throws {
        let plan = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "walk", "--at", Tampere.morning])
        let id = Int(try XCTUnwrap(plan["id"]?.numberValue))
        _ = try harness.json(["plan", "rename", String(id), "renamed"])  // generation 2
        let stale = try exchange(#"{"jsonrpc":"2.0","method":"plan.delete","params":{"id":\#(id),"expected_generation":1},"id":1}"#)
        XCTAssertEqual(stale["error"]?["data"]?["code"], .string("conflict"), "\(stale)")
        XCTAssertNotNil(try harness.json(["plan", "show", String(id)])["id"], "the plan is still there")
        let current = try exchange(#"{"jsonrpc":"2.0","method":"plan.delete","params":{"id":\#(id),"expected_generation":2},"id":2}"#)
        XCTAssertEqual(current["result"]?["deleted"], .number(Double(id)), "\(current)")
    }
}
