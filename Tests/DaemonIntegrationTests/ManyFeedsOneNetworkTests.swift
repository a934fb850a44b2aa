import Foundation
import Glibc
import HTTPTestSupport
import SQLite
import TestSupport
import Transit
import WireProtocol
import XCTest

/// Issue 43: many feeds, one network. Three written feeds of one region use the same stop,
/// route and trip IDs (S1, S2, R1, T1), as a country's city feeds do; each keeps its own, and a
/// trip changes from one feed's line to another's over a footpath between their stops, and
/// each ride is priced by its own feed's fare F, and a realtime update applies to one feed's
/// trip only, never to a guess among feeds.
final class ManyFeedsOneNetworkTests: XCTestCase {
    /// A 4 km square: the trips below are clearly faster than walking corner to corner.
    private let region = SmallRegion(name: "trio", latitude: 61.5, longitude: 23.76, spacing: 500)

    /// One feed of one trip T1 on route R1 ("line"), from S1 to S2, whose fare F (for R1) costs `fare` EUR.
    private func feed(line: String, from: (name: String, row: Double, column: Double), departs: String,
                      to: (name: String, row: Double, column: Double), arrives: String, fare: String) -> MiniFeed {
        var feed = MiniFeed()
        feed.zone = "Europe/Helsinki"
        feed.agencyName = "\(line) Transport"
        let (fromLatitude, fromLongitude) = region.stopPoint(row: from.row, column: from.column)
        let (toLatitude, toLongitude) = region.stopPoint(row: to.row, column: to.column)
        feed.stops = [("S1", from.name, fromLatitude, fromLongitude), ("S2", to.name, toLatitude, toLongitude)]
        feed.routes = [("R1", line, 3)]
        feed.trips = [("R1", "ALL", "T1", to.name)]
        feed.stopTimes = [("T1", departs, departs, "S1", 1), ("T1", arrives, arrives, "S2", 2)]
        feed.extraFiles["fare_attributes.txt"] = "fare_id,price,currency_type,payment_method,transfers\nF,\(fare),EUR,0,\n"
        feed.extraFiles["fare_rules.txt"] = "fare_id,route_id\nF,R1\n"
        return feed
    }

    /// North: Aalto (south-west corner) → Borg (west edge, middle). South: Borg Pier, 50 m east
    /// of Borg → Castle (north-east corner). East: a third T1 from Dale to Elm, earlier.
    private var threeFeeds: [(name: String, feed: MiniFeed)] {
        [("north", feed(line: "N1", from: ("Aalto", 0, 0), departs: "08:00:00", to: ("Borg", 4, 0), arrives: "08:05:00",
                        fare: "2.00")),
         ("south", feed(line: "S1", from: ("Borg Pier", 4, 0.1), departs: "08:10:00", to: ("Castle", 8, 8), arrives: "08:20:00",
                        fare: "5.00")),
         ("east", feed(line: "E1", from: ("Dale", 8, 0), departs: "07:50:00", to: ("Elm", 0, 8), arrives: "08:00:00",
                       fare: "9.00"))]
    }

    /// Imports north, south and east (each with its T1) as region `trio` of `harness`; with
    /// `server`, each feed is written into its folder and given by URL.
    private func importThreeFeeds(_ harness: DaemonHarness, server: LocalHTTPServer? = nil) throws {
        var arguments = ["region", "import", region.name, "--osm", try region.writeOSM(in: harness.directory).path]
        for (name, feed) in threeFeeds {
            let zip = try region.writeZip(feed.files, in: server?.directory ?? harness.directory, fileName: "\(name).zip")
            arguments += ["--gtfs", server?.url("/\(name).zip") ?? zip.path]
        }
        let imported = try harness.umctl(arguments)
        XCTAssertEqual(imported.status, 0, imported.stderr)
    }

