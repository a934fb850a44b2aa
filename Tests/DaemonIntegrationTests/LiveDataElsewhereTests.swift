import Foundation
import Transit
import WireProtocol
import XCTest

/// Live data away from Tampere: two small written regions west of Greenwich (São Paulo, UTC−3,
/// and New York, UTC−4 in March), a realtime feed for a trip of the previous service day that
/// runs past midnight (24:30:00), and a feed set on one region while plans live in the other.
final class LiveDataElsewhereTests: XCTestCase {
    /// 00:05 on 11 March in São Paulo (03:05 UTC): 23:05 on 10 March in New York.
    static let clockStart = "2026-03-11T00:05:00-03:00"
    static let start = Date(timeIntervalSince1970: 1_773_198_300)

    let saoPaulo = SmallRegion(name: "saopaulo", latitude: -23.5505, longitude: -46.6333)
    let newYork = SmallRegion(name: "newyork", latitude: 40.7536, longitude: -73.9832)

    func line(_ zone: String, departure: String) -> SmallRegion.Line {
        SmallRegion.Line(zone: zone, fromStop: "Praça", toStop: "Estação", departure: departure, minutes: 10,
                         dates: ("20260301", "20260331"))
    }


    func ride(_ plan: JSONValue) -> JSONValue? {
        plan["segments"]?.arrayValue?.compactMap { $0["leg"]?["rides"]?.arrayValue?.first }.first
    }

    func waitFor<T>(_ what: String, _ harness: DaemonHarness, _ condition: () throws -> T?) throws -> T {
        for _ in 0..<600 {
            if let value = try condition() { return value }
            usleep(100_000)
        }
        XCTFail("never: \(what)\n\(harness.log.suffix(3000))")
        throw HarnessError("never: \(what)")
    }

    func testALiveDelayOfATripPastMidnightReachesThePlanInItsRegionAndNoPlanOfAnother() throws {
        let harness = try startDaemon(extraArguments: ["--clock-start", Self.clockStart])
        // Trip T1 of both feeds: in São Paulo the 10 March service at 24:30:00 (00:30 on the 11th),
        // in New York at 23:40 on 10 March.
        _ = try harness.importSmallRegions([(saoPaulo, line("America/Sao_Paulo", departure: "24:30:00")),
                                            (newYork, line("America/New_York", departure: "23:40:00"))])
        let there = try harness.json(["plan", "new", saoPaulo.southWest, saoPaulo.northEast, "--mode", "transit",
                                      "--at", "2026-03-11T00:10"])
        let thereRide = try XCTUnwrap(ride(there), "the ride past midnight is found: \(there)")
        XCTAssertEqual(thereRide["trip_id"], .string("T1"))
        XCTAssertEqual(thereRide["departure"], .string("2026-03-11T00:30:00-03:00"))
        let here = try harness.json(["plan", "new", newYork.southWest, newYork.northEast, "--mode", "transit",
                                     "--at", "2026-03-10T23:30"])
        let hereRide = try XCTUnwrap(ride(here), "\(here)")
        XCTAssertEqual(hereRide["departure"], .string("2026-03-10T23:40:00-04:00"))

        // São Paulo's feed: T1 of the service day 10 March, six minutes late.
        let uptime = try XCTUnwrap(harness.json(["status"])["uptime_s"]?.numberValue)
        let feed = RealtimeFeed(timestamp: Self.start.addingTimeInterval(uptime), tripUpdates: [
            RealtimeTripUpdate(entityID: "late", trip: RealtimeTripDescriptor(tripID: "T1", startDate: "20260310"), delay: 360),
        ])
        let file = harness.directory.appendingPathComponent("saopaulo-live.pb")
        try feed.encoded().write(to: file)
        let set = try harness.umctl(["region", "set", saoPaulo.name, "--realtime", file.path])
        XCTAssertEqual(set.status, 0, set.stderr)
        let thereID = try id(there), hereID = try id(here)
        let late = try waitFor("São Paulo's plan shows the delay", harness) { () -> JSONValue? in
            let shown = try harness.json(["plan", "show", thereID])
            return ride(shown)?["delay_s"] == .number(360) ? shown : nil
        }
        XCTAssertEqual(ride(late)?["departure"], .string("2026-03-11T00:36:00-03:00"), "\(late)")
        XCTAssertEqual(ride(late)?["scheduled_departure"], .string("2026-03-11T00:30:00-03:00"))

        // New York's plan (its own T1 runs on 10 March too) is not touched, and asked again it stays on time.
        XCTAssertEqual(try harness.json(["plan", "show", hereID])["generation"], here["generation"], "not refreshed")
        let refreshed = try harness.json(["plan", "refresh", hereID])
        XCTAssertEqual(ride(refreshed)?["departure"], .string("2026-03-10T23:40:00-04:00"), "\(refreshed)")
        XCTAssertEqual(ride(refreshed)?["realtime"], .bool(false))
        let regions = try harness.json(["status"])["regions"]?.arrayValue ?? []
        let feeds = regions.first { $0["name"] == .string(saoPaulo.name) }?["realtime_feeds"]?.arrayValue ?? []
        XCTAssertEqual(feeds.first?["trip_updates_applied"], .number(1), "\(regions)")
        XCTAssertEqual(regions.first { $0["name"] == .string(newYork.name) }?["realtime_feeds"]?.arrayValue ?? [], [])
    }
}
