import Foundation
import WireProtocol
import XCTest

/// `status` and the documents it holds are read by their hand-written `init(_ fields: JSONFields)`
/// (their `init(from:)` hands over to it), while encoding stays synthesized: every field the
/// encoder writes must be read back, and a malformed answer is worded as before.
final class StatusDocumentReadingTests: XCTestCase {
    /// Every field set, none at its default (no nil, no empty text or list, no 0, no false), so
    /// that a reader that forgets a field cannot give the same document back.
    static let everyFieldSet: StatusDocument = {
        let feed = TransitFeedDocument(feed: "tampere.zip", firstDate: "2021-09-20", lastDate: "2022-03-31", serviceDay: "2022-01-12",
                                       firstDeparture: "2022-01-12T05:02:00+02:00", lastArrival: "2022-01-13T00:48:00+02:00",
                                       daysLeft: -1707, feedEndDate: "2022-04-30", lastCheck: "2026-12-02T05:36:06Z",
                                       lastChange: "2026-12-01T05:36:06Z")
        let realtime = RealtimeFeedDocument(source: "https://***@example.org/trips.pb", gtfsFeed: "tampere.zip", intervalS: 30,
                                            state: "failing",
                                            lastFetch: "2022-01-12T08:00:05+02:00", lastChange: "2022-01-12T08:00:04+02:00",
                                            feedTime: "2022-01-12T08:00:00+02:00", tripUpdatesApplied: 812, tripsCancelled: 3,
                                            alertsApplied: 2, refused: ["unknown_trip": 4, "no_times": 1],
                                            error: "fetch_http_status: 503", consecutiveFailures: 2)
        let source = RegionSourceDocument(role: "osm", source: "https://example.org/tampere.osm.pbf", remote: true, size: 1_795_153,
                                          sha256: "2f2d4a16", etag: "\"abc\"", lastModified: "Tue, 01 Dec 2026 10:00:00 GMT",
                                          fetchedAt: "2026-12-02T05:36:06Z")
        var region = RegionDocument(name: "tampere", hasTransit: true, timeZone: "Europe/Helsinki",
                                    timeZoneSource: "agency_timezone of GTFS feed tampere.zip", importedAt: "2026-12-02T05:36:06Z",
                                    bounds: [61.41, 23.51, 61.56, 23.93], transitFeeds: [feed], realtimeFeeds: [realtime],
                                    sources: [source], straightLineFootpaths: 12, languages: ["en", "fi", "sv"])
        region.lastCheck = RegionCheckDocument(at: "2026-12-02T06:00:00Z", rebuilt: "timetable",
                                               error: WireError(code: "fetch_failed", message: "the server answered 503",
                                                                data: .object(["status": .number(503)])),
                                               failures: 2, nextCheck: "2026-12-02T07:00:00Z")
        let counters = CountersDocument(requests: 16, routingQueries: RoutingQueryCounts(walk: 4, transit: 2, car: 2, bike: 1),
                                        plansRecomputed: 3, connections: 2, watchers: 1, noRouteRetries: 5, logLinesDropped: 7,
                                        historyNotRecorded: 8, noRouteKnownAtImport: 9, realtimeOverlaysBuilt: 10)
        let location = LocationStatusDocument(source: "gpsd", gpsd: "localhost:2947", connected: true, connections: 2,
                                              lastError: "connection refused", currentFrom: "gpsd",
                                              accepted: [CountDocument(name: "gpsd", count: 40)],
                                              ignored: [CountDocument(name: "no_2d_fix", count: 3)],
                                              fences: [FenceStateDocument(place: "Home", state: "inside")])
        let queue = RefreshQueueDocument(running: 7, queued: [8, 9], refreshed: 4, retried: 1, leftAlone: 2, failed: 1)
        return StatusDocument(version: "0.1.0", protocolVersion: 2, databasePath: "/d/usefulmap.sqlite", dataDirectory: "/d",
                              socketPath: "/run/usefulmapd.sock", uptimeS: 95.5, regions: [region], counters: counters,
                              location: location, refreshQueue: queue)
    }()

