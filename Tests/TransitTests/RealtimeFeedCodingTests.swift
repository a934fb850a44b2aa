import Foundation
@testable import Transit
import TestSupport
import XCTest

/// GTFS-Realtime bodies (issue 21): what the decoder reads from protobuf, what the encoder
/// writes for it, and how bad bodies (empty, HTML, garbage, truncated, too large) are refused
/// with `realtime_feed_invalid` naming what was wrong, never a crash.
final class RealtimeFeedCodingTests: XCTestCase {
    /// Every field the decoder reads, with every trip and stop relationship.
    static let richFeed = RealtimeFeed(
        timestamp: Date(timeIntervalSince1970: 1_641_963_600),
        tripUpdates: [
            RealtimeTripUpdate(
                entityID: "late",
                trip: RealtimeTripDescriptor(tripID: "T1", routeID: "3", directionID: 1, startTime: "07:58:00",
                                             startDate: "20220112"),
                stopTimeUpdates: [
                    RealtimeStopTimeUpdate(stopSequence: 1, stopID: "0001",
                                           departure: RealtimeStopTimeEvent(delay: 360, uncertainty: 30)),
                    RealtimeStopTimeUpdate(stopSequence: 2, relationship: .skipped),
                    RealtimeStopTimeUpdate(stopID: "0003", arrival: RealtimeStopTimeEvent(time: 1_641_964_080),
                                           departure: RealtimeStopTimeEvent(delay: -45, time: 1_641_964_100)),
                    RealtimeStopTimeUpdate(stopSequence: 4, relationship: .noData),
                    RealtimeStopTimeUpdate(stopSequence: 5, relationship: .unscheduled),
                ],
                delay: 300, timestamp: Date(timeIntervalSince1970: 1_641_963_590)),
            RealtimeTripUpdate(entityID: "gone", trip: RealtimeTripDescriptor(tripID: "T2", startDate: "20220112",
                                                                             relationship: .canceled)),
            RealtimeTripUpdate(
                entityID: "extra",
                trip: RealtimeTripDescriptor(routeID: "3", directionID: 0, startTime: "25:10:00", startDate: "20220112",
                                             relationship: .added),
                stopTimeUpdates: [RealtimeStopTimeUpdate(stopID: "0001", departure: RealtimeStopTimeEvent(time: 1_642_036_200)),
                                  RealtimeStopTimeUpdate(stopID: "0003", arrival: RealtimeStopTimeEvent(time: 1_642_036_800))]),
        ] + [RealtimeTripDescriptor.Relationship.unscheduled, .replacement, .duplicated, .deleted, .new].map {
            RealtimeTripUpdate(entityID: "rel-\($0.rawValue)", trip: RealtimeTripDescriptor(tripID: "T-\($0.rawValue)", relationship: $0))
        },
        alerts: [
            RealtimeAlert(
                entityID: "works",
                activePeriods: [.init(start: 1_641_960_000, end: 1_641_999_999), .init(start: 1_642_100_000), .init(end: 1_641_900_000)],
                informedEntities: [RealtimeEntitySelector(stopID: "0003"),
                                   RealtimeEntitySelector(agencyID: "NYSSE", routeID: "3", routeType: 3, directionID: 1),
                                   RealtimeEntitySelector(trip: RealtimeTripDescriptor(tripID: "T1", startDate: "20220112"))],
                cause: "construction", effect: "no_service",
                url: [RealtimeTranslation(text: "https://example.org/works")],
                header: [RealtimeTranslation(text: "Pysäkki suljettu", language: "fi"),
                         RealtimeTranslation(text: "Stop closed", language: "en")],
                description: [RealtimeTranslation(text: "Katutyöt", language: "fi")]),
            RealtimeAlert(entityID: "snow", cause: "weather", effect: "significant_delays"),
            RealtimeAlert(entityID: "plain"),
        ],
        vehiclePositionCount: 2)

