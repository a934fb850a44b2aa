import Foundation
import Glibc
import WireProtocol
import XCTest

/// A pinned departure that a new timetable no longer runs, end to end through the real daemon
/// and umctl: `plan refresh` keeps the user's leg and proposes the new answer as a pending update,
/// `plan accept` applies it, `plan dismiss` drops it; every decision the user made survives.
final class PendingUpdateTests: XCTestCase {
    /// A transit plan to Hervanta on the test day with one non-transit segment locked by hand and
    /// its ride pinned with a bare `08:15` (which means 08:15 on the plan's day, 2022-01-12).
    struct PinnedPlan {
        var id: String
        var transit: Int
        var locked: Int
        var plan: JSONValue
        var pinnedLeg: JSONValue { plan["segments"]?.arrayValue?[transit - 1]["leg"] ?? .null }
    }

    static func pinnedPlan(_ harness: DaemonHarness, title: String) throws -> PinnedPlan {
        let created = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "transit",
                                        "--at", Tampere.morning, "--title", title])
        let id = String(Int64(try XCTUnwrap(created["id"]?.numberValue)))
        let segments = try XCTUnwrap(created["segments"]?.arrayValue)
        let transit = try XCTUnwrap(segments.firstIndex { $0["mode"] == .string("transit") }, "\(segments)") + 1
        let other = try XCTUnwrap(segments.firstIndex { $0["mode"] != .string("transit") }, "\(segments)")
        let otherMode = try XCTUnwrap(segments[other]["mode"]?.stringValue)
        _ = try harness.json(["plan", "mode", id, String(other + 1), otherMode])
        let plan = try harness.json(["plan", "pin", id, String(transit), "08:15"])
        XCTAssertEqual(plan["pinned_segment"], .number(Double(transit)))
        XCTAssertEqual(plan["pending"], .array([]))
        return PinnedPlan(id: id, transit: transit, locked: other + 1, plan: plan)
    }

    func locks(_ plan: JSONValue) -> [JSONValue] { plan["segments"]?.arrayValue?.map { $0["locked"] ?? .null } ?? [] }
    func modes(_ plan: JSONValue) -> [JSONValue] { plan["segments"]?.arrayValue?.map { $0["mode"] ?? .null } ?? [] }
    func leg(_ plan: JSONValue, _ segment: Int) -> JSONValue { plan["segments"]?.arrayValue?[segment - 1]["leg"] ?? .null }

    static var tampereFeed: URL { DaemonHarness.tampereFolder.appendingPathComponent("tampere.zip") }

    /// Re-imports region `tampere` with a feed in which the pinned trips no longer run.
    func reimportWithReissuedFeed(_ harness: DaemonHarness) throws {
        try reimport(harness, feed: try EditedFeed.reissued(from: Self.tampereFeed, in: harness.directory))
    }

    func reimport(_ harness: DaemonHarness, feed: URL) throws {
        let osm = DaemonHarness.tampereFolder.appendingPathComponent("tampere.osm.pbf").path
        let imported = try harness.umctl(["region", "import", "tampere", "--osm", osm, "--gtfs", feed.path])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(imported.stdout.hasPrefix("imported region tampere"), "a changed feed is imported again: \(imported.stdout)")
    }

    func testRefreshAfterANewTimetableKeepsThePinnedLegAndProposesTheNewOneThatAcceptApplies() throws {
        let harness = try startDaemon(regionsFrom: try TampereRegion.dataDirectory())
        let pinned = try Self.pinnedPlan(harness, title: "accept")
        let selected = pinned.pinnedLeg
        let lockedBefore = locks(pinned.plan)
        XCTAssertEqual(lockedBefore[pinned.transit - 1], .bool(true))
        XCTAssertEqual(lockedBefore[pinned.locked - 1], .bool(true))

        // `umctl watch` sees the pending update proposed by the refresh.
        let output = harness.directory.appendingPathComponent("watch.out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let watch = Process()
        watch.executableURL = URL(fileURLWithPath: DaemonHarness.umctl)
        watch.arguments = ["watch", "--socket", harness.socketPath]
        watch.standardOutput = try FileHandle(forWritingTo: output)
        try watch.run()
        defer { if watch.isRunning { kill(watch.processIdentifier, SIGINT); watch.waitUntilExit() } }

        try reimportWithReissuedFeed(harness)
        XCTAssertEqual(try harness.json(["plan", "show", pinned.id])["segments"], pinned.plan["segments"],
                       "a re-import changes no stored plan by itself")

        let refreshed = try harness.json(["plan", "refresh", pinned.id])
        let pending = try XCTUnwrap(refreshed["pending"]?.arrayValue)
        XCTAssertEqual(pending.count, 1, "\(pending)")
        XCTAssertEqual(pending.first?["segment"], .number(Double(pinned.transit)))
        XCTAssertEqual(pending.first?["selected"], selected, "the user's choice is what is proposed against")
        let latest = try XCTUnwrap(pending.first?["latest"])
        let selectedSeconds = try XCTUnwrap(selected["duration_s"]?.numberValue)
        let latestSeconds = try XCTUnwrap(latest["duration_s"]?.numberValue)
        XCTAssertGreaterThan(latestSeconds, selectedSeconds + 120, "every ride of the new feed is slower")
        XCTAssertEqual(leg(refreshed, pinned.transit), selected, "the pinned leg is not replaced behind the user's back")
        XCTAssertEqual(refreshed["pinned_segment"], .number(Double(pinned.transit)))
        XCTAssertEqual(locks(refreshed), lockedBefore)
        XCTAssertEqual(modes(refreshed), modes(pinned.plan))

        let shown = try harness.umctl(["plan", "show", pinned.id])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        // Both journeys' departure, arrival and duration, to choose between; the duration is the
        // difference of the times shown (docs/planner.md "How times and durations read").
        // A ride by the time it leaves its stop, as its pin is shown (docs/planner.md "What a pin's time means").
        func side(_ leg: JSONValue) -> String {
            let ride = leg["rides"]?.arrayValue?.first
            let leaves = ride?["departure"]?.stringValue ?? leg["departure"]?.stringValue
            let clock = { (time: String?) in time.map { String($0.dropFirst(11).prefix(5)) } ?? "?" }
            let duration = ShownTime.text(from: leaves, to: leg["arrival"]?.stringValue) ?? "?"
            let named = ride.map { "\($0["vehicle"]?.stringValue ?? "?") \($0["line"]?.stringValue ?? "?") " } ?? ""
            return "\(named)leaves \(clock(leaves)), arrives \(clock(leg["arrival"]?.stringValue)) (\(duration))"
        }
        XCTAssertTrue(shown.stdout.contains("pending on segment \(pinned.transit): selected \(side(selected))"
                                            + " → proposed \(side(latest))"), shown.stdout)

        var seen = ""
        for _ in 0..<200 where !seen.contains("pending_update plan_id=\(pinned.id) ") {
            usleep(25_000)
            seen = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        }
        let announcement = seen.split(separator: "\n").first { $0.contains("pending_update plan_id=\(pinned.id) ") }
        XCTAssertEqual(announcement.map { String($0.split(separator: " ").last ?? "") }, "segments=[\(pinned.transit)]", seen)

        let accepted = try harness.json(["plan", "accept", pinned.id, String(pinned.transit)])
        XCTAssertEqual(accepted["pending"], .array([]))
        XCTAssertEqual(leg(accepted, pinned.transit), latest, "the new answer is now the pinned leg")
        XCTAssertEqual(accepted["pinned_segment"], .number(Double(pinned.transit)))
        XCTAssertEqual(locks(accepted), lockedBefore)
        XCTAssertEqual(modes(accepted), modes(pinned.plan))
        let segments = try XCTUnwrap(accepted["segments"]?.arrayValue)
        XCTAssertTrue(segments.allSatisfy { $0["leg"] != .null }, "the other legs fit around the new departure: \(segments)")
        if pinned.transit > 1, let before = leg(accepted, pinned.transit - 1)["arrival"]?.stringValue,
           let departure = latest["departure"]?.stringValue {
            XCTAssertLessThanOrEqual(before, departure, "the leg before arrives by the accepted departure")
        }
        let again = try harness.json(["plan", "refresh", pinned.id])
        XCTAssertEqual(again["pending"], .array([]), "the accepted departure exists in the new feed and is re-found")
        XCTAssertEqual(leg(again, pinned.transit)["departure"], latest["departure"])
    }

    func testRefreshAfterThePinnedBusIsCancelledKeepsTheUsersLegAndProposesAnotherJourney() throws {
        let harness = try startDaemon(regionsFrom: try TampereRegion.dataDirectory())
        let pinned = try Self.pinnedPlan(harness, title: "cancelled")
        let selected = pinned.pinnedLeg
        let ride = try XCTUnwrap(selected["rides"]?.arrayValue?.first, "\(selected)")
        let stop = try XCTUnwrap(ride["from"]?.stringValue)
        let departure = try XCTUnwrap(ride["departure"]?.stringValue) // 2022-01-12T08:22:30+02:00
        let (feed, trips) = try EditedFeed.cancelling(departure: String(departure.dropFirst(11).prefix(8)), from: stop,
                                                      original: Self.tampereFeed, in: harness.directory)
        XCTAssertFalse(trips.isEmpty)
        try reimport(harness, feed: feed)

        let refreshed = try harness.json(["plan", "refresh", pinned.id])
        XCTAssertEqual(leg(refreshed, pinned.transit), selected, "the user's leg stays until they decide")
        let pending = try XCTUnwrap(refreshed["pending"]?.arrayValue)
        XCTAssertEqual(pending.count, 1, "\(pending)")
        XCTAssertEqual(pending.first?["segment"], .number(Double(pinned.transit)))
        XCTAssertEqual(pending.first?["selected"], selected)
        let proposed = pending.first?["latest"]?["rides"]?.arrayValue ?? []
        XCTAssertFalse(proposed.isEmpty)
        XCTAssertFalse(proposed.contains { $0["from"]?.stringValue == stop && $0["departure"]?.stringValue == departure },
                       "the cancelled bus is not proposed: \(proposed)")
        XCTAssertEqual(locks(refreshed), locks(pinned.plan))
        XCTAssertEqual(refreshed["pinned_segment"], .number(Double(pinned.transit)))
    }

    func testRefreshFollowsThePinnedBusWhenTheNewTimetableRunsItLater() throws {
        let harness = try startDaemon(regionsFrom: try TampereRegion.dataDirectory())
        let pinned = try Self.pinnedPlan(harness, title: "delayed")
        let selected = pinned.pinnedLeg
        let ride = try XCTUnwrap(selected["rides"]?.arrayValue?.first, "\(selected)")
        let stop = try XCTUnwrap(ride["from"]?.stringValue)
        let departure = try XCTUnwrap(ride["departure"]?.stringValue)
        let (feed, _) = try EditedFeed.delaying(departure: String(departure.dropFirst(11).prefix(8)), from: stop, by: 120,
                                                original: Self.tampereFeed, in: harness.directory)
        try reimport(harness, feed: feed)

        let refreshed = try harness.json(["plan", "refresh", pinned.id])
        XCTAssertEqual(refreshed["pending"], .array([]), "the same bus, found by its trip: nothing to decide")
        let followed = leg(refreshed, pinned.transit)["rides"]?.arrayValue?.first
        XCTAssertEqual(followed?["from"]?.stringValue, stop)
        XCTAssertEqual(followed?["line"], ride["line"])
        let before = try XCTUnwrap(WireTime.date(from: departure))
        let after = try XCTUnwrap(followed?["departure"]?.stringValue.flatMap(WireTime.date(from:)))
        XCTAssertEqual(after.timeIntervalSince(before), 120, "the pinned bus now leaves two minutes later")
        XCTAssertEqual(locks(refreshed), locks(pinned.plan))
        XCTAssertEqual(refreshed["pinned_segment"], .number(Double(pinned.transit)))
    }

    func testRefreshOnceThePinnedDepartureRunsAgainDropsTheStaleProposal() throws {
        let harness = try startDaemon(regionsFrom: try TampereRegion.dataDirectory())
        let pinned = try Self.pinnedPlan(harness, title: "stale")
        try reimportWithReissuedFeed(harness)
        XCTAssertEqual(try harness.json(["plan", "refresh", pinned.id])["pending"]?.arrayValue?.count, 1)

        try reimport(harness, feed: Self.tampereFeed)
        let refreshed = try harness.json(["plan", "refresh", pinned.id])
        XCTAssertEqual(refreshed["pending"], .array([]), "the pinned bus runs again: nothing left to decide")
        XCTAssertEqual(leg(refreshed, pinned.transit), pinned.pinnedLeg)
        XCTAssertEqual(locks(refreshed), locks(pinned.plan))
        let accept = try harness.umctl(["plan", "accept", pinned.id, String(pinned.transit)])
        XCTAssertTrue(accept.stderr.contains("has no pending update"), "no stale proposal can be accepted: \(accept.stderr)")
    }

    func testDismissingTheUpdateKeepsTheUsersLegAndEveryLock() throws {
        let harness = try startDaemon(regionsFrom: try TampereRegion.dataDirectory())
        let pinned = try Self.pinnedPlan(harness, title: "dismiss")
        let selected = pinned.pinnedLeg
        try reimportWithReissuedFeed(harness)

        let refreshed = try harness.json(["plan", "refresh", pinned.id])
        XCTAssertEqual(refreshed["pending"]?.arrayValue?.first?["segment"], .number(Double(pinned.transit)))

        let dismissed = try harness.json(["plan", "dismiss", pinned.id, String(pinned.transit)])
        XCTAssertEqual(dismissed["pending"], .array([]))
        XCTAssertEqual(leg(dismissed, pinned.transit), selected, "the user's leg stays")
        XCTAssertEqual(dismissed["pinned_segment"], .number(Double(pinned.transit)))
        XCTAssertEqual(locks(dismissed), locks(pinned.plan))
        XCTAssertEqual(modes(dismissed), modes(pinned.plan))
        XCTAssertEqual(try harness.json(["plan", "show", pinned.id])["segments"], dismissed["segments"], "stored as answered")

        let second = try harness.umctl(["plan", "dismiss", pinned.id, String(pinned.transit)])
        XCTAssertEqual(second.status, 1)
        XCTAssertTrue(second.stderr.contains("has no pending update"), second.stderr)
    }

    func testRefreshOfAnUnpinnedPlanAsksEveryLegOnceAndKeepsModesAndLocks() throws {
        let harness = try startDaemon(regionsFrom: try TampereRegion.dataDirectory())
        var plan = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "walk", "--at", Tampere.morning])
        let id = String(Int64(try XCTUnwrap(plan["id"]?.numberValue)))
        plan = try harness.json(["plan", "insert", id, "--after", "1", Tampere.railwayStation])
        plan = try harness.json(["plan", "mode", id, "2", "car"])
        let before = try harness.counters()
        let refreshed = try harness.json(["plan", "refresh", id])
        let after = try harness.counters()
        // Each of the two legs once, and the inserted hop the planner walked (walking no slower)
        // judged again against a ride, as every computation that asks it again judges it.
        XCTAssertEqual(after.routingQueries.total - before.routingQueries.total, 3, "each of the two legs once, one ride judged")
        XCTAssertEqual(after.routingQueries.car - before.routingQueries.car, 1)
        XCTAssertEqual(after.routingQueries.walk - before.routingQueries.walk, 1)
        XCTAssertEqual(modes(refreshed), [.string("walk"), .string("car")])
        XCTAssertEqual(locks(refreshed), locks(plan))
        XCTAssertEqual(locks(refreshed)[1], .bool(true))
        XCTAssertEqual(refreshed["segments"], plan["segments"], "same data, same answer")
        XCTAssertEqual(refreshed["pending"], .array([]))
        XCTAssertEqual(try harness.umctl(["plan", "refresh", "999"]).status, 1, "an unknown plan is an error")
    }

    func testBareClockTimeInPlanPinAndPlanTimeIsOnThePlansOwnDayAndHelpSaysSo() throws {
        let harness = try startDaemon(regionsFrom: try TampereRegion.dataDirectory())
        let pinned = try Self.pinnedPlan(harness, title: "bare time")
        let departure = try XCTUnwrap(pinned.pinnedLeg["departure"]?.stringValue)
        XCTAssertTrue(departure.hasPrefix("2022-01-12T"), "pin 08:15 on a plan for 2022-01-12: \(departure)")
        XCTAssertGreaterThanOrEqual(departure, "2022-01-12T08:15:00+02:00")
        XCTAssertLessThan(departure, "2022-01-12T09:15:00+02:00")

        var plan = try harness.json(["plan", "time", pinned.id, "--at", "09:30"])
        XCTAssertEqual(plan["time_preference"]?["time"], .string("2022-01-12T09:30:00+02:00"),
                       "a bare time keeps the plan's day")
        plan = try harness.json(["plan", "time", pinned.id, "--arrive-by", "10:00"])
        XCTAssertEqual(plan["time_preference"]?["time"], .string("2022-01-12T10:00:00+02:00"))
        plan = try harness.json(["plan", "time", pinned.id, "--at", "2022-01-13T07:45"])
        XCTAssertEqual(plan["time_preference"]?["time"], .string("2022-01-13T07:45:00+02:00"), "ISO 8601 is taken as given")

        for command in [["plan", "pin"], ["plan", "time"]] {
            let help = try harness.umctl(["help"] + command)
            XCTAssertTrue(help.stdout.contains("HH:MM on the plan's own day"), help.stdout)
        }
        let refresh = try harness.umctl(["help", "plan", "refresh"])
        XCTAssertTrue(refresh.stdout.contains("usage: umctl plan refresh ID"), refresh.stdout)
    }
}

