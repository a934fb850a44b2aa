import Foundation
import WireProtocol
import XCTest

/// Plans refresh themselves after their region's timetable changes: no `plan refresh`, one
/// plan at a time in the background, pinned departures re-found or proposed as pending updates.
final class BackgroundRefreshTests: XCTestCase {
    /// The daemon's "today" is the feed's test day, so plans for it have not passed.
    static let clockStart = "2022-01-12T07:00:00+02:00"

    func testAReimportWithAChangedTimetableProposesThePendingUpdateWithoutARefreshAndLeavesPastDaysAlone() throws {
        let harness = try startDaemon(regionsFrom: try TampereRegion.dataDirectory(), extraArguments: ["--clock-start", Self.clockStart])

        // A transit plan for today with its ride pinned at 08:15.
        let created = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "transit",
                                        "--at", Tampere.morning, "--title", "pinned"])
        let id = String(Int64(try XCTUnwrap(created["id"]?.numberValue)))
        let segments = try XCTUnwrap(created["segments"]?.arrayValue)
        let transit = try XCTUnwrap(segments.firstIndex { $0["mode"] == .string("transit") }, "\(segments)") + 1
        let pinned = try harness.json(["plan", "pin", id, String(transit), "08:15"])
        XCTAssertEqual(pinned["pending"], .array([]))
        // A plan for yesterday: its day has passed, so it is left alone.
        let past = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "transit",
                                     "--at", "2022-01-11T08:00", "--title", "yesterday"])
        let pastID = String(Int64(try XCTUnwrap(past["id"]?.numberValue)))

        let watch = try WatchRecorder(harness)
        defer { watch.stop() }
        let feed = try EditedFeed.reissued(from: PendingUpdateTests.tampereFeed, in: harness.directory)
        let osm = DaemonHarness.tampereFolder.appendingPathComponent("tampere.osm.pbf").path
        let imported = try harness.umctl(["region", "import", "tampere", "--osm", osm, "--gtfs", feed.path])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        // The user edits the plan while it waits or is being refreshed: their edit stays, and the
        // refresh happens after it (retried when it was cut short).
        let paced = try harness.json(["plan", "pace", id, "fast"])
        XCTAssertEqual(paced["pace"], .string("fast"))

        let events = try watch.events(until: { events in
            events.contains { $0["kind"] == .string("pending_update") && $0["plan_id"] == .number(Double(id) ?? 0) }
        }, seconds: 300)
        let announced = events.first { $0["kind"] == .string("pending_update") && $0["plan_id"] == .number(Double(id) ?? 0) }
        XCTAssertEqual(announced?["segments"], .array([.number(Double(transit))]), "watch shows the pending update: \(events)")

        let queueDrained = try Self.waitForQueue(harness)
        XCTAssertGreaterThanOrEqual(queueDrained["refreshed"]?.numberValue ?? 0, 1, "\(queueDrained)")
        XCTAssertEqual(queueDrained["left_alone"], .number(1), "the plan for yesterday is left alone: \(queueDrained)")
        XCTAssertEqual(queueDrained["failed"], .number(0))

        let shown = try harness.json(["plan", "show", id])
        let pending = try XCTUnwrap(shown["pending"]?.arrayValue)
        XCTAssertEqual(pending.first?["segment"], .number(Double(transit)), "\(pending)")
        XCTAssertEqual(shown["segments"]?.arrayValue?[transit - 1]["leg"], pending.first?["selected"],
                       "the pinned leg stays until the user decides")
        XCTAssertEqual(shown["pinned_segment"], .number(Double(transit)))
        XCTAssertEqual(shown["pace"], .string("fast"), "the user's edit made meanwhile is kept")
        XCTAssertEqual(try harness.json(["plan", "show", pastID])["segments"], past["segments"], "a past day is not touched")
        XCTAssertFalse(events.contains { $0["kind"] == .string("plan_recomputed") && $0["plan_id"] == .number(Double(pastID) ?? 0) })
    }

    /// Waits (bounded) until nothing is queued or running, and returns `status.refresh_queue`.
    static func waitForQueue(_ harness: DaemonHarness) throws -> JSONValue {
        for _ in 0..<3000 {
            let queue = try harness.json(["status"])["refresh_queue"] ?? .null
            if queue["running"] == .null || queue["running"] == nil, queue["queued"] == .array([]) { return queue }
            usleep(100_000)
        }
        throw HarnessError("the background refresh queue did not drain")
    }
}
