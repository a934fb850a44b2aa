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

    /// `find` looks only among the commands listed under the words' first word, so each command
    /// is listed under its own path's first word, once.
    func testEachCommandIsListedOnceUnderItsPathsFirstWord() {
        for word in CommandLineTool.firstWords {
            for type in CommandLineTool.commands(startingWith: word) {
                XCTAssertEqual(type.path.first, word, "\(type)")
            }
        }
        let paths = CommandLineTool.commands.map { $0.path.joined(separator: " ") }
        XCTAssertEqual(Set(paths).count, paths.count, "a command listed twice: \(paths)")
        XCTAssertTrue(CommandLineTool.commands(startingWith: "plans").isEmpty)
    }

    /// "Did you mean" looks among the paths without building any spec: they are the specs' paths.
    func testTheSuggestedPathsAreTheSpecsPaths() {
        XCTAssertEqual(CommandLineTool.allPaths, CommandLineTool.allSpecs.map(\.path))
        XCTAssertEqual(CommandLineTool.didYouMean(["plan", "shwo", "3"]), "; did you mean `umctl plan show`?")
        XCTAssertEqual(CommandLineTool.didYouMean(["batc"]), "; did you mean `umctl batch`?")
    }

    /// The edit distance of a typo: each insertion, deletion, substitution and swap of two
    /// neighbours counts one.
    func testTheEditDistanceCountsEachEditAndASwapAsOne() {
        XCTAssertEqual(CommandSuggestion.editDistance("plan show", "plan show"), 0)
        XCTAssertEqual(CommandSuggestion.editDistance("plan shwo", "plan show"), 1)
        XCTAssertEqual(CommandSuggestion.editDistance("pln show", "plan show"), 1)
        XCTAssertEqual(CommandSuggestion.editDistance("plan showw", "plan show"), 1)
        XCTAssertEqual(CommandSuggestion.editDistance("plam shoe", "plan show"), 2)
        XCTAssertEqual(CommandSuggestion.editDistance("", "agenda"), 6)
        XCTAssertEqual(CommandSuggestion.editDistance("statsu", "status"), 1)
        XCTAssertEqual(CommandSuggestion.editDistance("kitten", "sitting"), 3)
        XCTAssertEqual(CommandSuggestion.editDistance("ca", "abc"), 3, "a swap is not edited again")
    }
}