/// Copies of the Tampere GTFS zip as the operator might publish them next, built from the real
/// one with `unzip`, a plain CSV rewrite and `GTFSZip`.
enum EditedFeed {
    /// Re-published: every trip has a new ID and every ride takes half as long again (from each
    /// trip's first departure). A departure pinned in the original feed can then be re-found
    /// neither by its trip nor by its duration.
    static func reissued(from original: URL, in directory: URL) throws -> URL {
        let work = try unpacked(original, in: directory, as: "reissued")
        try rewrite(work.appendingPathComponent("trips.txt")) { header in
            let trip = try column("trip_id", in: header)
            return { fields in fields[trip] += "-reissued"; return true }
        }
        let stopTimes = work.appendingPathComponent("stop_times.txt")
        var firstDeparture: [String: Int] = [:]
        try rewrite(stopTimes) { header in
            let trip = try column("trip_id", in: header), departure = try column("departure_time", in: header)
            return { fields in
                if let seconds = seconds(fields[departure]) {
                    firstDeparture[fields[trip]] = min(firstDeparture[fields[trip]] ?? seconds, seconds)
                }
                return true
            }
        }
        try rewrite(stopTimes) { header in
            let trip = try column("trip_id", in: header)
            let times = [try column("arrival_time", in: header), try column("departure_time", in: header)]
            return { fields in
                if let start = firstDeparture[fields[trip]] {
                    for index in times {
                        if let value = seconds(fields[index]) { fields[index] = clock(start + (value - start) * 3 / 2) }
                    }
                }
                fields[trip] += "-reissued"
                return true
            }
        }
        return try packed(work, as: "tampere-reissued.zip", in: directory)
    }

