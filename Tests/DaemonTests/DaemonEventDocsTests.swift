import Daemon
import Foundation
import Planner
import XCTest

/// docs/protocol.md's `watch` table and `DaemonEvent` say the same: every kind, and every field
/// of each kind, is in the table, and the table names no kind the daemon never sends.
final class DaemonEventDocsTests: XCTestCase {
    /// One of each kind.
    static let samples: [DaemonEvent] = {
        let ride = DaemonEvent.RideEvent(planID: 3, segment: 2, line: "6", tripID: "t1", from: "Koskipuisto D")
        let helsinki = TimeZone(identifier: "Europe/Helsinki")!
        let visit = DaemonEvent.Visit(place: "Home",
                                      fix: LocationFix(coordinate: Coordinate(latitude: 61.5, longitude: 23.7), horizontalAccuracy: 5,
                                                       timestamp: Date(timeIntervalSince1970: 1_641_967_200)),
                                      timeZone: TimeZone(identifier: "Europe/Helsinki")!)
        return [
            .planRecomputed(planID: 1, generation: 2, queries: 3), .pendingUpdate(planID: 1, segments: [2]), .planDeleted(planID: 1),
            .importProgress(.init(region: "tampere", phase: "streets", detail: "", fraction: 0.5, overall: nil)),
            .regionImported(region: "tampere", skipped: false, rebuilt: "timetable"), .regionRemoved(region: "tampere"),
            .regionChanged(region: "tampere", timeZone: "Europe/Helsinki", realtimeFeeds: 2), .placeSaved(name: "Home"),
            .locationChanged(lat: 61.5, lon: 23.7, source: "set"), .arrived(visit), .left(visit),
            .feedExpiring(region: "tampere", feed: "tampere.zip", lastDay: "2022-03-31", daysLeft: 3, message: "runs out"),
            .delay(ride, departure: Date(timeIntervalSince1970: 1_641_967_800), scheduledDeparture: Date(timeIntervalSince1970: 1_641_967_440),
                   timeZone: helsinki, delayS: 360, movedS: 360),
            .cancelled(ride), .alert(ride, alertID: "a1", header: "Stop moved", effect: "stop_moved"),
            .reminder(.init(planID: 3, notice: "leave", title: "Leave at 08:06 for Hervanta", body: "08:06 walk", leaveAt: Date(timeIntervalSince1970: 1_641_967_560),
                            timeZone: helsinki, shown: true)),
        ]
    }()

    /// The rows of the table under "### `watch`": kind → the row's fields cell.
    func documentedKinds() throws -> [String: String] {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/protocol.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let section = try XCTUnwrap(text.range(of: "### `watch` (streaming)"))
        var rows: [String: String] = [:]
        for line in text[section.upperBound...].split(separator: "\n").drop(while: { !$0.hasPrefix("| kind") }).dropFirst(2) {
            guard line.hasPrefix("| ") else { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3 else { continue }
            for kind in cells[1].split(separator: ",") {
                rows[kind.trimmingCharacters(in: CharacterSet(charactersIn: " `"))] = cells[2]
            }
        }
        return rows
    }

    func testTheWatchTableListsEveryEventKindAndNoOther() throws {
        XCTAssertEqual(Set(try documentedKinds().keys), Set(DaemonEvent.allKinds))
        XCTAssertEqual(Set(Self.samples.map(\.kind)), Set(DaemonEvent.allKinds), "a sample of every kind")
    }

    func testEveryFieldOfEveryEventIsInItsRowOfTheTable() throws {
        let rows = try documentedKinds()
        for event in Self.samples {
            let row = try XCTUnwrap(rows[event.kind], event.kind)
            for key in event.fields.keys {
                XCTAssertTrue(row.contains("`\(key)`"), "\(event.kind): field \(key) is not in its row: \(row)")
            }
        }
    }
}
