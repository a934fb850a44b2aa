@testable import umctl
import XCTest

/// `CommandLineTool.find` matches the words on each command's `path` alone (no spec is built
/// to find a command), so the path must be the one its spec, help and man page show.
final class CommandFindingTests: XCTestCase {
    func testEveryCommandIsFoundByThePathItsSpecShows() throws {
        for type in CommandLineTool.commands {
            let found = try XCTUnwrap(CommandLineTool.find(type.spec.path + ["1", "--json"]), "\(type.spec.path)")
            XCTAssertTrue(found.0 == type, "\(type.spec.path) found \(found.0)")
            XCTAssertEqual(found.1, ["1", "--json"], "\(type.spec.path)")
        }
    }

    func testTheLongestPathWinsOverAShorterOneItStartsWith() throws {
        let found = try XCTUnwrap(CommandLineTool.find(["history", "visits", "3"]))
        XCTAssertTrue(found.0 == HistoryVisitsCommand.self, "\(found.0)")
        XCTAssertEqual(found.1, ["3"])
        XCTAssertNil(CommandLineTool.find(["plans"]))
    }
}