    /// Cancelled: every trip leaving a stop named `stopName` at `departure` (`HH:MM:SS`) is gone;
    /// the rest of the timetable is untouched. Returns the feed and the cancelled trip IDs.
    static func cancelling(departure: String, from stopName: String, original: URL,
                           in directory: URL) throws -> (feed: URL, trips: Set<String>) {
        let work = try unpacked(original, in: directory, as: "cancelled")
        let cancelled = try trips(leaving: stopName, at: departure, in: work)
        for file in ["stop_times.txt", "trips.txt"] {
            try rewrite(work.appendingPathComponent(file)) { header in
                let trip = try column("trip_id", in: header)
                return { fields in !cancelled.contains(fields[trip]) }
            }
        }
        return (try packed(work, as: "tampere-cancelled.zip", in: directory), cancelled)
    }

    /// Late: the trips leaving `stopName` at `departure` keep their IDs but run `seconds` later
    /// at every stop. Returns the feed and the shifted trip IDs.
    static func delaying(departure: String, from stopName: String, by seconds: Int, original: URL,
                         in directory: URL) throws -> (feed: URL, trips: Set<String>) {
        let work = try unpacked(original, in: directory, as: "delayed")
        let delayed = try trips(leaving: stopName, at: departure, in: work)
        try rewrite(work.appendingPathComponent("stop_times.txt")) { header in
            let trip = try column("trip_id", in: header)
            let times = [try column("arrival_time", in: header), try column("departure_time", in: header)]
            return { fields in
                if delayed.contains(fields[trip]) {
                    for index in times {
                        if let value = self.seconds(fields[index]) { fields[index] = clock(value + seconds) }
                    }
                }
                return true
            }
        }
        return (try packed(work, as: "tampere-delayed.zip", in: directory), delayed)
    }

