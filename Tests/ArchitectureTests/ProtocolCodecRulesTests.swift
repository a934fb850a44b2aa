import Foundation
import XCTest

/// One protocol codec at both ends (issue 45): umctl, the web gateway, the daemon and the bench
/// (a client too) write and read request, answer and event lines through `WireCodec` alone, so a
/// change of the wire's JSON (its number format, its escapes, its key order) is made once and
/// holds at both ends.
final class ProtocolCodecRulesTests: XCTestCase {
    func testOnlyTheWireCodecWritesOrReadsTheProtocolsJSON() throws {
        var checked = 0
        for folder in ["umctl", "Daemon", "usefulmap-bench"] {
            let directory = LayeringTests.sourcesDirectory.appendingPathComponent(folder)
            let paths = try XCTUnwrap(FileManager.default.enumerator(atPath: directory.path), folder)
            for case let path as String in paths where path.hasSuffix(".swift") {
                let code = HandlerRulesTests.code(try String(contentsOf: directory.appendingPathComponent(path), encoding: .utf8))
                checked += 1
                for name in ["JSONWriter.", "JSONParser.", "JSONValueDecoder."] {
                    XCTAssertFalse(code.contains(name), "\(folder)/\(path) uses \(name.dropLast()): go through WireCodec")
                }
            }
        }
        XCTAssertGreaterThan(checked, 100, "the sources were not found")
    }
}
