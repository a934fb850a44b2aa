import Foundation
import WireProtocol
import XCTest

/// Reading a plan as `umctl ... --json` prints it, for the tests that check plans field by field.
extension XCTestCase {
    func id(_ plan: JSONValue) throws -> String { String(Int64(try XCTUnwrap(plan["id"]?.numberValue))) }
    func segments(_ plan: JSONValue) -> [JSONValue] { plan["segments"]?.arrayValue ?? [] }
    func nodes(_ plan: JSONValue) -> [JSONValue] { plan["nodes"]?.arrayValue ?? [] }
    /// The 0-based indices of the plan's transit segments.
    func transitSegments(_ plan: JSONValue) -> [Int] {
        segments(plan).indices.filter { segments(plan)[$0]["mode"] == .string("transit") }
    }
    func date(_ value: JSONValue?) -> Date? { value?.stringValue.flatMap(WireTime.date(from:)) }
    /// A node's coordinates as typed ("61.49780,23.76100"): a node typed so is named by what is near it.
    func typed(_ node: JSONValue?) -> String {
        String(format: "%.5f,%.5f", node?["lat"]?.numberValue ?? 0, node?["lon"]?.numberValue ?? 0)
    }
}
