import Foundation
import WireProtocol
import XCTest

/// The wire's contract for optional fields, document by document: with every optional set, each
/// field is sent and reads back equal; with none set, the `@NullWhenNil` keys are present as
/// null, the others are left out, and the document reads back equal with or without the nulls.
final class DocumentRoundTripTests: XCTestCase {
    private let morning = "2022-01-12T08:00:00+02:00"
    private let later = "2022-01-12T08:20:00+02:00"

    /// Encodes `value` with the wire encoder; its top-level keys written as null must be exactly
    /// `nulls`, none of `absent` may be written, and it must read back equal.
    private func assertWire<T: Codable & Equatable>(_ value: T, nulls: Set<String> = [], absent: Set<String> = [],
                                                   file: StaticString = #filePath, line: UInt = #line) throws {
        let data = try WireCodec.encoder.encode(value)
        let text = String(decoding: data, as: UTF8.self)
        guard case .object(let members) = try JSONParser.parse(data) else { return XCTFail("not an object: \(text)", file: file, line: line) }
        XCTAssertEqual(Set(members.filter { $0.value == .null }.keys), nulls, "keys written as null in \(text)", file: file, line: line)
        XCTAssertEqual(Set(members.keys).intersection(absent), [], "keys that must be left out in \(text)", file: file, line: line)
        XCTAssertEqual(try WireCodec.decoder.decode(T.self, from: data), value, text, file: file, line: line)
        let withoutNulls = JSONWriter.data(.object(members.filter { $0.value != .null }))
        XCTAssertEqual(try WireCodec.decoder.decode(T.self, from: withoutNulls), value, "read without its null keys: \(text)",
                       file: file, line: line)
        // umctl's own coders write and read the same.
        XCTAssertEqual(try JSONValueEncoder.encode(value), .object(members), "JSONValueEncoder: \(text)", file: file, line: line)
        XCTAssertEqual(try JSONValueDecoder.decode(T.self, from: .object(members)), value, "JSONValueDecoder: \(text)", file: file, line: line)
        XCTAssertEqual(try JSONValueDecoder.decode(T.self, from: .object(members.filter { $0.value != .null })), value,
                       "JSONValueDecoder without the null keys: \(text)", file: file, line: line)
    }

    private var fence: FenceDocument { FenceDocument(on: true, radiusM: 80, exitRadiusM: 120, state: "inside") }

    private var ride: RideDocument {
        var ride = RideDocument(line: "3", vehicle: "bus", headsign: "Hervanta", from: "A", to: "B",
                                departure: morning, arrival: later, tripID: "t1@08:00:00", headwayS: 600)
        ride.geometry = [[61.5, 23.7], [61.49, 23.76]]
        return ride
    }

    private var transitLeg: LegDocument {
        var walk = WalkDocument(kind: "access", from: "Home", to: "A", start: morning, durationS: 120, distanceM: 150)
        walk.geometry = [[61.5, 23.7], [61.5, 23.71]]
        var leg = LegDocument(durationS: 1200, distanceM: 4000, departure: morning, arrival: later, transfers: 0,
                              rides: [ride], walks: [walk], walkingIsNoSlower: true,
                              price: PriceDocument(amount: 3.5, currency: "EUR"), priceNote: nil)
        leg.geometry = [[61.5, 23.7], [61.49, 23.76]]
        return leg
    }

    private var region: RegionDocument {
        RegionDocument(name: "tokyo", hasTransit: true, timeZone: "Asia/Tokyo", timeZoneSource: "given with --time-zone",
                       importedAt: "2026-11-30T10:00:00Z", bounds: [35.6, 139.7, 35.7, 139.8],
                       transitFeeds: [TransitFeedDocument(feed: "toei.zip", firstDate: "2026-08-01", lastDate: "2026-09-30")])
    }

    private let regionNulls: Set<String> = ["time_zone", "time_zone_source", "imported_at", "bounds", "transit_feeds", "realtime_feeds"]

