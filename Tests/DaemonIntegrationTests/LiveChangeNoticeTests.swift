import Foundation
import Transit
import WireProtocol
import XCTest

/// Live data reaches the desktop (issue 23 with issue 21): a delay and a cancellation that a
/// realtime feed reports for a plan of today each become a change notice in place of the
/// plan's earlier one; with `--notify off` nothing is sent.
final class LiveChangeNoticeTests: XCTestCase {
    func testARealtimeDelayAndThenACancellationEachReplaceThePlansNotice() throws {
        var server: NotificationServer?
        let live = try LiveRegion(for: self) { harness in
            let bus = try NotificationServer(in: harness.directory)
            server = bus
            return ["DBUS_SESSION_BUS_ADDRESS": bus.address]
        }
        defer { live.stop(); server?.stop() }
        let notifications = try XCTUnwrap(server)
        let pinned = try live.pinnedPlan()  // leaves after 08:00: its reminder (10 min before) is not due at 07:00
        let line = try XCTUnwrap(pinned.ride["line"]?.stringValue), from = try XCTUnwrap(pinned.ride["from"]?.stringValue)

        let late = try live.serve(RealtimeFeed(timestamp: LiveRegion.start, tripUpdates: [try live.tripUpdate(pinned.ride, delay: 360)]))
        XCTAssertEqual(try live.harness.umctl(["region", "set", "tampere", "--realtime", late]).status, 0)
        let first = try notifications.notifications(until: { !$0.isEmpty })
        XCTAssertEqual(first.map(\.summary), ["Line \(line) late by 6 min"], "\(first)")
        XCTAssertTrue(first[0].body.hasPrefix("It leaves \(from) at "), first[0].body)

        // Cancelled: the plans are asked again within the minute's limit, and the notice replaces the delay's.
        let off = try live.serve(RealtimeFeed(timestamp: LiveRegion.start, tripUpdates: [try live.tripUpdate(pinned.ride, cancelled: true)]))
        XCTAssertEqual(try live.harness.umctl(["region", "set", "tampere", "--realtime", off]).status, 0)
        let second = try notifications.notifications(until: { $0.count >= 2 }, seconds: 180)
        XCTAssertEqual(second.count, 2, "\(second)")
        XCTAssertEqual(second[1].replacesID, 1, "in place of the delay's notice")
        XCTAssertTrue(["Line \(line) from \(from) is cancelled", "Trip to \(try XCTUnwrap(pinned.plan["nodes"]?.arrayValue?.last?["name"]?.stringValue)) changed"]
                        .contains(second[1].summary), second[1].summary)
    }

    func testWithNotifyOffADueReminderAndALiveDelaySendNothing() throws {
        var server: NotificationServer?
        let live = try LiveRegion(for: self, extraArguments: ["--notify", "off", "--remind-lead", "90m"]) { harness in
            let bus = try NotificationServer(in: harness.directory)
            server = bus
            return ["DBUS_SESSION_BUS_ADDRESS": bus.address]
        }
        defer { live.stop(); server?.stop() }
        let notifications = try XCTUnwrap(server)
        let watch = try WatchRecorder(live.harness)
        defer { watch.stop() }
        let pinned = try live.pinnedPlan()  // a 90 min lead: its reminder is due at once
        let remind = try live.harness.json(["plan", "remind", pinned.id, "on"])
        XCTAssertEqual(remind["notify"], .bool(false), "the answer says notifications are off")
        let late = try live.serve(RealtimeFeed(timestamp: LiveRegion.start, tripUpdates: [try live.tripUpdate(pinned.ride, delay: 360)]))
        XCTAssertEqual(try live.harness.umctl(["region", "set", "tampere", "--realtime", late]).status, 0)
        // The delay's event shows the daemon saw it; two more seconds (the reminders are looked at
        // every second, a notice follows its event at once) and one would have been sent.
        _ = try watch.events(until: { $0.contains { $0["kind"] == .string("delay") } })
        usleep(2_000_000)
        XCTAssertEqual(try notifications.notifications(), [])
        XCTAssertFalse(watch.events.contains { $0["kind"] == .string("reminder") }, "\(watch.events)")
    }
}
