import Foundation
import WireProtocol
import XCTest

/// Reading a plan as `umctl ... --json` prints it, for the tests that check plans field by field.
extension XCTestCase {
    func id(_ plan: JSONValue) throws -> String { String(Int64(try XCTUnwrap(plan["id"]?.numberValue))) }
    func segments(_ plan: JSONValue) -> [JSONValue] { plan["segments"]?.arrayValue ?? [] }
    func nodes(_ plan: JSONValue) -> [JSONValue] { plan["nodes"]?.arrayValue ?? [] }
    func date(_ value: JSONValue?) -> Date? { value?.stringValue.flatMap(WireTime.date(from:)) }
}
