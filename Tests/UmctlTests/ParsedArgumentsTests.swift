@testable import umctl
import XCTest

/// What a command line parses to, now that options and a variadic positional's words are kept
/// in arrays of strings: the last value of an option wins, a repeatable option keeps every
/// value in order, a variadic positional keeps its words one by one.
final class ParsedArgumentsTests: XCTestCase {
    func testAnOptionsLastValueAndARepeatableOptionsEveryValueInOrder() throws {
        let parsed = try RegionImportCommand.spec.parse(["tampere", "--gtfs", "b.zip", "--osm", "t.pbf", "--gtfs=a.zip",
                                                         "--socket", "/s", "--force"])
        XCTAssertEqual(parsed.optional("--osm"), "t.pbf")
        XCTAssertEqual(parsed.all("--gtfs"), ["b.zip", "a.zip"])
        XCTAssertEqual(parsed.optional("--gtfs"), "a.zip")
        XCTAssertEqual(parsed.optional("--socket"), "/s")
        XCTAssertEqual(try parsed.string("NAME"), "tampere")
        XCTAssertTrue(parsed.flag("--force"))
        XCTAssertNil(parsed.optional("--time-zone"))
        XCTAssertEqual(parsed.all("--time-zone"), [])
        XCTAssertThrowsError(try parsed.string("--time-zone"))
    }

    func testANonRepeatableOptionGivenTwiceIsRefused() {
        XCTAssertThrowsError(try RegionImportCommand.spec.parse(["tampere", "--osm", "a.pbf", "--osm", "b.pbf"])) {
            XCTAssertEqual(($0 as? UsageError)?.description, "--osm given twice")
        }
    }

    func testAVariadicPositionalKeepsItsWordsOneByOne() throws {
        let plan = try PlanNewCommand.spec.parse(["Home", "Work", "Shop", "Old Town", "--mode", "walk"])
        XCTAssertEqual(plan.words("MORE"), ["Shop", "Old Town"])
        XCTAssertEqual(plan.optional("MORE"), "Shop Old Town")
        XCTAssertEqual(plan.words("FROM"), [])
        XCTAssertEqual(try PlanNewCommand.spec.parse(["Home", "Work"]).words("MORE"), [])
        XCTAssertEqual(try RegionUpdateCommand.spec.parse(["a", "b"]).words("NAME"), ["a", "b"])
        XCTAssertEqual(try RegionUpdateCommand(RegionUpdateCommand.spec.parse(["a", "b", "--force"])).names, ["a", "b"])
        XCTAssertEqual(try RegionUpdateCommand(RegionUpdateCommand.spec.parse([])).names, [])
    }
}
