import Foundation
import XCTest

/// What a mistyped command line gets (issue 28 item 9): one line naming the mistake and the
/// usage line, not the whole help; each option listed once; a "did you mean" for a typo.
final class CommandLinePolishTests: XCTestCase {
    func run(_ executable: String, _ arguments: [String]) throws -> DaemonHarness.CommandResult {
        let directory = try DaemonHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        return try DaemonHarness.run(executable, arguments, in: directory)
    }

    func testAnUnknownDaemonOptionGetsOneLineAndTheUsageLine() throws {
        let result = try run(DaemonHarness.usefulmapd, ["--bogus"])
        XCTAssertEqual(result.status, 2)
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, result.stderr)
        XCTAssertEqual(lines.first, "usefulmapd: unknown option --bogus")
        XCTAssertTrue(lines.last?.hasPrefix("usage: usefulmapd") == true, result.stderr)
    }

    func testTheDaemonHelpListsEachOptionOnce() throws {
        let help = try run(DaemonHarness.usefulmapd, ["--help"])
        XCTAssertEqual(help.status, 0)
        let flags = help.stdout.matches(of: /--[a-z][a-z-]+/).map { String($0.output) }
        XCTAssertGreaterThanOrEqual(Set(flags).count, 19, help.stdout)
        let repeated = Dictionary(grouping: flags, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        XCTAssertEqual(repeated, [], help.stdout)
    }

    func testAnUnknownUmctlOptionGetsTheCommandsUsageLine() throws {
        let result = try run(DaemonHarness.umctl, ["plan", "show", "1", "--bogus"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr.split(separator: "\n"),
                       ["umctl: unknown option --bogus for `umctl plan show`", "usage: umctl plan show ID [--geometry] [--tolerance M]"],
                       result.stderr)
    }

    func testAnUnknownUmctlOptionBeforeAnyCommandIsAnErrorNotTheOverview() throws {
        let result = try run(DaemonHarness.umctl, ["--bogus"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stdout, "", "the overview is not printed")
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.first, "umctl: unknown option --bogus", result.stderr)
        XCTAssertEqual(lines.count, 2, result.stderr)
        XCTAssertTrue(lines.last?.hasPrefix("usage: umctl COMMAND") == true, result.stderr)
    }

    func testAMistypedCommandGetsADidYouMean() throws {
        let show = try run(DaemonHarness.umctl, ["plan", "shwo", "1"])
        XCTAssertEqual(show.status, 2)
        XCTAssertTrue(show.stderr.contains("did you mean `umctl plan show`?"), show.stderr)
        let status = try run(DaemonHarness.umctl, ["stauts"])
        XCTAssertTrue(status.stderr.contains("did you mean `umctl status`?"), status.stderr)
        let option = try run(DaemonHarness.umctl, ["plan", "new", "A", "B", "--arive-by", "08:00"])
        XCTAssertEqual(option.status, 2)
        XCTAssertTrue(option.stderr.contains("unknown option --arive-by for `umctl plan new`; did you mean --arrive-by?"), option.stderr)
        let nonsense = try run(DaemonHarness.umctl, ["plan", "qqqqqq"])
        XCTAssertEqual(nonsense.status, 2)
        XCTAssertFalse(nonsense.stderr.contains("did you mean"), "nothing is near: \(nonsense.stderr)")
    }
}