    /// IDs of the trips leaving a stop named `stopName` at `departure` (`HH:MM:SS`).
    private static func trips(leaving stopName: String, at departure: String, in work: URL) throws -> Set<String> {
        var stopIDs: Set<String> = []
        try rewrite(work.appendingPathComponent("stops.txt")) { header in
            let id = try column("stop_id", in: header), name = try column("stop_name", in: header)
            return { fields in
                if fields[name] == stopName { stopIDs.insert(fields[id]) }
                return true
            }
        }
        let stopTimes = work.appendingPathComponent("stop_times.txt")
        var found: Set<String> = []
        try rewrite(stopTimes) { header in
            let trip = try column("trip_id", in: header), stop = try column("stop_id", in: header)
            let time = try column("departure_time", in: header)
            return { fields in
                if stopIDs.contains(fields[stop]), fields[time] == departure { found.insert(fields[trip]) }
                return true
            }
        }
        guard !found.isEmpty else { throw HarnessError("no trip leaves \(stopName) (\(stopIDs)) at \(departure)") }
        return found
    }

    private static func unpacked(_ original: URL, in directory: URL, as name: String) throws -> URL {
        let work = directory.appendingPathComponent("feed-\(name)", isDirectory: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let unzip = try DaemonHarness.run("/usr/bin/unzip", ["-q", "-o", original.path, "-d", work.path], in: directory)
        guard unzip.status == 0 else { throw HarnessError("unzip \(original.path): \(unzip.stderr)") }
        return work
    }

    private static func packed(_ work: URL, as name: String, in directory: URL) throws -> URL {
        let zipped = directory.appendingPathComponent(name)
        try GTFSZip.write(contentsOf: work, to: zipped)
        return zipped
    }

    /// Rewrites a CSV file line by line (`change` edits a row and says whether to keep it). The
    /// feed has no quoted fields; one would mean this simple split is wrong, so it stops instead
    /// of writing a damaged feed.
    private static func rewrite(_ file: URL, _ makeChange: ([String]) throws -> (inout [String]) -> Bool) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        let lines = text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map(String.init)
        guard let headerLine = lines.first else { throw HarnessError("\(file.lastPathComponent) is empty") }
        let header = headerLine.replacingOccurrences(of: "\u{FEFF}", with: "")
            .split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let change = try makeChange(header)
        var kept = [headerLine]
        for line in lines.dropFirst() {
            guard !line.contains("\"") else { throw HarnessError("quoted field in \(file.lastPathComponent)") }
            var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == header.count else { throw HarnessError("bad row in \(file.lastPathComponent): \(line)") }
            if change(&fields) { kept.append(fields.joined(separator: ",")) }
        }
        try (kept.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
    }

    private static func column(_ name: String, in header: [String]) throws -> Int {
        guard let index = header.firstIndex(of: name) else { throw HarnessError("no column \(name) in \(header)") }
        return index
    }

    /// `H:MM:SS` (hours may pass 24) as seconds; nil for an empty time.
    private static func seconds(_ text: String) -> Int? {
        let parts = text.split(separator: ":").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        return parts[0] * 3_600 + parts[1] * 60 + parts[2]
    }

    private static func clock(_ seconds: Int) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        return "\(two(seconds / 3_600)):\(two(seconds % 3_600 / 60)):\(two(seconds % 60))"
    }
}