    func testPlansWriteUnknownValuesAsNullAndLeaveOutStaysGeometryErrorsAndUntitledSummaries() throws {
        let node = NodeDocument(name: "Shop", lat: 61.51, lon: 23.71, time: morning, inferred: true, currentLocation: false,
                                departure: later, stayS: 600, stayUntil: "2022-01-12T09:00:00+02:00",
                                stayNote: "ended before the traveller gets here")
        try assertWire(node)
        try assertWire(NodeDocument(name: "Work", lat: 61.52, lon: 23.72, time: nil, inferred: false, currentLocation: false),
                       nulls: ["time"], absent: ["departure", "stay_s", "stay_until", "stay_note"])

        try assertWire(ride, nulls: ["scheduled_departure", "scheduled_arrival", "delay_s", "arrival_delay_s", "from_stop_id",
                                     "to_stop_id", "alerts_omitted", "skipped_stop"])
        try assertWire(RideDocument(line: "3", vehicle: "bus", headsign: nil, from: "A", to: "B", departure: morning, arrival: later),
                       nulls: ["headsign", "trip_id", "headway_s", "scheduled_departure", "scheduled_arrival", "delay_s",
                               "arrival_delay_s", "from_stop_id", "to_stop_id", "alerts_omitted", "skipped_stop"], absent: ["geometry"])
        let late = RideDocument(line: "3", vehicle: "bus", headsign: nil, from: "A", to: "B", departure: later, arrival: later,
                                realtime: true, scheduledDeparture: morning, scheduledArrival: later, delayS: 360, arrivalDelayS: 0,
                                cancelled: false,
                                alerts: [AlertDocument(id: "a1", header: "Stop moved", effect: "stop_moved", activeFrom: morning)])
        try assertWire(late, nulls: ["headsign", "trip_id", "headway_s", "from_stop_id", "to_stop_id", "alerts_omitted", "skipped_stop"])
        let text = String(decoding: try WireCodec.encoder.encode(late), as: UTF8.self)
        for key in [#""realtime":true"#, #""delay_s":360"#, #""scheduled_departure":"#, #""cancelled":false"#, #""active_until":null"#] {
            XCTAssertTrue(text.contains(key), "\(key) in \(text)")
        }
        XCTAssertTrue(String(decoding: try WireCodec.encoder.encode(ride), as: UTF8.self).contains(#""headway_s":600"#))

        try assertWire(transitLeg, nulls: ["price_note"])
        XCTAssertTrue(String(decoding: try WireCodec.encoder.encode(transitLeg), as: UTF8.self)
            .contains(#""price":{"amount":3.5,"currency":"EUR"}"#))
        try assertWire(LegDocument(durationS: 300, distanceM: nil, departure: nil, arrival: nil, transfers: 0, rides: []),
                       nulls: ["distance_m", "departure", "arrival", "price", "price_note"], absent: ["geometry"])

        let segment = SegmentDocument(mode: .transit, locked: true, leg: transitLeg, error: WireError(.noRoute, "no route"),
                                      missedConnection: true, chosenLines: ["3"], due: morning)
        try assertWire(segment)
        try assertWire(SegmentDocument(mode: .walk, locked: false, leg: nil), nulls: ["leg"], absent: ["error", "chosen_lines", "due"])

        try assertWire(TimePreferenceDocument(kind: "depart_at", time: morning))
        try assertWire(TimePreferenceDocument(kind: "leave_now", time: nil), nulls: ["time"])

        try assertWire(PlanDocument(id: 7, title: "Tuesday", nodes: [node], segments: [segment], totalDurationS: 1800.5,
                                    totalDistanceM: 4321, pending: [PendingDocument(segment: 1, selected: transitLeg, proposal: .ride(transitLeg))],
                                    pace: .fast, timePreference: TimePreferenceDocument(kind: "depart_at", time: morning),
                                    pinnedSegment: 1, generation: 12, timeZone: "Europe/Helsinki",
                                    price: PriceQuoteParts(price: PriceDocument(amount: 3.5, currency: "EUR"), note: nil)),
                       nulls: ["price_note"])
        var outside = PlanDocument(id: 9, title: nil, nodes: [], segments: [], totalDurationS: nil, totalDistanceM: 0, pending: [],
                                   pace: .normal, timePreference: TimePreferenceDocument(kind: "depart_at", time: morning),
                                   pinnedSegment: nil, generation: 1, timeZone: "Europe/Helsinki")
        try assertWire(outside, nulls: ["title", "total_duration_s", "pinned_segment", "price", "price_note"], absent: ["coverage_note"])
        outside.coverageNote = "2022-04-02 is after the Tampere timetable ends (2022-03-31)"
        try assertWire(outside, nulls: ["title", "total_duration_s", "pinned_segment", "price", "price_note"])
        try assertWire(PlanDocument(id: 8, title: nil, nodes: [], segments: [], totalDurationS: nil, totalDistanceM: 0, pending: [],
                                    pace: .normal, timePreference: TimePreferenceDocument(kind: "leave_now", time: nil),
                                    pinnedSegment: nil, generation: 1, timeZone: "Europe/Helsinki"),
                       nulls: ["title", "total_duration_s", "pinned_segment", "price", "price_note"])

        try assertWire(PlanSummaryDocument(id: 1, title: "Tuesday", from: "A", to: "B", updatedAt: morning, totalDurationS: 12,
                                           day: "2022-01-12", departure: morning, arrival: morning))
        // `day` is null for a plan that leaves now.
        try assertWire(PlanSummaryDocument(id: 2, title: nil, from: "A", to: "B", updatedAt: nil, totalDurationS: nil),
                       nulls: ["updated_at", "total_duration_s", "day", "departure", "arrival"], absent: ["title"])
    }

    /// A pending update is a ride or "none can be caught", one of the two (issue 39): both
    /// written as the protocol always had them, the other one null; neither is an error.
    func testAPendingUpdateIsARideOrNothingCatchableWithTheOtherNull() throws {
        let transitLeg = LegDocument(durationS: 1500, distanceM: 9000, departure: morning, arrival: later, transfers: 0, rides: [ride])
        try assertWire(PendingDocument(segment: 2, selected: transitLeg, proposal: .ride(transitLeg)), nulls: ["no_catchable_ride"])
        let nothing = NoCatchableRideDocument(kind: "no_later_ride", time: later)
        try assertWire(PendingDocument(segment: 2, selected: transitLeg, proposal: .nothingCatchable(nothing)), nulls: ["latest"])
        let written = try WireCodec.encoder.encode(PendingDocument(segment: 2, selected: transitLeg, proposal: .ride(transitLeg)))
        guard case .object(var members) = try JSONParser.parse(written) else { return XCTFail("not an object") }
        members["latest"] = nil
        XCTAssertThrowsError(try WireCodec.decoder.decode(PendingDocument.self, from: JSONWriter.data(.object(members)))) { error in
            XCTAssertTrue("\(error)".contains("latest or no_catchable_ride"), "\(error)")
        }
    }

    func testPlacesHistoryAndLocationsWriteEveryKey() throws {
        let place = PlaceDocument(name: "Home", lat: 61.5, lon: 23.7, kind: "saved", note: "door code", geofence: fence)
        try assertWire(place)
        try assertWire(PlaceDocument(name: "61.5,23.7", lat: 61.5, lon: 23.7), nulls: ["kind", "note", "geofence"])

        try assertWire(HistoryEntryDocument(id: "r1", label: "A → B", text: "cafe", fromText: "A", toText: "B", region: "tampere",
                                            from: place, to: place, place: place, at: morning, modes: [.walk, .car],
                                            requestedTime: TimePreferenceDocument(kind: "arrive_by", time: later),
                                            answers: [HistoryAnswerDocument(mode: .walk, durationS: 845)], fastest: .walk,
                                            plan: HistoryPlanDocument(title: "Errands", titleGiven: true, preset: .walk, pace: .fast,
                                                                      via: [place]),
                                            compare: HistoryCompareDocument(pace: .slow, access: .wheelchair, modes: [.walk, .transit])))
        try assertWire(HistoryEntryDocument(id: "s2", label: "cafe"),
                       nulls: ["text", "from_text", "to_text", "region", "from", "to", "place", "at", "modes", "requested_time",
                               "answers", "fastest", "plan", "compare"])
        try assertWire(HistoryAnswerDocument(mode: .car, durationS: 200))
        try assertWire(HistoryAnswerDocument(mode: .transit, durationS: nil), nulls: ["duration_s"])

        try assertWire(LocationDocument(lat: 61.5, lon: 23.7, accuracyM: 5, at: morning, source: "gpsd"))
        try assertWire(LocationDocument(lat: 61.5, lon: 23.7, accuracyM: nil, at: morning), nulls: ["accuracy_m", "source"])
    }

    func testRegionsSearchesLinksCountersAndComparisonsWriteEveryKey() throws {
        try assertWire(region, nulls: ["realtime_feeds", "straight_line_footpaths"])
        var following = region
        following.realtimeFeeds = [RealtimeFeedDocument(source: "https://***@example.org/trips.pb", gtfsFeed: "south.zip", intervalS: 30, state: "live",
                                                        lastFetch: morning, lastChange: morning, feedTime: morning,
                                                        tripUpdatesApplied: 12, tripsCancelled: 1, alertsApplied: 2,
                                                        refused: ["unknown_trip": 3], error: nil, consecutiveFailures: 0)]
        try assertWire(following, nulls: ["straight_line_footpaths"])
        following.straightLineFootpaths = 4  // footpaths the streets could not time
        try assertWire(following)
        try assertWire(RealtimeFeedDocument(source: "/srv/trips.pb", intervalS: 10, state: "waiting"),
                       nulls: ["gtfs_feed", "last_fetch", "last_change", "feed_time", "error"])
        try assertWire(TransitFeedDocument(feed: "toei.zip", firstDate: "2026-08-01", lastDate: "2026-09-30", serviceDay: "2026-09-28",
                                           firstDeparture: "2026-09-28T05:00:00+09:00", lastArrival: "2026-09-29T00:40:00+09:00",
                                           daysLeft: 2, feedEndDate: "2026-10-31", lastCheck: "2026-11-30T10:00:00Z",
                                           lastChange: "2026-11-30T10:00:00Z"))
        try assertWire(TransitFeedDocument(feed: "toei.zip", firstDate: "2026-08-01", lastDate: "2026-09-30"),
                       nulls: ["first_departure", "last_arrival"],
                       absent: ["service_day", "days_left", "feed_end_date", "last_check", "last_change"])
        let unknownRegion = RegionDocument(name: "x", hasTransit: false, timeZone: nil, importedAt: nil, bounds: nil)
        try assertWire(unknownRegion, nulls: regionNulls.union(["straight_line_footpaths"]))
        try assertWire(RegionImportDocument(region: region, skipped: false, counts: ["places": 12], importDurationS: 4.2,
                                            notes: ["kept the current transit feeds toei.zip"]))
        // An import's answer describes the region's import, not its realtime feeds.
        try assertWire(RegionImportDocument(region: unknownRegion, skipped: true, counts: [:], importDurationS: 0),
                       nulls: regionNulls.subtracting(["realtime_feeds"]))

        try assertWire(SearchResultDocument(name: "Kanda Gate", lat: 35.69, lon: 139.77, region: "tokyo", kind: "stop",
                                            category: "bus_stop", distanceM: 120, address: "1 Kanda Street", match: "prefix",
                                            approximate: "no 2 Kanda Street"))
        try assertWire(SearchResultDocument(name: "Kanda Gate", lat: 35.69, lon: 139.77, kind: "stop", category: nil, distanceM: nil),
                       nulls: ["region", "category", "distance_m", "address", "approximate"])
        try assertWire(SearchDocument(results: [], didYouMean: "Kanda Gate"))
        try assertWire(SearchDocument(results: []), nulls: ["did_you_mean"])
        let street = SearchResultDocument(name: "Kanda Street", lat: 35.69, lon: 139.77, kind: "street", category: nil, distanceM: 12)
        try assertWire(WhereDocument(lat: 35.69, lon: 139.77, region: "tokyo", label: "near Kanda Street", address: street,
                                     place: street, street: street))
        try assertWire(WhereDocument(lat: 35.69, lon: 139.77, region: nil, label: nil, address: nil, place: nil, street: nil),
                       nulls: ["region", "label", "address", "place", "street"])

        try assertWire(LinkDocument(url: "https://www.google.com/maps/dir/A/B", form: "fallback", fallbackReason: "waypoints",
                                    segment: 2, mode: .transit))
        try assertWire(LinkDocument(url: "https://www.google.com/maps/dir/A/B", form: "timed", fallbackReason: nil, segment: 2, mode: .walk),
                       nulls: ["fallback_reason"])

        let queries = RoutingQueryCounts(walk: 1, transit: 1, car: 1)
        try assertWire(CountersDocument(requests: 3, routingQueries: queries, plansRecomputed: 2, connections: 1, watchers: 0, noRouteRetries: 4,
                                         logLinesDropped: 0, historyNotRecorded: 0, noRouteKnownAtImport: 2, realtimeOverlaysBuilt: 1))
        try assertWire(CountersDocument(requests: 3, routingQueries: queries, plansRecomputed: 2),
                       nulls: ["no_route_retries", "log_lines_dropped", "history_not_recorded", "no_route_known_at_import",
                               "realtime_overlays_built"])

        let answer = CompareOption(mode: .walk, durationS: 844, departure: morning, arrival: later, distanceM: 1170, transfers: 0,
                                   fastest: true, lines: [], error: WireError(.noRoute, "none"), walkingIsNoSlower: true)
        try assertWire(answer, nulls: ["price", "price_note"])
        try assertWire(CompareOption(mode: .transit, durationS: nil, departure: nil, arrival: nil, distanceM: nil, transfers: nil,
                                     fastest: false, lines: [], error: nil),
                       nulls: ["duration_s", "departure", "arrival", "distance_m", "transfers", "error", "price", "price_note"])
        let priced = CompareOption(mode: .car, durationS: 600, departure: morning, arrival: later, distanceM: 9600, transfers: nil,
                                   fastest: false, lines: [], error: nil, price: PriceDocument(amount: 2.4, currency: "EUR"),
                                   priceNote: "estimate: 0.25 EUR/km", priceEstimate: true)
        try assertWire(priced, nulls: ["transfers", "error"])
        let headways = CompareOption(mode: .transit, durationS: 900, departure: morning, arrival: later, distanceM: 3000,
                                     transfers: 1, fastest: false, lines: ["7", "3"], headwaysS: [600, nil], error: nil)
        try assertWire(headways, nulls: ["error", "price", "price_note"])
        XCTAssertTrue(String(decoding: try WireCodec.encoder.encode(headways), as: UTF8.self).contains(#""headways_s":[600,null]"#))
        let place = PlaceDocument(name: "Home", lat: 61.5, lon: 23.7)
        try assertWire(CompareDocument(from: place, to: place, options: [answer], timeZone: "Europe/Helsinki"), absent: ["map"])
    }

    /// `history.rerun` answers a comparison or a plan as the document itself; the plan is the one with segments.
    func testARerunIsTheComparisonOrThePlanItself() throws {
        let place = PlaceDocument(name: "Home", lat: 61.5, lon: 23.7)
        let comparison = CompareDocument(from: place, to: place, options: [], timeZone: "Europe/Helsinki")
        let plan = PlanDocument(id: 8, title: "Day", nodes: [], segments: [], totalDurationS: nil, totalDistanceM: 0, pending: [],
                                pace: .normal, timePreference: TimePreferenceDocument(kind: "leave_now", time: nil),
                                pinnedSegment: nil, generation: 1, timeZone: "Europe/Helsinki")
        for (rerun, document) in [(RerunDocument.compare(comparison), try WireCodec.encoder.encode(comparison)),
                                  (RerunDocument.plan(plan), try WireCodec.encoder.encode(plan))] {
            XCTAssertEqual(try WireCodec.encoder.encode(rerun), document)
            XCTAssertEqual(try WireCodec.decoder.decode(RerunDocument.self, from: document), rerun)
            XCTAssertEqual(try JSONValueDecoder.decode(RerunDocument.self, from: JSONParser.parse(document)), rerun)
        }
    }

    func testStatusLeavesOutWhatAnOlderDaemonHadNot() throws {
        let counters = CountersDocument(requests: 0, routingQueries: RoutingQueryCounts(walk: 0, transit: 0, car: 0), plansRecomputed: 0)
        let location = LocationStatusDocument(source: "manual", accepted: [], ignored: [], fences: [])
        try assertWire(location, absent: ["gpsd", "connected", "connections", "last_error", "current_from"])
        let queue = RefreshQueueDocument(running: nil, queued: [], refreshed: 0, retried: 0, leftAlone: 0, failed: 0)
        try assertWire(queue, nulls: ["running"]) // "every key is always present", as the docs promise
        try assertWire(StatusDocument(version: "1", protocolVersion: 2, databasePath: "/d/db", dataDirectory: "/d", socketPath: "/s",
                                      uptimeS: 1.5, regions: [region], counters: counters, location: location, refreshQueue: queue))
        try assertWire(StatusDocument(version: "1", protocolVersion: 2, databasePath: "/d/db", dataDirectory: "/d", socketPath: "/s",
                                      uptimeS: 1.5, regions: [], counters: counters),
                       absent: ["location", "refresh_queue"])
    }
}
