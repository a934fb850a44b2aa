import Foundation
import WireProtocol
import XCTest

/// Reminders to leave and change notices as desktop notifications (issue 23), sent to
/// python3-dbusmock's notification server on a private session bus, on the Tampere feed's
/// test day.
final class DesktopNotificationTests: XCTestCase {
    static let clockStart = "2022-01-12T07:00:00+02:00"

    /// A daemon on Tampere started with `arguments` on a private session bus with no
    /// notification server, and a recorder of its events; all stopped when the test ends.
    func startWithoutNotificationServer(_ arguments: [String]) throws -> (DaemonHarness, WatchRecorder) {
        let folder = try TemporaryDirectory.short()
        let bus = try NotificationServer(in: folder.url, mock: false)
        addTeardownBlock {
            bus.stop()
            folder.remove()
        }
        let harness = try startDaemon(regionsFrom: try TampereRegion.dataDirectory(), extraArguments: arguments,
                                      environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        let watch = try WatchRecorder(harness)
        addTeardownBlock { watch.stop() }
        return (harness, watch)
    }

    func reminders(_ watch: WatchRecorder, plan id: String) -> [JSONValue] {
        watch.events.filter { $0["kind"] == .string("reminder") && $0["plan_id"] == .number(Double(id) ?? 0) }
    }

    func testOneReminderToLeaveWithItsButtonsSnoozesAgainIsReplacedByAChangeNoticeAndIsNotRepeatedAfterARestart() throws {
        let harness = try makeDaemon(regionsFrom: try TampereRegion.dataDirectory())
        let server = try NotificationServer(in: harness.directory)
        defer { server.stop() }
        let arguments = ["--clock-start", Self.clockStart, "--remind-snooze", "3s"]
        // "Open route" runs `xdg-open URL`: this one writes the URL down.
        let tools = harness.directory.appendingPathComponent("tools")
        try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
        let opened = harness.directory.appendingPathComponent("opened.txt")
        let xdgOpen = tools.appendingPathComponent("xdg-open")
        try "#!/bin/sh\nprintf '%s' \"$1\" > '\(opened.path)'\n".write(to: xdgOpen, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: xdgOpen.path)
        let environment = ["DBUS_SESSION_BUS_ADDRESS": server.address,
                           "PATH": tools.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
        try harness.start(extraArguments: arguments, environment: environment)
        defer { harness.stop() }

        // The plan (leaving at about 08:17) is made with the default lead (10 min: not due at 07:00), then given 90 min: due now.
        let pinned = try PendingUpdateTests.pinnedPlan(harness, title: "to Hervanta")
        let watch = try WatchRecorder(harness)
        defer { watch.stop() }
        let remind = try harness.json(["plan", "remind", pinned.id, "on", "--lead", "90m"])
        XCTAssertEqual(remind["lead_s"], .number(5400))
        XCTAssertEqual(remind["lead_from"], .string("plan"))

        let first = try server.notifications(until: { !$0.isEmpty })
        XCTAssertEqual(first.count, 1, "exactly one reminder: \(first) \(watch.events) \(harness.log.suffix(4000))")
        let reminder = try XCTUnwrap(first.first)
        let shown = try harness.json(["plan", "show", pinned.id])
        let leaveAt = try XCTUnwrap(reminders(watch, plan: pinned.id).first?["leave_at"]?.stringValue, "\(watch.events)")
        let clock = String(leaveAt.dropFirst(11).prefix(5))
        let destination = try XCTUnwrap(shown["nodes"]?.arrayValue?.last?["name"]?.stringValue, "\(shown)")
        XCTAssertEqual(reminder.appName, "Useful Map")
        XCTAssertEqual(reminder.replacesID, 0)
        XCTAssertEqual(reminder.summary, "Leave at \(clock) for \(destination)")
        XCTAssertEqual(reminder.actions, ["open", "Open route", "snooze", "In 5 min"])
        let lines = reminder.body.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, reminder.body)
        XCTAssertTrue(lines.first?.hasPrefix(clock) ?? false, "the first step starts at the leave time: \(reminder.body)")
        let ride = try XCTUnwrap(pinned.pinnedLeg["rides"]?.arrayValue?.first)
        let boarding = try XCTUnwrap(ride["from"]?.stringValue), departure = try XCTUnwrap(ride["departure"]?.stringValue)
        XCTAssertTrue(reminder.body.contains("\(departure.dropFirst(11).prefix(5)) "), "the ride's time: \(reminder.body)")
        XCTAssertTrue(reminder.body.contains(boarding), "the ride's stop: \(reminder.body)")
        let event = try XCTUnwrap(reminders(watch, plan: pinned.id).first)
        XCTAssertEqual(event["notice"], .string("leave"))
        XCTAssertEqual(event["title"]?.stringValue, reminder.summary)
        XCTAssertEqual(event["shown"], .bool(true))

        // "In 5 min" (3 s here): the same reminder again, in place of the first.
        try server.invoke("snooze", on: 1)
        let snoozed = try server.notifications(until: { $0.count >= 2 })
        XCTAssertEqual(snoozed.count, 2, "\(snoozed)")
        XCTAssertEqual(snoozed.last?.summary, reminder.summary)
        XCTAssertEqual(snoozed.last?.replacesID, 1)
        let again = try XCTUnwrap(watch.events(until: { _ in self.reminders(watch, plan: pinned.id).count >= 2 }).last)
        let sentAt = try XCTUnwrap(event["at"]?.stringValue.flatMap(WireTime.date(from:)))
        let resentAt = try XCTUnwrap(again["at"]?.stringValue.flatMap(WireTime.date(from:)))
        XCTAssertGreaterThanOrEqual(resentAt.timeIntervalSince(sentAt), 3, "re-sent a snooze later: \(event) \(again)")

        // "Open route": the first segment's link, as `plan link ID 1` prints it.
        try server.invoke("open", on: 1)
        var url = ""
        for _ in 0..<400 where url.isEmpty {
            usleep(25_000)
            url = (try? String(contentsOf: opened, encoding: .utf8)) ?? ""
        }
        XCTAssertEqual(url, try harness.json(["plan", "link", pinned.id, "1"])["url"]?.stringValue)

        // The pinned bus is cancelled by a new timetable: a change notice replaces the reminder.
        let (feed, trips) = try EditedFeed.cancelling(departure: String(departure.dropFirst(11).prefix(8)), from: boarding,
                                                      original: PendingUpdateTests.tampereFeed, in: harness.directory)
        XCTAssertFalse(trips.isEmpty)
        let osm = DaemonHarness.tampereFolder.appendingPathComponent("tampere.osm.pbf").path
        let imported = try harness.umctl(["region", "import", "tampere", "--osm", osm, "--gtfs", feed.path])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let changed = try server.notifications(until: { $0.count >= 3 }, seconds: 300)
        XCTAssertEqual(changed.count, 3, "\(changed)")
        XCTAssertEqual(changed.last?.replacesID, 1, "the change notice takes the reminder's place")
        XCTAssertEqual(changed.last?.summary, "Trip to \(destination) changed")
        XCTAssertEqual(changed.last?.actions, [])
        let notice = try XCTUnwrap(reminders(watch, plan: pinned.id).first { $0["notice"] == .string("pending_update") }, "\(watch.events)")
        let noticeAt = try XCTUnwrap(notice["at"]?.stringValue.flatMap(WireTime.date(from:)))
        // 59: the events carry the time the server answered, a moment after the sending the minute counts from.
        XCTAssertGreaterThanOrEqual(noticeAt.timeIntervalSince(resentAt), 59, "at most one notice a minute per plan: \(again) \(notice)")

        // A restart sends nothing again: a second plan's reminder comes, the first plan's does not.
        watch.stop()
        XCTAssertEqual(harness.stop(), 0, harness.log)
        XCTAssertFalse(harness.log.contains("database still referenced"), "the notifier lets the store go: \(harness.log)")
        try harness.start(extraArguments: arguments, environment: environment)
        let other = try harness.json(["plan", "new", Tampere.keskustori, Tampere.railwayStation, "--mode", "walk",
                                      "--at", Tampere.morning, "--title", "station"])
        let otherID = String(Int64(try XCTUnwrap(other["id"]?.numberValue)))
        _ = try harness.json(["plan", "remind", otherID, "on", "--lead", "70m"])
        let afterRestart = try server.notifications(until: { $0.count >= 4 })
        XCTAssertEqual(afterRestart.count, 4, "only the new plan's reminder: \(afterRestart)")
        XCTAssertNotEqual(afterRestart.last?.summary, reminder.summary)
        XCTAssertTrue(afterRestart.last?.summary.hasPrefix("Leave at 08:00 for ") ?? false, "\(afterRestart)")
    }

    func testWithoutANotificationServerRequestsStillAnswerWatchShowsTheReminderAndTheLogSaysSoOnce() throws {
        let (harness, watch) = try startWithoutNotificationServer(["--clock-start", Self.clockStart, "--remind-lead", "70m"])

        // A plan for tomorrow 06:30 with a day's lead would be due now: other days are not reminded of.
        let tomorrow = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "walk",
                                         "--at", "2022-01-13T06:30"])
        let tomorrowID = String(Int64(try XCTUnwrap(tomorrow["id"]?.numberValue)))
        _ = try harness.json(["plan", "remind", tomorrowID, "on", "--lead", "24h"])
        var ids: [String] = []
        for destination in [Tampere.railwayStation, Tampere.ratina] {
            let plan = try harness.json(["plan", "new", Tampere.keskustori, destination, "--mode", "walk", "--at", Tampere.morning])
            ids.append(String(Int64(try XCTUnwrap(plan["id"]?.numberValue))))
        }
        let events = try watch.events(until: { _ in ids.allSatisfy { !self.reminders(watch, plan: $0).isEmpty } })
        for id in ids {
            let reminder = reminders(watch, plan: id)
            XCTAssertEqual(reminder.count, 1, "\(events)")
            XCTAssertEqual(reminder.first?["shown"], .bool(false))
            XCTAssertEqual(reminder.first?["notice"], .string("leave"))
            XCTAssertTrue(reminder.first?["title"]?.stringValue?.hasPrefix("Leave at 08:00 for ") ?? false, "\(reminder)")
        }
        XCTAssertEqual(reminders(watch, plan: tomorrowID), [], "not for another day")
        // Requests and edits answer as before.
        let paced = try harness.json(["plan", "pace", ids[0], "fast"])
        XCTAssertEqual(paced["pace"], .string("fast"))
        XCTAssertEqual(harness.log.components(separatedBy: "desktop notifications are not shown").count - 1, 1,
                       "logged once: \(harness.log)")
    }

    func testAReminderComesAtTheLeaveTimeOfAnEditMadeAfterThePlansWereRead() throws {
        let (harness, watch) = try startWithoutNotificationServer(["--clock-start", Self.clockStart, "--remind-lead", "70m"])
        // Leaving at 09:30 with a 70 min lead: not due at 07:00. Moved to 08:00 it is due at once.
        let plan = try harness.json(["plan", "new", Tampere.keskustori, Tampere.railwayStation, "--mode", "walk",
                                     "--at", "2022-01-12T09:30"])
        let id = String(Int64(try XCTUnwrap(plan["id"]?.numberValue)))
        let retimed = try harness.json(["plan", "time", id, "--at", "08:00"])
        XCTAssertEqual(retimed["id"], plan["id"])
        _ = try watch.events(until: { _ in !self.reminders(watch, plan: id).isEmpty })
        let reminder = reminders(watch, plan: id)
        XCTAssertEqual(reminder.count, 1, "\(watch.events)")
        XCTAssertTrue(reminder.first?["title"]?.stringValue?.hasPrefix("Leave at 08:00 for ") ?? false, "\(reminder)")
        XCTAssertFalse(harness.log.contains("cannot read the plans to remind of"), harness.log)
    }

    func testAFreshFixAwayFromTheFirstNodeMovesTheLeaveTimeByTheWalkFromThere() throws {
        let (harness, watch) = try startWithoutNotificationServer(["--clock-start", Self.clockStart, "--remind-lead", "70m"])
        _ = try harness.json(["location", "set", Tampere.pyynikki, "--accuracy", "10"])
        let plan = try harness.json(["plan", "new", Tampere.keskustori, Tampere.railwayStation, "--mode", "walk", "--at", Tampere.morning])
        let id = String(Int64(try XCTUnwrap(plan["id"]?.numberValue)))
        let first = try XCTUnwrap(plan["nodes"]?.arrayValue?.first?["name"]?.stringValue, "\(plan)")
        _ = try watch.events(until: { _ in !self.reminders(watch, plan: id).isEmpty })
        let reminder = try XCTUnwrap(reminders(watch, plan: id).first, "\(watch.events)")
        let leaveAt = try XCTUnwrap(reminder["leave_at"]?.stringValue)
        XCTAssertLessThan(leaveAt, "2022-01-12T07:55:00+02:00", "the walk from Pyynikki comes first: \(reminder)")
        let body = reminder["body"]?.stringValue ?? ""
        XCTAssertTrue(body.hasPrefix("\(leaveAt.dropFirst(11).prefix(5)) walk "), body)
        XCTAssertTrue(body.split(separator: "\n").first?.hasSuffix(" to \(first)") ?? false, body)
    }

    func testAFixFromWhichThePinnedRideCanNoLongerBeCaughtIsAMissedConnectionNotice() throws {
        // 08:10, and 20 minutes' walk from the plan's start: its ride at about 08:22 is out of reach.
        let (harness, watch) = try startWithoutNotificationServer(["--clock-start", "2022-01-12T08:10:00+02:00"])
        _ = try harness.json(["location", "set", Tampere.pyynikki, "--accuracy", "10"])
        let pinned = try PendingUpdateTests.pinnedPlan(harness, title: "missed")
        _ = try watch.events(until: { _ in
            self.reminders(watch, plan: pinned.id).contains { $0["notice"] == .string("missed_connection") }
        })
        let notices = reminders(watch, plan: pinned.id)
        let missed = try XCTUnwrap(notices.first { $0["notice"] == .string("missed_connection") }, "\(watch.events)")
        XCTAssertTrue(missed["title"]?.stringValue?.hasPrefix("Missed connection: ") ?? false, "\(missed)")
        XCTAssertEqual(notices.filter { $0["notice"] == .string("leave") }, [], "too late to remind of leaving: \(notices)")
    }

    func testPlanRemindRefusesAnUnknownPlanAndALeadWithOff() throws {
        let harness = try startDaemon(regionsFrom: try TampereRegion.dataDirectory(), extraArguments: ["--clock-start", Self.clockStart, "--notify", "off"])
        let unknown = try harness.umctl(["plan", "remind", "999", "on"])
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.stderr.contains("plan 999 does not exist"), unknown.stderr)
        let lead = try harness.umctl(["plan", "remind", "1", "off", "--lead", "5m"])
        XCTAssertEqual(lead.status, 2, lead.stderr)
        let bad = try harness.umctl(["plan", "remind", "1", "on", "--lead", "soon"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--lead"), bad.stderr)
        let plan = try harness.json(["plan", "new", Tampere.keskustori, Tampere.ratina, "--mode", "walk", "--at", Tampere.morning])
        let id = String(Int64(try XCTUnwrap(plan["id"]?.numberValue)))
        let off = try harness.json(["plan", "remind", id, "off"])
        XCTAssertEqual(off["on"], .bool(false))
        XCTAssertEqual(off["notify"], .bool(false), "--notify off says so")
        let on = try harness.json(["plan", "remind", id, "on"])
        XCTAssertEqual(on["lead_s"], .number(600))
        XCTAssertEqual(on["lead_from"], .string("daemon"))
    }
}