    private func assertRefused(_ body: Data, _ expected: RealtimeFeedRefusal, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try RealtimeFeed(decoding: body), file: file, line: line) { error in
            XCTAssertEqual(error as? TransitError, .realtimeFeedInvalid(expected), "\(error)", file: file, line: line)
            XCTAssertEqual((error as? TransitError)?.code, "realtime_feed_invalid", file: file, line: line)
        }
    }

    /// The refusal, or nil when the body decoded.
    private func refusal(_ body: Data) -> RealtimeFeedRefusal? {
        do {
            _ = try RealtimeFeed(decoding: body)
            return nil
        } catch {
            guard case .realtimeFeedInvalid(let refusal) = error else {
                XCTFail("\(error) is not realtime_feed_invalid")
                return nil
            }
            return refusal
        }
    }

    // MARK: - Reading and writing

    func testARichFeedRoundTripsThroughTheEncoderAndTheDecoder() throws {
        let decoded = try RealtimeFeed(decoding: Self.richFeed.encoded())
        XCTAssertEqual(decoded.tripUpdates, Self.richFeed.tripUpdates)
        XCTAssertEqual(decoded.alerts, Self.richFeed.alerts)
        XCTAssertEqual(decoded, Self.richFeed)
    }

    func testADifferentialFeedRoundTripsAsDifferential() throws {
        let feed = RealtimeFeed(timestamp: nil, isDifferential: true)
        XCTAssertEqual(try RealtimeFeed(decoding: feed.encoded()), feed)
        XCTAssertFalse(try RealtimeFeed(decoding: Self.richFeed.encoded()).isDifferential)
    }

    /// Bytes written by hand from the proto, so the decoder is checked against the spec and not
    /// only against our own encoder. It also holds what the decoder must pass over: an
    /// extension field, a cause number the proto does not define, a vehicle position.
    func testAFeedWrittenAsProtobufBytesByHandIsDecodedAsTheSpecSays() throws {
        let bytes: [UInt8] = [
            0x0A, 11,                                     // 1 header
            0x0A, 3, 0x32, 0x2E, 0x30,                    //   1 gtfs_realtime_version "2.0"
            0x18, 0xD0, 0xC0, 0xF9, 0x8E, 0x06,           //   3 timestamp 1641963600
            0x12, 51,                                     // 2 entity
            0x0A, 2, 0x74, 0x31,                          //   1 id "t1"
            0x1A, 45,                                     //   3 trip_update
            0x0A, 16,                                     //     1 trip
            0x0A, 2, 0x54, 0x31,                          //       1 trip_id "T1"
            0x1A, 8, 0x32, 0x30, 0x32, 0x32, 0x30, 0x31, 0x31, 0x32, //  3 start_date "20220112"
            0x20, 3,                                      //       4 schedule_relationship CANCELED
            0x12, 25,                                     //     2 stop_time_update
            0x08, 3,                                      //       1 stop_sequence 3
            0x12, 3, 0x08, 0xE8, 0x02,                    //       2 arrival { 1 delay 360 }
            0x1A, 11, 0x08, 0xC4, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, // 3 departure { 1 delay -60 }
            0x22, 1, 0x53,                                //       4 stop_id "S"
            0x28, 1,                                      //       5 schedule_relationship SKIPPED
            0x12, 38,                                     // 2 entity
            0x0A, 1, 0x61,                                //   1 id "a"
            0x2A, 33,                                     //   5 alert
            0x0A, 6, 0x08, 0xC0, 0xA4, 0xF9, 0x8E, 0x06,  //     1 active_period { 1 start 1641960000 }
            0x2A, 3, 0x2A, 1, 0x53,                       //     5 informed_entity { 5 stop_id "S" }
            0x30, 99,                                     //     6 cause 99 (not in the proto)
            0x38, 1,                                      //     7 effect NO_SERVICE
            0x52, 14, 0x0A, 12,                           //     10 header_text { 1 translation
            0x0A, 6, 0x43, 0x6C, 0x6F, 0x73, 0x65, 0x64,  //       1 text "Closed"
            0x12, 2, 0x66, 0x69,                          //       2 language "fi" }
            0x12, 5, 0x0A, 1, 0x76, 0x22, 0,              // 2 entity { 1 id "v", 4 vehicle {} }
            0xC0, 0x3E, 1,                                // 1000 (an extension) = 1
        ]
        let feed = try RealtimeFeed(decoding: Data(bytes))
        XCTAssertEqual(feed, RealtimeFeed(
            timestamp: Date(timeIntervalSince1970: 1_641_963_600),
            tripUpdates: [RealtimeTripUpdate(
                entityID: "t1",
                trip: RealtimeTripDescriptor(tripID: "T1", startDate: "20220112", relationship: .canceled),
                stopTimeUpdates: [RealtimeStopTimeUpdate(stopSequence: 3, stopID: "S", arrival: RealtimeStopTimeEvent(delay: 360),
                                                         departure: RealtimeStopTimeEvent(delay: -60), relationship: .skipped)])],
            alerts: [RealtimeAlert(entityID: "a", activePeriods: [.init(start: 1_641_960_000)],
                                   informedEntities: [RealtimeEntitySelector(stopID: "S")],
                                   cause: "unknown_cause", effect: "no_service",
                                   header: [RealtimeTranslation(text: "Closed", language: "fi")])],
            vehiclePositionCount: 1))
    }

    func testTheEncoderWritesVersionTwoAndFieldsAtTheirProtoNumbers() {
        let bytes = [UInt8](RealtimeFeed(timestamp: Date(timeIntervalSince1970: 1_641_963_600)).encoded())
        XCTAssertEqual(bytes, [0x0A, 11, 0x0A, 3, 0x32, 0x2E, 0x30, 0x18, 0xD0, 0xC0, 0xF9, 0x8E, 0x06])
    }

    func testAbsentOptionalFieldsDecodeAsNil() throws {
        let bare = RealtimeFeed(timestamp: nil, tripUpdates: [
            RealtimeTripUpdate(entityID: "x", trip: RealtimeTripDescriptor(),
                               stopTimeUpdates: [RealtimeStopTimeUpdate(arrival: RealtimeStopTimeEvent())]),
        ])
        let update = try XCTUnwrap(RealtimeFeed(decoding: bare.encoded()).tripUpdates.first)
        XCTAssertNil(update.delay)
        XCTAssertNil(update.timestamp)
        XCTAssertEqual(update.trip, RealtimeTripDescriptor())
        XCTAssertEqual(update.stopTimeUpdates, [RealtimeStopTimeUpdate(arrival: RealtimeStopTimeEvent())])
        XCTAssertNil(update.stopTimeUpdates[0].departure)
    }

    func testAlertCausesAndEffectsAreTheProtosNamesInLowerCase() throws {
        let pairs = [("special_event", "accessibility_issue"), ("police_activity", "stop_moved"), ("other_cause", "no_effect")]
        let feed = RealtimeFeed(timestamp: nil, alerts: pairs.map { RealtimeAlert(entityID: $0.0, cause: $0.0, effect: $0.1) })
        XCTAssertEqual(try RealtimeFeed(decoding: feed.encoded()), feed)
        // A name the proto does not have is not written, so it reads back as the default.
        let odd = RealtimeFeed(timestamp: nil, alerts: [RealtimeAlert(entityID: "x", cause: "aliens", effect: "Detour!")])
        XCTAssertEqual(try RealtimeFeed(decoding: odd.encoded()).alerts,
                       [RealtimeAlert(entityID: "x", cause: "unknown_cause", effect: "unknown_effect")])
    }

    // MARK: - Bad bodies

    func testAnEmptyBodyIsRefused() {
        assertRefused(Data(), .empty)
    }

    func testAnHTMLPageIsRefusedAsAnHTMLPage() {
        let page = "<!DOCTYPE html>\n<html><body><h1>502 Bad Gateway</h1></body></html>\n"
        assertRefused(Data(page.utf8), .htmlPage)
        assertRefused(Data(("\u{FEFF}\r\n  " + page).utf8), .htmlPage)
        XCTAssertEqual(TransitError.realtimeFeedInvalid(.htmlPage).message,
                       "GTFS-Realtime feed refused: an HTML page, not a GTFS-Realtime feed")
    }

    func testRandomBytesThatStartWithALessThanSignAreNotCalledAnHTMLPage() {
        var generator = SeededRandom(seed: 44)
        for length in [40, 600, 4096] {
            let body = Data([UInt8(ascii: "<")] + (1..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            XCTAssertNotEqual(refusal(body), .htmlPage, "\(length) bytes")
        }
        XCTAssertNotEqual(refusal(Data([0x3C, 0x00, 0x41, 0x42])), .htmlPage)
    }

    func testTextThatIsNotProtobufIsRefusedNamingWhereItBroke() {
        // 'h' is field 13 as a varint ('e'), then 'l' is field 13 with wire type 4 (end group).
        assertRefused(Data("hello, this is not a feed".utf8),
                      .notProtobuf(detail: "field 13 has wire type 4, which GTFS-Realtime never uses", offset: 2, byteCount: 25))
        assertRefused(Data([0xFF, 0xFF, 0xFF]), .notProtobuf(detail: "a field tag runs past the end", offset: 0, byteCount: 3))
    }

    func testRandomGarbageIsRefusedOrDecodedAndNeverCrashes() {
        var generator = SeededRandom(seed: 21)
        var refused = 0
        for length in 1...600 {
            let body = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            if refusal(body) != nil { refused += 1 }
        }
        XCTAssertGreaterThan(refused, 590, "random bytes are almost never a FeedMessage with a header")
    }

    /// Protobuf allows a cut only at a field boundary, so every prefix either decodes (a smaller
    /// feed) or is refused; cuts inside the header or an entity are refused as truncated.
    func testAFeedTruncatedAtEveryLengthIsRefusedOrDecodedNeverCrashes() {
        let body = Self.richFeed.encoded()
        var decoded = 0
        for length in 0..<body.count {
            let prefix = body.prefix(length)
            switch refusal(prefix) {
            case nil:
                decoded += 1
            case .notProtobuf(let detail, let offset, let byteCount)?:
                XCTAssertTrue(detail.hasSuffix("runs past the end"), "\(length): \(detail)")
                XCTAssertLessThan(offset, byteCount)
                XCTAssertEqual(byteCount, length)
            case .empty?:
                XCTAssertEqual(length, 0)
            case let other?:
                XCTFail("a prefix of \(length) bytes was refused as \(other)")
            }
        }
        // The entities' boundaries: one smaller feed per entity that is cut off.
        XCTAssertEqual(decoded, Self.richFeed.tripUpdates.count + Self.richFeed.alerts.count + Self.richFeed.vehiclePositionCount)
    }

    func testACutInsideAnEntityIsNamedWithThePathToIt() {
        let body = Self.richFeed.encoded()
        guard case .notProtobuf(let detail, _, _)? = refusal(body.prefix(body.count - 1)) else {
            return XCTFail("a feed missing its last byte was not refused as truncated")
        }
        XCTAssertEqual(detail, "entity[\(Self.richFeed.tripUpdates.count + Self.richFeed.alerts.count + 1)] runs past the end")
    }

    func testAMessageWithoutAHeaderIsRefusedNamingTheHeader() {
        assertRefused(Data([0x12, 3, 0x0A, 1, 0x78]), .missingHeader)                 // entity { id "x" }
    }

    func testAHeaderWithoutAVersionIsRefusedNamingTheVersion() {
        assertRefused(Data([0x0A, 2, 0x18, 1]), .missingVersion)                      // header { timestamp 1 }
        XCTAssertEqual(TransitError.realtimeFeedInvalid(.missingVersion).description,
                       "realtime_feed_invalid: GTFS-Realtime feed refused: the feed header has no gtfs_realtime_version")
    }

    func testAnEntityWithoutItsRequiredFieldsIsRefusedNamingThePath() {
        let header: [UInt8] = [0x0A, 5, 0x0A, 3, 0x32, 0x2E, 0x30]
        assertRefused(Data(header + [0x12, 2, 0x10, 1]), .missingRequiredField(path: "entity[0].id"))   // entity { is_deleted true }
        // entity { id "x", trip_update { stop_time_update {} } }: a trip update needs its trip.
        assertRefused(Data(header + [0x12, 7, 0x0A, 1, 0x78, 0x1A, 2, 0x12, 0]),
                      .missingRequiredField(path: "entity[0].trip_update.trip"))
    }

    func testAKnownFieldWithTheWrongWireTypeIsRefused() {
        // header given as a varint.
        assertRefused(Data([0x08, 1]), .notProtobuf(detail: "header has wire type 0, which its type does not allow",
                                                    offset: 0, byteCount: 2))
    }

    func testABodyAboveTheLimitIsRefusedBeforeDecoding() {
        let body = Self.richFeed.encoded() + Data(count: RealtimeFeed.maximumBytes)
        assertRefused(body, .tooLarge(bytes: body.count, limit: RealtimeFeed.maximumBytes))
        XCTAssertTrue(RealtimeFeedRefusal.tooLarge(bytes: 40 << 20, limit: 32 << 20).description
            .contains("40 MiB, above the 32 MiB limit"))
    }
}
