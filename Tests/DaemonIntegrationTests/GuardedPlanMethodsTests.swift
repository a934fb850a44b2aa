import Foundation
import TestSupport
import WireProtocol
import XCTest

/// `expected_generation` on `plan.delete`, `plan.copy` and `plan.remind` (issue 44 item 10):
/// honoured, never ignored, and a delete's check made in the step that deletes.
final class GuardedPlanMethodsTests: SharedTampereDaemonTestCase {
    private func exchange(_ method: String, _ params: String) throws -> JSONValue {
        let client = try harness.client()
        try client.send(Data(#"{"jsonrpc":"2.0","method":"\#(method)","params":\#(params),"id":1}"#.utf8 + [0x0A]))
        return try JSONParser.parse(client.receiveLine())
    }

    /// A walk plan renamed once: at generation 2.
    private func planAtGenerationTwo() throws -> Int {
        let plan = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "walk", "--at", Tampere.morning])
        let id = Int(try XCTUnwrap(plan["id"]?.numberValue))
        _ = try harness.json(["plan", "rename", String(id), "guarded"])
        return id
    }

    func testPlanCopyOnAStaleGenerationIsAConflictAndCopiesNothingAndOnTheCurrentOneCopies() throws {
        let id = try planAtGenerationTwo()
        let plans = try harness.json(["plan", "list"])["plans"]?.arrayValue?.count
        let stale = try exchange("plan.copy", #"{"id":\#(id),"expected_generation":1}"#)
        XCTAssertEqual(stale["error"]?["data"]?["code"], .string("conflict"), "\(stale)")
        XCTAssertEqual(stale["error"]?["data"]?["generation"], .number(2), "\(stale)")
        XCTAssertEqual(try harness.json(["plan", "list"])["plans"]?.arrayValue?.count, plans, "no copy was made")
        let current = try exchange("plan.copy", #"{"id":\#(id),"expected_generation":2}"#)
        XCTAssertEqual(current["result"]?["title"], .string("guarded (copy)"), "\(current)")
        XCTAssertEqual(current["result"]?["generation"], .number(1), "\(current)")
    }

    func testPlanRemindOnAStaleGenerationIsAConflictAndChangesNothingAndOnTheCurrentOneSetsIt() throws {
        let id = try planAtGenerationTwo()
        let stale = try exchange("plan.remind", #"{"id":\#(id),"on":false,"expected_generation":1}"#)
        XCTAssertEqual(stale["error"]?["data"]?["code"], .string("conflict"), "\(stale)")
        XCTAssertEqual(try exchange("plan.remind", #"{"id":\#(id)}"#)["result"]?["on"], .bool(true), "still on")
        let current = try exchange("plan.remind", #"{"id":\#(id),"on":false,"expected_generation":2}"#)
        XCTAssertEqual(current["result"]?["on"], .bool(false), "\(current)")
        XCTAssertEqual(try exchange("plan.remind", #"{"id":\#(id)}"#)["result"]?["on"], .bool(false))
        let unknown = try exchange("plan.remind", #"{"id":999999,"on":true,"expected_generation":1}"#)
        XCTAssertEqual(unknown["error"]?["data"]?["code"], .string("not_found"), "\(unknown)")
    }

    /// A rename and a delete guarded by the generation the client read, sent at once on two
    /// connections, round after round: at most one of them is answered as done, and an answered
    /// rename is never lost with a deleted plan.
    func testARenameAndADeleteOfTheSameGenerationSentTogetherNeverBothSucceed() throws {
        let template = try planAtGenerationTwo()
        for round in 0..<30 {
            let copy = try exchange("plan.copy", #"{"id":\#(template)}"#)
            let id = Int(try XCTUnwrap(copy["result"]?["id"]?.numberValue, "\(copy)"))
            let renaming = try harness.client(), deleting = try harness.client()
            try renaming.send(Data(#"{"jsonrpc":"2.0","method":"plan.rename","params":{"id":\#(id),"title":"round \#(round)"},"id":1}"#.utf8 + [0x0A]))
            try deleting.send(Data(#"{"jsonrpc":"2.0","method":"plan.delete","params":{"id":\#(id),"expected_generation":1},"id":2}"#.utf8 + [0x0A]))
            let renamed = try JSONParser.parse(renaming.receiveLine()), deleted = try JSONParser.parse(deleting.receiveLine())
            if renamed["result"] != nil {
                XCTAssertEqual(deleted["error"]?["data"]?["code"], .string("conflict"), "round \(round): the rename was answered, so the delete must not go through: \(deleted)")
                let shown = try exchange("plan.show", #"{"id":\#(id)}"#)
                XCTAssertEqual(shown["result"]?["title"], .string("round \(round)"), "round \(round): the answered rename is kept: \(shown)")
            } else {
                XCTAssertEqual(renamed["error"]?["data"]?["code"], .string("not_found"), "round \(round): \(renamed)")
                XCTAssertEqual(deleted["result"]?["deleted"], .number(Double(id)), "round \(round): \(deleted)")
            }
        }
    }
}