    /// A daemon on 1 June 2022 07:40 with the three feeds imported, and an HTTP server on
    /// 127.0.0.1 serving the files of `folder` (GTFS-RT feeds the test writes there).
    private func startWithRealtimeServer() throws -> (DaemonHarness, folder: URL, LocalHTTPServer) {
        let harness = try startDaemon(extraArguments: ["--clock-start", "2022-06-01T07:40:00+03:00"])
        try importThreeFeeds(harness)
        let folder = harness.directory.appendingPathComponent("feeds", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (harness, folder, try LocalHTTPServer(directory: folder))
    }

    /// The region's realtime feeds in `status` once `count` of them are live. Bounded: 30 s of
    /// polls, then the test fails naming what never happened.
    private func liveFeeds(_ harness: DaemonHarness, count: Int) throws -> [JSONValue] {
        var live: [JSONValue] = []
        for _ in 0..<300 {
            live = (try harness.json(["status"])["regions"]?.arrayValue?.first?["realtime_feeds"]?.arrayValue ?? [])
                .filter { $0["state"] == .string("live") }
            if live.count >= count { return live }
            usleep(100_000)
        }
        XCTFail("\(live.count) of \(count) realtime feeds went live:\n\(harness.log.suffix(3000))")
        return live
    }

    /// The transit option `compare` gives between two of the region's grid points at `at`.
    private func transitOption(_ harness: DaemonHarness, from: (Double, Double), to: (Double, Double),
                               at: String) throws -> JSONValue? {
        let options = try harness.json(["compare", SmallRegion.text(region.stopPoint(row: from.0, column: from.1)),
                                        SmallRegion.text(region.stopPoint(row: to.0, column: to.1)), "--at", at])["options"]?
            .arrayValue ?? []
        return options.first { $0["mode"]?.stringValue == "transit" }
    }

    /// The ride on `line` in that transit option.
    private func ride(_ harness: DaemonHarness, from: (Double, Double), to: (Double, Double), at: String,
                      line: String) throws -> JSONValue {
        let transit = try XCTUnwrap(try transitOption(harness, from: from, to: to, at: at), "no transit option")
        let rides = transit["rides"]?.arrayValue ?? []
        return try XCTUnwrap(rides.first { $0["line"] == .string(line) }, "no \(line) ride: \(transit)")
    }

    func testATripChangesBetweenTwoFeedsWhoseIDsCollideAndEachFeedKeepsItsOwnTripAndFare() throws {
        let harness = try startDaemon()
        try importThreeFeeds(harness)

        let aalto = SmallRegion.text(region.stopPoint(row: 0, column: 0))
        let castle = SmallRegion.text(region.stopPoint(row: 8, column: 8))
        let options = try harness.json(["compare", aalto, castle, "--at", "2022-06-01T07:55"])["options"]?.arrayValue ?? []
        let transit = try XCTUnwrap(options.first { $0["mode"]?.stringValue == "transit" }, "\(options)")
        XCTAssertEqual(transit["error"], .null, "\(transit)")
        XCTAssertEqual(transit["lines"], .array([.string("N1"), .string("S1")]), "north's T1, a walk to Borg Pier, south's T1: \(transit)")
        XCTAssertEqual(transit["transfers"], .number(1))
        XCTAssertEqual(transit["arrival"]?.stringValue?.contains("T08:20"), true, "\(transit)")
        XCTAssertEqual(transit["price"]?["amount"]?.numberValue, 7, "north's F (2.00) and south's F (5.00): \(transit)")

        // The east feed's T1 runs its own stops: Dale to Elm, not Aalto or Castle.
        let dale = SmallRegion.text(region.stopPoint(row: 8, column: 0))
        let elm = SmallRegion.text(region.stopPoint(row: 0, column: 8))
        let across = try harness.json(["compare", dale, elm, "--at", "2022-06-01T07:45"])["options"]?.arrayValue ?? []
        let eastRide = try XCTUnwrap(across.first { $0["mode"]?.stringValue == "transit" }, "\(across)")
        XCTAssertEqual(eastRide["lines"], .array([.string("E1")]), "\(eastRide)")
        XCTAssertEqual(eastRide["price"]?["amount"]?.numberValue, 9, "east's own fare F: \(eastRide)")
    }

    /// A GTFS-RT update for "T1" on 1 June fits all three feeds' T1: it used to go to the first
    /// (north's). It is refused as ambiguous; the one that also gives south's start time (08:10)
    /// fits south's T1 only and makes it late, and north's and east's T1 stay on time.
    func testARealtimeUpdateAppliesOnlyToTheOneFeedsTripItFitsAndAnAmbiguousOneIsRefused() throws {
        let (harness, folder, server) = try startWithRealtimeServer()
        defer { server.stop() }
        let anyT1 = RealtimeTripUpdate(entityID: "any", trip: RealtimeTripDescriptor(tripID: "T1", startDate: "20220601"),
                                       delay: 600)
        let southT1 = RealtimeTripUpdate(entityID: "south",
                                         trip: RealtimeTripDescriptor(tripID: "T1", startTime: "08:10:00", startDate: "20220601"),
                                         delay: 300)
        let feed = RealtimeFeed(timestamp: Date(timeIntervalSince1970: 1_654_058_400), tripUpdates: [anyT1, southT1])
        try feed.encoded().write(to: folder.appendingPathComponent("trio.pb"), options: .atomic)
        let set = try harness.umctl(["region", "set", region.name, "--realtime", server.url("/trio.pb")])
        XCTAssertEqual(set.status, 0, set.stderr)

        let status = try XCTUnwrap(try liveFeeds(harness, count: 1).first)
        XCTAssertEqual(status["trip_updates_applied"], .number(1), "\(status)")
        XCTAssertEqual(status["refused"], .object(["ambiguous_trip": .number(1)]), "\(status)")

        let north = try ride(harness, from: (0, 0), to: (8, 8), at: "2022-06-01T07:55", line: "N1")
        let south = try ride(harness, from: (0, 0), to: (8, 8), at: "2022-06-01T07:55", line: "S1")
        let east = try ride(harness, from: (8, 0), to: (0, 8), at: "2022-06-01T07:45", line: "E1")
        XCTAssertEqual(south["delay_s"], .number(300), "south's T1 is five minutes late: \(south)")
        XCTAssertEqual(north["delay_s"], .null, "north's T1 is not south's: \(north)")
        XCTAssertEqual(east["delay_s"], .null, "east's T1 is not south's: \(east)")
    }

    /// A realtime feed tied to the second GTFS feed (`--realtime south=URL`) names south's T1,
    /// R1 and S1 alone: an update of "T1" on 1 June with no start time (which fits all three
    /// feeds' T1, so untied it is refused) makes south's T1 late, and alerts on route R1 and on
    /// stop S1, which all three feeds have, show on south's ride only. A second feed tied to the
    /// third GTFS feed by its position (`3=URL`) delays east's T1 by a route-only update (R1
    /// leaving at 07:50, no trip_id), which used to be looked up on north's R1. A feed name the
    /// region does not have is refused naming the ones it has.
    func testARealtimeFeedTiedToOneGTFSFeedAppliesItsTripUpdatesAndAlertsToThatFeedAlone() throws {
        let (harness, folder, server) = try startWithRealtimeServer()
        defer { server.stop() }
        let t1 = RealtimeTripUpdate(entityID: "t1", trip: RealtimeTripDescriptor(tripID: "T1", startDate: "20220601"), delay: 300)
        let pier = RealtimeAlert(entityID: "pier", informedEntities: [RealtimeEntitySelector(stopID: "S1")],
                                 effect: "detour", header: [RealtimeTranslation(text: "Works at the first stop")])
        let line = RealtimeAlert(entityID: "line", informedEntities: [RealtimeEntitySelector(routeID: "R1")],
                                 effect: "reduced_service", header: [RealtimeTranslation(text: "Line R1 runs less often")])
        let feed = RealtimeFeed(timestamp: Date(timeIntervalSince1970: 1_654_058_400), tripUpdates: [t1], alerts: [pier, line])
        try feed.encoded().write(to: folder.appendingPathComponent("south.pb"), options: .atomic)
        let byRoute = RealtimeTripUpdate(entityID: "r1", trip: RealtimeTripDescriptor(routeID: "R1", startTime: "07:50:00",
                                                                                     startDate: "20220601"), delay: 120)
        try RealtimeFeed(timestamp: Date(timeIntervalSince1970: 1_654_058_400), tripUpdates: [byRoute]).encoded()
            .write(to: folder.appendingPathComponent("east.pb"), options: .atomic)

        let unknown = try harness.umctl(["region", "set", region.name, "--realtime", "west=" + server.url("/south.pb")])
        XCTAssertNotEqual(unknown.status, 0, "no feed named west")
        XCTAssertTrue(unknown.stderr.contains("west") && unknown.stderr.contains("north.zip")
                      && unknown.stderr.contains("south.zip") && unknown.stderr.contains("east.zip"), unknown.stderr)
        XCTAssertEqual(try harness.json(["status"])["regions"]?.arrayValue?.first?["realtime_feeds"], .null, "nothing was set")

        let set = try harness.umctl(["region", "set", region.name, "--realtime", "south=" + server.url("/south.pb"),
                                     "--realtime", "3=" + server.url("/east.pb")])
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertTrue(set.stdout.contains("(GTFS feed south.zip)") && set.stdout.contains("(GTFS feed east.zip)"), set.stdout)
        let live = try liveFeeds(harness, count: 2)
        let status = try XCTUnwrap(live.first { $0["gtfs_feed"] == .string("south.zip") }, "status shows the tie: \(live)")
        let eastStatus = try XCTUnwrap(live.first { $0["gtfs_feed"] == .string("east.zip") }, "\(live)")
        XCTAssertEqual(eastStatus["trip_updates_applied"], .number(1), "\(eastStatus)")
        XCTAssertEqual(status["trip_updates_applied"], .number(1), "\(status)")
        XCTAssertEqual(status["alerts_applied"], .number(2), "\(status)")
        XCTAssertEqual(status["refused"], .object([:]), "\(status)")
        XCTAssertTrue(try harness.umctl(["status"]).stdout.contains("(GTFS feed south.zip)"))

        let north = try ride(harness, from: (0, 0), to: (8, 8), at: "2022-06-01T07:55", line: "N1")
        let south = try ride(harness, from: (0, 0), to: (8, 8), at: "2022-06-01T07:55", line: "S1")
        let east = try ride(harness, from: (8, 0), to: (0, 8), at: "2022-06-01T07:45", line: "E1")
        XCTAssertEqual(south["delay_s"], .number(300), "south's T1 is five minutes late: \(south)")
        XCTAssertEqual(north["delay_s"], .null, "north's T1 is not south's: \(north)")
        XCTAssertEqual(east["delay_s"], .number(120), "east's T1 is late by east's own feed, not south's: \(east)")
        let southAlerts = Set((south["alerts"]?.arrayValue ?? []).compactMap { $0["header"]?.stringValue })
        XCTAssertEqual(southAlerts, ["Works at the first stop", "Line R1 runs less often"], "\(south)")
        XCTAssertEqual(north["alerts"]?.arrayValue ?? [], [], "north's R1 and S1 are not south's: \(north)")
        XCTAssertEqual(east["alerts"]?.arrayValue ?? [], [], "east's R1 and S1 are not south's: \(east)")
    }

    /// A plan's rides are found again by their trip and stop IDs (to price them and to give
    /// them live times), and every feed here has a T1 from S1 to S2: each ride must be found in
    /// its own feed. They used to be looked up through one stop per ID (east's S1 and S2, the
    /// last feed's), so the plan priced north's and south's rides as east's 9.00, and north's
    /// feed cancelling north's T1 never reached the plan's pinned north ride (a pinned ride not
    /// found again keeps its trip and takes what the overlay says of it, `TransitRouter.liveRide`).
    func testAPlansRidesArePricedAndTrackedLiveInTheirOwnFeedWhenStopIDsCollide() throws {
        let (harness, folder, server) = try startWithRealtimeServer()
        defer { server.stop() }
        let aalto = SmallRegion.text(region.stopPoint(row: 0, column: 0))
        let castle = SmallRegion.text(region.stopPoint(row: 8, column: 8))
        let plan = try harness.json(["plan", "new", aalto, castle, "--mode", "transit", "--at", "2022-06-01T07:55"])
        let id = try XCTUnwrap(plan["id"]?.numberValue.map { String(Int($0)) }, "\(plan)")
        let leg = plan["segments"]?.arrayValue?.first?["leg"]
        XCTAssertEqual(leg?["rides"]?.arrayValue?.compactMap { $0["line"]?.stringValue }, ["N1", "S1"], "\(plan)")
        XCTAssertEqual(plan["price"]?["amount"]?.numberValue, 7, "north's F (2.00) and south's F (5.00): \(plan["price"] ?? .null)")
        let pinned = try harness.umctl(["plan", "pin", id, "1", "--line", "N1"])
        XCTAssertEqual(pinned.status, 0, pinned.stderr)

        let north = RealtimeTripUpdate(entityID: "n1", trip: RealtimeTripDescriptor(tripID: "T1", startDate: "20220601",
                                                                                   relationship: .canceled))
        try RealtimeFeed(timestamp: Date(timeIntervalSince1970: 1_654_058_400), tripUpdates: [north]).encoded()
            .write(to: folder.appendingPathComponent("north.pb"), options: .atomic)
        let set = try harness.umctl(["region", "set", region.name, "--realtime", "north=" + server.url("/north.pb")])
        XCTAssertEqual(set.status, 0, set.stderr)
        _ = try liveFeeds(harness, count: 1)
        let refreshed = try harness.json(["plan", "refresh", id])
        let rides = refreshed["segments"]?.arrayValue?.first?["leg"]?["rides"]?.arrayValue ?? []
        let northRide = try XCTUnwrap(rides.first { $0["line"] == .string("N1") }, "\(refreshed)")
        XCTAssertEqual(northRide["cancelled"], .bool(true), "the pinned north T1 is cancelled by north's own feed: \(northRide)")
        XCTAssertNotEqual(rides.first { $0["line"] == .string("S1") }?["cancelled"], .bool(true), "south's T1 runs: \(rides)")
    }

    /// A realtime feed tied to south applies nothing once the region is imported again without
    /// south. It used to go on showing `live` in `status`; it says `feed_missing`, naming the
    /// feed it lost and the ones the region has, and north's T1 stays on time.
    func testAFeedTiedToAGTFSFeedTheRegionNoLongerHasIsShownAsMissingIt() throws {
        let (harness, folder, server) = try startWithRealtimeServer()
        defer { server.stop() }
        let t1 = RealtimeTripUpdate(entityID: "t1", trip: RealtimeTripDescriptor(tripID: "T1", startDate: "20220601"), delay: 300)
        try RealtimeFeed(timestamp: Date(timeIntervalSince1970: 1_654_058_400), tripUpdates: [t1]).encoded()
            .write(to: folder.appendingPathComponent("south.pb"), options: .atomic)
        let set = try harness.umctl(["region", "set", region.name, "--realtime", "south=" + server.url("/south.pb")])
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertEqual(try liveFeeds(harness, count: 1).first?["trip_updates_applied"], .number(1))

        let reimported = try harness.umctl(["region", "import", region.name, "--osm", try region.writeOSM(in: harness.directory).path,
                                            "--gtfs", harness.directory.appendingPathComponent("north.zip").path,
                                            "--gtfs", harness.directory.appendingPathComponent("east.zip").path])
        XCTAssertEqual(reimported.status, 0, reimported.stderr)
        let feed = try XCTUnwrap(try harness.json(["status"])["regions"]?.arrayValue?.first?["realtime_feeds"]?.arrayValue?.first)
        XCTAssertEqual(feed["state"], .string("feed_missing"), "\(feed)")
        XCTAssertEqual(feed["trip_updates_applied"], .number(0), "\(feed)")
        let error = feed["error"]?.stringValue ?? ""
        XCTAssertTrue(error.contains("south.zip") && error.contains("north.zip, east.zip") && error.contains("--realtime FEED=URL"), error)
        XCTAssertTrue(try harness.umctl(["status"]).stdout.contains("feed_missing"))
        let north = try ride(harness, from: (0, 0), to: (4, 0), at: "2022-06-01T07:55", line: "N1")
        XCTAssertEqual(north["delay_s"], .null, "nothing of south's realtime feed applies to north's T1: \(north)")
    }

    /// `region update trio --feed south` asks the server for south's feed alone (north's and
    /// east's are not fetched, not even conditionally), and the timetable rebuilt from south's
    /// new version and the others' kept copies routes south's new trip T2, north's and east's
    /// trips as before, with the footpath times of the version before (the streets are the
    /// same). A feed the region has not is refused naming its feeds.
    func testUpdatingOneFeedFetchesOnlyThatFeedAndItsNewTripIsRoutedBesideTheOthersUnchanged() throws {
        let harness = try startDaemon()
        let folder = harness.directory.appendingPathComponent("served", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let server = try LocalHTTPServer(directory: folder)
        defer { server.stop() }
        try importThreeFeeds(harness, server: server)

        var south = threeFeeds[1].feed
        south.trips.append(("R1", "ALL", "T2", "Castle"))
        south.stopTimes += [("T2", "09:10:00", "09:10:00", "S1", 1), ("T2", "09:20:00", "09:20:00", "S2", 2)]
        _ = try region.writeZip(south.files, in: folder, fileName: "south.zip")
        server.clearRequests()

        let unknown = try harness.umctl(["region", "update", region.name, "--feed", "west"])
        XCTAssertNotEqual(unknown.status, 0)
        XCTAssertTrue(unknown.stderr.contains("west") && unknown.stderr.contains("south.zip"), unknown.stderr)
        let updated = try harness.json(["region", "update", region.name, "--feed", "south"])
        let result = try XCTUnwrap(updated["regions"]?.arrayValue?.first, "\(updated)")
        XCTAssertEqual(result["rebuilt"], .string("timetable"), "\(result)")
        XCTAssertEqual(result["sources"]?.arrayValue?.count, 1, "south's source alone was checked: \(result)")
        XCTAssertEqual(result["sources"]?.arrayValue?.first?["changed"], .bool(true), "\(result)")
        XCTAssertEqual(server.requests().map(\.path), ["/south.zip"], "north's and east's feeds are not asked")

        XCTAssertEqual(try transitOption(harness, from: (4, 0.1), to: (8, 8), at: "2022-06-01T09:00")?["lines"],
                       .array([.string("S1")]), "south's new T2")
        XCTAssertEqual(try transitOption(harness, from: (0, 0), to: (8, 8), at: "2022-06-01T07:55")?["lines"],
                       .array([.string("N1"), .string("S1")]), "north's T1 and south's T1 as before")
        XCTAssertEqual(try transitOption(harness, from: (8, 0), to: (0, 8), at: "2022-06-01T07:45")?["lines"],
                       .array([.string("E1")]), "east's T1 as before")
        // The only footpaths, Borg ↔ Borg Pier (50 m; every other stop is 500 m or more from the
        // next), join stops that did not move: their times are kept from the version before.
        let manifest = try WireCodec.decoder.decode(JSONValue.self, from: Data(contentsOf: harness.dataDirectory
            .appendingPathComponent("regions/\(region.name)/manifest.json")))
        XCTAssertEqual(manifest["counts"]?["footpaths_kept"], .number(2), "\(manifest["counts"] ?? .null)")
        let sources = try harness.json(["status"])["regions"]?.arrayValue?.first?["sources"]?.arrayValue ?? []
        XCTAssertEqual(sources.compactMap { $0["source"]?.stringValue }.filter { $0.hasSuffix(".zip") },
                       ["north.zip", "south.zip", "east.zip"].map { server.url("/\($0)") }, "every feed keeps its URL: \(sources)")
    }

    /// `region update trio --feed south` parses south's feed alone: north's and east's parts,
    /// kept beside the timetable at import, are merged as they are (their files not written
    /// again: same inode, same modification time), and the timetable is the one a fresh import
    /// of the same three files builds, row for row, with the same answers.
    func testUpdatingOneFeedParsesItAloneAndBuildsTheTimetableAFreshImportOfTheSameFilesBuilds() throws {
        let harness = try startDaemon()
        try importThreeFeeds(harness)
        let current = harness.dataDirectory.appendingPathComponent("regions/\(region.name)", isDirectory: true)
        func partIdentity(_ position: Int) throws -> (inode: Int, modified: Date) {
            let attributes = try FileManager.default.attributesOfItem(
                atPath: current.appendingPathComponent("transit-feed-\(position).part").path)
            return (try XCTUnwrap(attributes[.systemFileNumber] as? Int), try XCTUnwrap(attributes[.modificationDate] as? Date))
        }
        let before = try (1...3).map(partIdentity)

        var south = threeFeeds[1].feed
        south.trips.append(("R1", "ALL", "T2", "Castle"))
        south.stopTimes += [("T2", "09:10:00", "09:10:00", "S1", 1), ("T2", "09:20:00", "09:20:00", "S2", 2)]
        _ = try region.writeZip(south.files, in: harness.directory, fileName: "south.zip")
        let updated = try harness.json(["region", "update", region.name, "--feed", "south"])
        XCTAssertEqual(updated["regions"]?.arrayValue?.first?["rebuilt"], .string("timetable"), "\(updated)")
        let manifest = try WireCodec.decoder.decode(JSONValue.self, from: Data(contentsOf: current.appendingPathComponent("manifest.json")))
        XCTAssertEqual(manifest["counts"]?["feeds_kept"], .number(2), "north's and east's parts: \(manifest["counts"] ?? .null)")
        let after = try (1...3).map(partIdentity)
        for position in [1, 3] {
            XCTAssertEqual(after[position - 1].inode, before[position - 1].inode, "feed \(position)'s part is the one kept")
            XCTAssertEqual(after[position - 1].modified, before[position - 1].modified, "feed \(position)'s part is not written again")
        }
        XCTAssertNotEqual(after[1].inode, before[1].inode, "south's part is written anew")

        let pairs: [(from: (Double, Double), to: (Double, Double), at: String)] = [
            ((4, 0.1), (8, 8), "2022-06-01T09:00"), ((0, 0), (8, 8), "2022-06-01T07:55"), ((8, 0), (0, 8), "2022-06-01T07:45")]
        let updatedAnswers = try pairs.map { try transitOption(harness, from: $0.from, to: $0.to, at: $0.at) }
        XCTAssertEqual(updatedAnswers.first??["lines"], .array([.string("S1")]), "south's new T2: \(String(describing: updatedAnswers.first))")
        let updatedTables = try Self.timetableRows(in: current)

        var arguments = ["region", "import", region.name, "--force", "--osm", try region.writeOSM(in: harness.directory).path]
        for name in ["north", "south", "east"] { arguments += ["--gtfs", harness.directory.appendingPathComponent("\(name).zip").path] }
        let imported = try harness.umctl(arguments)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let fresh = try WireCodec.decoder.decode(JSONValue.self, from: Data(contentsOf: current.appendingPathComponent("manifest.json")))
        XCTAssertEqual(fresh["counts"]?["feeds_kept"], nil, "a fresh import parses every feed")
        let freshTables = try Self.timetableRows(in: current)
        for (table, rows) in freshTables {
            XCTAssertEqual(updatedTables[table], rows, "table \(table) of the updated timetable is the fresh import's")
        }
        XCTAssertEqual(try pairs.map { try transitOption(harness, from: $0.from, to: $0.to, at: $0.at) }, updatedAnswers)
    }

    /// Every row of the timetable's tables in `transit.sqlite` (the meta table's import time and
    /// report left out: they differ between any two imports; its fares with their JSON keys sorted).
    private static func timetableRows(in regionDirectory: URL) throws -> [String: [[SQLiteValue]]] {
        let db = try Database(path: regionDirectory.appendingPathComponent("transit.sqlite").path, mode: .readOnly)
        defer { db.close() }
        var rows: [String: [[SQLiteValue]]] = [:]
        for table in ["feeds", "stops", "routes", "services", "patterns", "trips", "footpaths"] {
            rows[table] = try db.query("SELECT * FROM \(table) ORDER BY 1, 2") { $0.values }
        }
        rows["meta"] = try db.query("SELECT * FROM meta WHERE key NOT IN ('imported_at', 'import_report') ORDER BY key") { row in
            guard row.string(0) == "fares" else { return row.values }
            let fares = try JSONSerialization.jsonObject(with: Data(row.string(1).utf8))
            return [row.value(0), .text(String(decoding: try JSONSerialization.data(withJSONObject: fares, options: .sortedKeys),
                                               as: UTF8.self))]
        }
        return rows
    }
}
