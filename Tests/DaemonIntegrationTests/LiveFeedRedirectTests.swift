import Foundation
import Glibc
import HTTPTestSupport
import TestSupport
import Transit
import WireProtocol
import XCTest

/// Issue 44: a realtime feed whose URL redirects to another host or port is refused unless the
/// daemon runs with `--allow-cross-host-redirects` (the refusal: `LiveFeedBadInputTests`); with
/// it, the redirect is followed and the feed applied. On a small written region (one bus, B1,
/// from the south-west corner at 08:00 to the north-east corner at 08:20), not Tampere: the
/// redirect is the point, not the timetable.
final class LiveFeedRedirectTests: XCTestCase {
    private let region = SmallRegion(name: "town", latitude: 61.5, longitude: 23.76, spacing: 500)

    func testWithTheOptionAFeedRedirectingToAnotherPortIsFollowedAndItsDelayReachesTheAnswers() throws {
        let harness = try startDaemon(extraArguments: ["--clock-start", "2022-06-01T07:40:00+03:00", "--allow-cross-host-redirects"])
        var feed = MiniFeed()
        feed.zone = "Europe/Helsinki"
        let (fromLatitude, fromLongitude) = region.stopPoint(row: 0, column: 0)
        let (toLatitude, toLongitude) = region.stopPoint(row: 8, column: 8)
        feed.stops = [("S1", "Aalto", fromLatitude, fromLongitude), ("S2", "Castle", toLatitude, toLongitude)]
        feed.routes = [("R1", "B1", 3)]
        feed.trip("T1", route: "R1", [("S1", "08:00:00"), ("S2", "08:20:00")])
        let imported = try harness.umctl(["region", "import", region.name, "--osm", try region.writeOSM(in: harness.directory).path,
                                          "--gtfs", try region.writeZip(feed.files, in: harness.directory, fileName: "town.zip").path])
        XCTAssertEqual(imported.status, 0, imported.stderr)

        // A plan riding B1, pinned before the feed comes: the redirected feed's delay must reach it too.
        let created = try harness.json(["plan", "new", SmallRegion.text(region.stopPoint(row: 0, column: 0)),
                                        SmallRegion.text(region.stopPoint(row: 8, column: 8)), "--mode", "transit",
                                        "--at", "2022-06-01T07:55"])
        let planID = String(Int64(try XCTUnwrap(created["id"]?.numberValue, "\(created)")))
        let rideSegment = try XCTUnwrap(created["segments"]?.arrayValue?.firstIndex { $0["mode"] == .string("transit") },
                                        "\(created)") + 1
        // The leg leaves with its one-second walk to the stop: pinned at its own minute.
        let leaves = try XCTUnwrap(created["segments"]?.arrayValue?[rideSegment - 1]["leg"]?["departure"]?.stringValue, "\(created)")
        let pinned = try harness.json(["plan", "pin", planID, String(rideSegment), String(leaves.dropFirst(11).prefix(5))])
        XCTAssertEqual(pinned["pinned_segment"], .number(Double(rideSegment)), "\(pinned)")

        let folder = harness.directory.appendingPathComponent("feeds", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let late = RealtimeTripUpdate(entityID: "t1", trip: RealtimeTripDescriptor(tripID: "T1", startDate: "20220601"), delay: 360)
        try RealtimeFeed(timestamp: Date(timeIntervalSince1970: 1_654_058_400), tripUpdates: [late]).encoded()
            .write(to: folder.appendingPathComponent("trips.pb"), options: .atomic)
        let server = try LocalHTTPServer(directory: folder), other = try LocalHTTPServer(directory: folder)
        defer { server.stop(); other.stop() }
        let set = try harness.umctl(["region", "set", region.name, "--realtime", server.url("/redirect-port/\(other.port)/trips.pb")])
        XCTAssertEqual(set.status, 0, set.stderr)

        // Bounded: 30 s of polls, then the test fails saying what never happened.
        var live: JSONValue?
        for _ in 0..<300 where live == nil {
            live = (try harness.json(["status"])["regions"]?.arrayValue?.first?["realtime_feeds"]?.arrayValue ?? [])
                .first { $0["state"] == .string("live") }
            if live == nil { usleep(100_000) }
        }
        let status = try XCTUnwrap(live, "the redirected feed never went live:\n\(harness.log.suffix(3000))")
        XCTAssertEqual(status["trip_updates_applied"], .number(1), "\(status)")
        XCTAssertEqual(other.requests().map(\.path), ["/trips.pb"], "fetched from the port redirected to")

        let options = try harness.json(["compare", SmallRegion.text(region.stopPoint(row: 0, column: 0)),
                                        SmallRegion.text(region.stopPoint(row: 8, column: 8)), "--at", "2022-06-01T07:55"])["options"]?
            .arrayValue ?? []
        let transit = try XCTUnwrap(options.first { $0["mode"]?.stringValue == "transit" }, "\(options)")
        let ride = try XCTUnwrap(transit["rides"]?.arrayValue?.first { $0["line"] == .string("B1") }, "\(transit)")
        XCTAssertEqual(ride["delay_s"], .number(360), "the redirected feed's delay: \(ride)")
        XCTAssertEqual(ride["realtime"], .bool(true), "\(ride)")

        // The pinned plan follows the same trip, 6 minutes late (bounded: 30 s of polls).
        var pinnedRide: JSONValue?
        for _ in 0..<300 where pinnedRide == nil {
            let plan = try harness.json(["plan", "show", planID])
            pinnedRide = plan["segments"]?.arrayValue?[rideSegment - 1]["leg"]?["rides"]?.arrayValue?
                .first { $0["delay_s"] == .number(360) }
            if pinnedRide == nil { usleep(100_000) }
        }
        let shown = try harness.json(["plan", "show", planID])
        let delayed = try XCTUnwrap(pinnedRide, "the pinned ride never got the redirected feed's delay: \(shown)")
        XCTAssertEqual(delayed["trip_id"], JSONValue.string("T1"), "\(delayed)")
        XCTAssertEqual(delayed["departure"]?.stringValue.map { String($0.dropFirst(11).prefix(5)) }, "08:06", "08:00 + 6 min: \(delayed)")
        let plan = try harness.json(["plan", "show", planID])
        XCTAssertEqual(plan["pinned_segment"], .number(Double(rideSegment)), "still pinned: \(plan)")
        XCTAssertEqual(plan["pending"]?.arrayValue ?? [], [], "a late pin holds, nothing to propose: \(plan)")
    }
}
