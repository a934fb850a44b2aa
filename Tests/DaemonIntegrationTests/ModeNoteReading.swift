import Foundation
import TestSupport
import WireProtocol
import XCTest

/// The day plan the mode-note tests start from, and the notes `plan show` prints under segments.
extension XCTestCase {
    /// `plan new Keskustori Ratina Pyynikintori Hervanta TAYS --mode transit --at 08:00`, then
    /// `plan insert ID Lielahti --after 3`: its hops say why they ride.
    func dayWithInsertedHops(_ harness: DaemonHarness) throws -> (id: String, plan: JSONValue) {
        let created = try harness.json(["plan", "new", "Keskustori", "Ratina", "Pyynikintori", "Hervanta", "TAYS",
                                        "--mode", "transit", "--at", "2022-01-12T08:00"])
        let plan = try id(created)
        let inserted = try harness.json(["plan", "insert", plan, "Lielahti", "--after", "3"])
        XCTAssertTrue(segments(inserted).contains { $0["mode_note"]?.stringValue?.hasPrefix("by transit: ") == true },
                      "the inserted hops ride and say why: \(inserted)")
        return (plan, inserted)
    }

    /// `dayWithInsertedHops`, its first noted ride turned to a car (`plan mode ID N car`): the
    /// plan's ID and the index of the next noted segment, a ride the change retimes.
    func dayWithARideTurnedToACar(_ harness: DaemonHarness) throws -> (id: String, retimed: Int) {
        let (plan, before) = try dayWithInsertedHops(harness)
        let ride = try XCTUnwrap(segments(before).firstIndex { $0["mode_note"]?.stringValue?.hasPrefix("by transit: ") == true },
                                 "\(before)")
        let next = try XCTUnwrap(segments(before).indices.first { $0 > ride && segments(before)[$0]["mode_note"] != nil },
                                 "a noted ride after it: \(before)")
        _ = try harness.json(["plan", "mode", plan, String(ride + 1), "car"])
        return (plan, next)
    }

    /// Each `plan show` segment's header duration ("transit 22 min") and its `mode:` note.
    func notedSegments(_ shown: String) -> [(header: String, duration: String, note: String)] {
        let lines = shown.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        return zip(lines, lines.dropFirst()).compactMap { line, next in
            guard line.hasPrefix("seg "), next.hasPrefix("mode: "), let colon = line.firstIndex(of: ":") else { return nil }
            let words = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard let comma = words.firstIndex(of: ","), let space = words.firstIndex(of: " ") else { return nil }
            return (line, words[space..<comma].trimmingCharacters(in: .whitespaces), String(next.dropFirst(6)))
        }
    }
}
