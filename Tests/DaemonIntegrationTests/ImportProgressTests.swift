import Foundation
import XCTest

/// Issue 16: import progress on a terminal is one line that updates, with the overall percent
/// and the phase (footpath timing included); piped, it stays one line per update.
final class ImportProgressTests: XCTestCase {
    /// A region small enough to import in a moment, whose two stops (283 m apart) get a footpath each way.
    private func sources(in harness: DaemonHarness) throws -> [String] {
        var region = SmallRegion(name: "tokyo", latitude: 35.6812, longitude: 139.7671)
        region.size = 3
        let line = SmallRegion.Line(zone: "Asia/Tokyo", fromStop: "Kanda Gate", toStop: "Marunouchi Square",
                                    departure: "08:00:00", minutes: 5, dates: ("20260101", "20261231"))
        return ["region", "import", "tokyo", "--force", "--osm", try region.writeOSM(in: harness.directory).path,
                "--gtfs", try region.writeFeed(line, in: harness.directory).path]
    }

    /// The percents in order of appearance ("  7% building routing database", "100% switching").
    private func percents(_ text: String) -> [Int] {
        let pattern = try? NSRegularExpression(pattern: "(?:^|\\r\\u001B\\[K|\\n) *([0-9]{1,3})% ")
        return (pattern?.matches(in: text, range: NSRange(text.startIndex..., in: text)) ?? []).compactMap { match in
            Range(match.range(at: 1), in: text).flatMap { Int(text[$0]) }
        }
    }

    func testOnATerminalProgressIsOneLineRewrittenInPlaceWithAnOverallPercentThatOnlyGrows() throws {
        let harness = try startDaemon()
        let command = ([DaemonHarness.umctl] + (try sources(in: harness)) + ["--socket", harness.socketPath])
            .map { "'\($0)'" }.joined(separator: " ")
        // script(1) gives umctl a pseudo-terminal and records what it wrote there.
        let result = try DaemonHarness.run("/usr/bin/script", ["-qec", command, "/dev/null"], in: harness.directory)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        let output = result.stdout
        let progress = try XCTUnwrap(output.components(separatedBy: "imported region tokyo").first)
        XCTAssertTrue(progress.contains("\r\u{1B}[K"), "rewritten in place: \(output.debugDescription)")
        // script(1) records the terminal's line ends as "\r\n".
        XCTAssertEqual(progress.filter { $0 == "\n" || $0 == "\r\n" }.count, 1,
                       "every update on one line, ended once before the answer: \(progress.debugDescription)")
        XCTAssertTrue(progress.contains("transit timetable: timing footpaths on the streets: 2 of 2"), progress.debugDescription)
        let seen = percents(progress)
        XCTAssertGreaterThan(seen.count, 5, progress.debugDescription)
        XCTAssertEqual(seen, seen.sorted(), "the overall percent never goes back when a phase starts")
        XCTAssertEqual(seen.last, 100)
    }

    func testPipedProgressIsOneLinePerUpdateWithoutCarriageReturns() throws {
        let harness = try startDaemon()
        let result = try harness.umctl(try sources(in: harness))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stderr.contains("\r"), result.stderr.debugDescription)
        XCTAssertFalse(result.stderr.contains("\u{1B}"), result.stderr.debugDescription)
        let lines = result.stderr.split(separator: "\n")
        XCTAssertGreaterThan(lines.count, 5)
        XCTAssertTrue(lines.contains { $0.hasSuffix("transit timetable: timing footpaths on the streets: 2 of 2") }, result.stderr)
        XCTAssertEqual(percents(result.stderr), percents(result.stderr).sorted())
        XCTAssertTrue(result.stdout.hasPrefix("imported region tokyo"), result.stdout)
    }
}
