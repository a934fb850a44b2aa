import Foundation
import WireProtocol
import XCTest

/// Session 58: `plan alternatives` printed only "leaves", the walk's start at the segment's start,
/// while `plan pin ID SEG HH:MM` takes the time a ride leaves its stop, so a time read off the
/// list pinned another bus (or none). The list now prints "boards" too: the first ride's time at
/// its stop, which `plan pin` takes.
final class AlternativesBoardingTimeTests: SharedTampereDaemonTestCase {
    func testTheBoardingTimeListedIsTheOnePlanPinTakes() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Amuri", "Kaleva A", "--mode", "transit", "--at", "2022-01-12T08:00"])
        let plan = try id(created)
        let options = try harness.json(["plan", "alternatives", plan, "1"])["options"]?.arrayValue ?? []
        let text = try harness.umctl(["plan", "alternatives", plan, "1"])
        XCTAssertEqual(text.status, 0, text.stderr)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        let header = try XCTUnwrap(lines.first { $0.hasPrefix("#") }, text.stdout).split(separator: " ").map(String.init)
        let boardsColumn = try XCTUnwrap(header.firstIndex(of: "boards"), "a boards column: \(header)")
        let leavesColumn = try XCTUnwrap(header.firstIndex(of: "leaves"), "\(header)")
        // An option whose walk to the stop takes a minute or more: its two times differ.
        let walked = try XCTUnwrap(options.indices.first { k in
            guard let leaves = date(options[k]["departure"]),
                  let boards = date(options[k]["rides"]?.arrayValue?.first?["departure"]) else { return false }
            return Self.clock(boards) != Self.clock(leaves)
        }, "an option walks to its stop: \(options)")
        let row = try XCTUnwrap(lines.first { $0.hasPrefix("\(walked + 1) ") }, text.stdout).split(separator: " ").map(String.init)
        let boards = try XCTUnwrap(date(options[walked]["rides"]?.arrayValue?.first?["departure"]))
        XCTAssertEqual(row[boardsColumn], Self.clock(boards), "option \(walked + 1): \(row)")
        XCTAssertNotEqual(row[leavesColumn], row[boardsColumn], "option \(walked + 1) leaves before it boards: \(row)")

        let pinned = try harness.json(["plan", "pin", plan, "1", row[boardsColumn]])
        let trips = { (leg: JSONValue?) in (leg?["rides"]?.arrayValue ?? []).compactMap { $0["trip_id"]?.stringValue } }
        XCTAssertEqual(trips(segments(pinned)[0]["leg"]), trips(options[walked]),
                       "plan pin at the listed boarding time \(row[boardsColumn]) takes option \(walked + 1)'s ride: \(pinned)")
    }

    /// HH:MM in Tampere's zone, as umctl prints a time.
    private static func clock(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "Europe/Helsinki")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "HH:mm"
        return formatter.string(from: date)
    }
}
