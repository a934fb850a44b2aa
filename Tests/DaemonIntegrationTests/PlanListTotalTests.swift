import Foundation
import WireProtocol
import XCTest

/// `plan list` shows a plan's total as `plan show` does: the difference of the first and last
/// times shown, not the stored seconds rounded (issue 39: the two differed by a minute).
final class PlanListTotalTests: SharedTampereDaemonTestCase {
    func testPlanListShowsTheTotalPlanShowShows() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Keskustori", "Rautatieasema", "--mode", "walk", "--at", "2022-01-12T08:00"])
        let id = try id(created)
        let seconds = try XCTUnwrap(created["total_duration_s"]?.numberValue, "\(created)")
        XCTAssertGreaterThanOrEqual(seconds.truncatingRemainder(dividingBy: 60), 30,
                                    "Tampere's streets: a walk of a part minute that rounds up, shown from 08:00 rounds down: \(seconds)")

        let shown = try harness.umctl(["plan", "show", id])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        let totalLine = try XCTUnwrap(shown.stdout.split(separator: "\n").first { $0.hasPrefix("  total: ") }, shown.stdout)
        let total = try XCTUnwrap(totalLine.dropFirst("  total: ".count).split(separator: ",").first.map(String.init))
        XCTAssertEqual(total, "\(Int(seconds / 60)) min", "08:00 to the minute the walk ends: \(shown.stdout)")

        let listed = try harness.umctl(["plan", "list"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let row = try XCTUnwrap(listed.stdout.split(separator: "\n").first { $0.hasPrefix("\(id) ") }, listed.stdout)
        XCTAssertTrue(row.contains("  \(total)  "), "the list's total is plan show's (\(total)): \(row)")

        let plans = try harness.json(["plan", "list"])["plans"]?.arrayValue ?? []
        let summary = try XCTUnwrap(plans.first { $0["id"]?.numberValue == Double(id) }, "\(plans)")
        XCTAssertEqual(summary["departure"], nodes(created).first?["time"], "\(summary)")
        let arrival = try XCTUnwrap(date(summary["arrival"]), "\(summary)")
        XCTAssertEqual(arrival.timeIntervalSince1970, try XCTUnwrap(date(nodes(created).last?["time"])).timeIntervalSince1970,
                       accuracy: 1, "\(summary)")
    }
}