    /// The fields of `value`, at any depth, left at a default (`regions[0].transitFeeds[0].feedEndDate`).
    private func fieldsAtTheirDefault(_ value: Any, _ path: String = "") -> [String] {
        switch value {
        case let text as String: return text.isEmpty ? [path] : []
        case let flag as Bool: return flag ? [] : [path]
        case let number as Int: return number == 0 ? [path] : []
        case let number as Int64: return number == 0 ? [path] : []
        case let number as Double: return number == 0 ? [path] : []
        default: break
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional, .collection, .dictionary, .set:
            guard !mirror.children.isEmpty else { return [path] }
        default: break
        }
        return mirror.children.enumerated().flatMap { index, child -> [String] in
            let label = child.label.map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 } // a wrapped field's storage
            let step = switch mirror.displayStyle {
            case .collection, .dictionary, .set: "[\(index)]"
            case .optional: ""
            default: label.map { path.isEmpty ? $0 : "\(path).\($0)" } ?? path
            }
            return fieldsAtTheirDefault(child.value, mirror.displayStyle == .optional || label == "wrappedValue" ? path : step)
        }
    }

    func testTheSampleStatusSetsEveryFieldSoAFieldLeftUnreadCannotPass() {
        XCTAssertEqual(fieldsAtTheirDefault(Self.everyFieldSet), [],
                       "set every field of the sample status (a new field too), and read it in its document's init(_ fields:)")
    }

    func testEveryFieldOfStatusIsReadBackAsTheDaemonWroteIt() throws {
        let status = Self.everyFieldSet
        let written = try JSONParser.parse(WireCodec.encoder.encode(status))
        XCTAssertEqual(try StatusDocument(JSONFields(written)), status)
        XCTAssertEqual(try JSONValueDecoder.decode(StatusDocument.self, from: written), status)
        XCTAssertEqual(try WireCodec.decoder.decode(StatusDocument.self, from: JSONWriter.data(written)), status,
                       "Foundation's decoder reads it through the same init")
        XCTAssertEqual(try JSONValueEncoder.encode(status), written, "umctl's encoder writes it as the daemon does")
    }

    /// A key the documents do not know is ignored, as `Codable` ignored it.
    func testAnUnknownKeyIsIgnored() throws {
        guard case .object(var members) = try JSONParser.parse(WireCodec.encoder.encode(Self.everyFieldSet)) else {
            return XCTFail("status is written as an object")
        }
        members["added_by_a_newer_daemon"] = .array([.number(1)])
        XCTAssertEqual(try StatusDocument(JSONFields(.object(members))), Self.everyFieldSet)
    }

    private func shapeError(_ value: JSONValue) -> String? {
        do {
            _ = try WireCodec.answer(StatusDocument.self, from: value, method: "status")
            return nil
        } catch WireClientError.invalidResponse(let reason) {
            return reason.replacingOccurrences(of: "the status answer did not have the expected shape: ", with: "")
        } catch {
            return "\(error)"
        }
    }

    /// `status` written with one member replaced at `path` (object keys and array indexes).
    private func statusWith(_ path: [String], _ member: JSONValue?) throws -> JSONValue {
        func replacing(_ path: ArraySlice<String>, in value: JSONValue) -> JSONValue {
            guard let first = path.first else { return member ?? .null }
            switch value {
            case .object(var members):
                members[first] = path.count == 1 ? member : members[first].map { replacing(path.dropFirst(), in: $0) }
                return .object(members)
            case .array(var elements):
                guard let index = Int(first), elements.indices.contains(index) else { return value }
                elements[index] = replacing(path.dropFirst(), in: elements[index])
                return .array(elements)
            default: return value
            }
        }
        return replacing(path[...], in: try JSONParser.parse(WireCodec.encoder.encode(Self.everyFieldSet)))
    }

    /// Deep in the answer, the path names arrays' indexes and the wire's keys, as `JSONValueDecoder` named them.
    func testAMalformedPartDeepInStatusIsNamedByItsPath() throws {
        XCTAssertNil(shapeError(try JSONParser.parse(WireCodec.encoder.encode(Self.everyFieldSet))), "the whole answer reads")
        XCTAssertEqual(shapeError(try statusWith(["regions", "0", "transit_feeds", "0", "days_left"], .number(1.5))),
                       #""regions[0].transit_feeds[0].days_left": expected an integer, found 1.5"#)
        XCTAssertEqual(shapeError(try statusWith(["regions", "0", "realtime_feeds", "0", "refused", "unknown_trip"], .string("4"))),
                       #""regions[0].realtime_feeds[0].refused.unknown_trip": expected an integer, found a string"#)
        XCTAssertEqual(shapeError(try statusWith(["regions", "0", "bounds", "2"], .null)),
                       #""regions[0].bounds[2]": expected a number, found null"#)
        XCTAssertEqual(shapeError(try statusWith(["regions", "0", "sources", "0", "remote"], .number(1))),
                       #""regions[0].sources[0].remote": expected true or false, found 1"#)
        XCTAssertEqual(shapeError(try statusWith(["regions", "0", "last_check", "failures"], nil)),
                       #""regions[0].last_check.failures": missing"#)
        XCTAssertEqual(shapeError(try statusWith(["location", "accepted"], .object([:]))),
                       #""location.accepted": expected an array, found an object"#)
        XCTAssertEqual(shapeError(try statusWith(["refresh_queue", "queued", "1"], .number(2.5))),
                       #""refresh_queue.queued[1]": expected an integer, found 2.5"#)
        XCTAssertEqual(shapeError(try statusWith(["counters", "routing_queries"], .string("none"))),
                       #""counters.routing_queries": expected an object, found a string"#)
        XCTAssertEqual(shapeError(try statusWith(["regions", "0", "time_zone"], .bool(true))),
                       #""regions[0].time_zone": expected a string, found true"#)
    }

    /// Absent and null optionals read as nil (an older daemon leaves keys out; the new one writes null).
    func testAbsentAndNullOptionalsReadAsNil() throws {
        let bare = try statusWith(["location"], nil)
        XCTAssertNil(try StatusDocument(JSONFields(bare)).location)
        let nullQueue = try statusWith(["refresh_queue"], .null)
        XCTAssertNil(try StatusDocument(JSONFields(nullQueue)).refreshQueue)
        let noRetries = try statusWith(["counters", "no_route_retries"], .null)
        XCTAssertNil(try StatusDocument(JSONFields(noRetries)).counters.noRouteRetries)
    }
}
