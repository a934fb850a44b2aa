import Foundation
import WireProtocol
import XCTest

/// Documents with a hand-written `encode(to:)` (to send unknown values as null) must still send
/// every field: each one here, with every optional set, reads back equal to what was written.
final class DocumentRoundTripTests: XCTestCase {
    private func assertRoundTrips<T: Codable & Equatable>(_ value: T, file: StaticString = #filePath, line: UInt = #line) throws {
        let data = try WireCodec.encoder.encode(value)
        XCTAssertEqual(try WireCodec.decoder.decode(T.self, from: data), value, String(decoding: data, as: UTF8.self),
                       file: file, line: line)
    }

    func testEveryFieldOfPlacesLocationsAndRidesIsSent() throws {
        let fence = FenceDocument(on: true, radiusM: 80, exitRadiusM: 120, state: "inside")
        try assertRoundTrips(PlaceDocument(name: "Home", lat: 61.5, lon: 23.7, kind: "saved", note: "door code", geofence: fence))
        try assertRoundTrips(LocationDocument(lat: 61.5, lon: 23.7, accuracyM: 5, at: "2022-01-12T08:00:00+02:00", source: "gpsd"))
        var ride = RideDocument(line: "3", vehicle: "bus", headsign: "Hervanta", from: "A", to: "B",
                                departure: "2022-01-12T08:00:00+02:00", arrival: "2022-01-12T08:10:00+02:00", tripID: "t1")
        ride.geometry = [[61.5, 23.7], [61.49, 23.76]]
        try assertRoundTrips(ride)
    }

    func testEveryFieldOfRegionsSearchesLinksAndCountersIsSent() throws {
        let region = RegionDocument(name: "tokyo", hasTransit: true, timeZone: "Asia/Tokyo", timeZoneSource: "given with --time-zone",
                                    importedAt: "2026-11-30T10:00:00Z", bounds: [35.6, 139.7, 35.7, 139.8],
                                    transitFeeds: [TransitFeedDocument(feed: "toei.zip", firstDate: "2026-08-01", lastDate: "2026-09-30")])
        try assertRoundTrips(region)
        try assertRoundTrips(RegionImportDocument(region: region, skipped: false, counts: ["places": 12], importDurationS: 4.2,
                                                  notes: ["kept the current transit feeds toei.zip"]))
        try assertRoundTrips(SearchResultDocument(name: "Kanda Gate", lat: 35.69, lon: 139.77, region: "tokyo", kind: "stop",
                                                  category: "bus_stop", distanceM: 120))
        try assertRoundTrips(LinkDocument(url: "https://www.google.com/maps/dir/A/B", form: "timed", fallbackReason: "waypoints",
                                          segment: 2, mode: "transit"))
        try assertRoundTrips(CountersDocument(requests: 3, routingQueries: RoutingQueryCounts(walk: 1, transit: 1, car: 1),
                                              plansRecomputed: 2, connections: 1, watchers: 0, noRouteRetries: 4))
    }
}
