import XCTest
@testable import Planner

/// Per-segment Google Maps links. These snapshots break on purpose when the format file changes:
/// that is where a person approves a format change.
final class GoogleMapsLinkTests: XCTestCase {
    let tokyo = TimeZone(identifier: "Asia/Tokyo")!
    static let origin = Place(name: "Suidobashi Station", coordinate: Coordinate(latitude: 35.6993, longitude: 139.7649))
    static let destination = Place(name: "東京駅", coordinate: Coordinate(latitude: 35.6812362, longitude: 139.7671248))

    func jst(_ hour: Int, _ minute: Int, day: Int = 14) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = tokyo
        return calendar.date(from: DateComponents(year: 2026, month: 8, day: day, hour: hour, minute: minute))!
    }

    func transitPlan(departing: Date) throws -> RoutePlan {
        try RoutePlan(restoring: [PlanNode(place: Self.origin), PlanNode(place: Self.destination)], modes: [.transit],
                      legs: [Fixture.transit(departing: departing, minutes: 12)], timePreference: .leaveNow,
                      pace: .normal, locks: [:], pinned: nil, pending: [:])
    }

    func testTheTokyoSnapshotAt1032JSTIsTheTimedDataForm() throws {
        let link = try GoogleMapsLink.build(plan: transitPlan(departing: jst(10, 32)), segment: 0, timeZone: tokyo)
        XCTAssertEqual(link.form, .timed)
        XCTAssertNil(link.fallbackReason)
        XCTAssertEqual(link.url, "https://www.google.com/maps/dir/Suidobashi+Station/%E6%9D%B1%E4%BA%AC%E9%A7%85/data="
                       + "!4m14!4m13!1m3!2m2!1d139.7649000!2d35.6993000!1m3!2m2!1d139.7671248!2d35.6812362"
                       + "!2m3!6e0!7e2!8j1786703520!3e3")
    }

    func testTheTimeAt1054JSTIs1786704840() throws {
        let link = try GoogleMapsLink.build(plan: transitPlan(departing: jst(10, 54)), segment: 0, timeZone: tokyo)
        XCTAssertTrue(link.url.contains("!8j1786704840!"), link.url)
    }

    func testTheTimeIsTheWallClockReReadAsUTCExactlyNineHoursOffTheRealEpochInJapan() throws {
        let date = jst(10, 32)
        let value = try XCTUnwrap(GoogleMapsLink.wallClockAsUTC(date, in: tokyo))
        XCTAssertEqual(value - Int64(date.timeIntervalSince1970), 9 * 3600)
    }

    func testAMinuteBeforeMidnightKeepsItsDate() throws {
        let value = try XCTUnwrap(GoogleMapsLink.wallClockAsUTC(jst(23, 59), in: tokyo))
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(secondsFromGMT: 0)!
        let parts = utc.dateComponents([.year, .month, .day, .hour, .minute], from: Date(timeIntervalSince1970: TimeInterval(value)))
        XCTAssertEqual([parts.year, parts.month, parts.day, parts.hour, parts.minute], [2026, 8, 14, 23, 59])
    }

    func testTheRegionsTimeZoneDecidesNotTheMachines() throws {
        let helsinki = TimeZone(identifier: "Europe/Helsinki")!
        let date = jst(10, 32)
        let inTokyo = try XCTUnwrap(GoogleMapsLink.wallClockAsUTC(date, in: tokyo))
        let inHelsinki = try XCTUnwrap(GoogleMapsLink.wallClockAsUTC(date, in: helsinki))
        XCTAssertEqual(inTokyo - inHelsinki, 6 * 3600, "JST +9 against EEST +3 in August")
    }

    func testModesAreZeroForCarTwoForWalkThreeForTransit() throws {
        for (mode, value) in [(TravelMode.car, "!3e0"), (.walk, "!3e2"), (.transit, "!3e3")] {
            let link = try GoogleMapsLink.build(from: Self.origin, to: Self.destination, mode: mode,
                                                departure: jst(10, 32), timeZone: tokyo)
            XCTAssertTrue(link.url.hasSuffix(value), "\(mode): \(link.url)")
        }
    }

    func testPointsAreCoordinatesOnlyNeverAPlaceIDBlock() throws {
        let link = try GoogleMapsLink.build(plan: transitPlan(departing: jst(10, 32)), segment: 0, timeZone: tokyo)
        XCTAssertFalse(link.url.contains("!1s"))
        XCTAssertFalse(link.url.contains("0x0"))
        XCTAssertTrue(link.url.contains("!1m3!2m2!1d139.7649000!2d35.6993000"), "longitude first, 7 decimals")
    }

    func testTheStructuralCheckCountsEveryTokenInsideABlock() {
        XCTAssertNil(GoogleMapsLink.structuralProblem("!4m3!1m2!1d1!2d2", forbiddenTypes: []))
        XCTAssertNotNil(GoogleMapsLink.structuralProblem("!4m4!1m2!1d1!2d2", forbiddenTypes: []), "block not used up")
        XCTAssertNotNil(GoogleMapsLink.structuralProblem("!4m2!1m2!1d1!2d2", forbiddenTypes: []), "child longer than parent")
        XCTAssertNotNil(GoogleMapsLink.structuralProblem("!4mX!1d1", forbiddenTypes: []), "count not a number")
        XCTAssertNotNil(GoogleMapsLink.structuralProblem("!4m1!1d{lon}", forbiddenTypes: []), "unfilled placeholder")
        XCTAssertNotNil(GoogleMapsLink.structuralProblem("!1m5!1m1!1s0x0:0x0!2m2!1d1!2d2", forbiddenTypes: ["s"]),
                        "place-ID block")
        XCTAssertNotNil(GoogleMapsLink.structuralProblem("4m1!1d1", forbiddenTypes: []))
    }

    func testBlockCountsAreComputedFromTheBody() throws {
        let templates = [GoogleMapsFormat.TokenTemplate(field: 4, type: "m", value: nil, children: [
            GoogleMapsFormat.TokenTemplate(field: 1, type: "d", value: "{x}", children: nil),
            GoogleMapsFormat.TokenTemplate(field: 5, type: "m", value: nil, children: [
                GoogleMapsFormat.TokenTemplate(field: 2, type: "e", value: "7", children: nil),
            ]),
        ])]
        XCTAssertEqual(GoogleMapsLink.render(templates, values: ["{x}": "1.5"]), "!4m3!1d1.5!5m1!2e7")
    }

    func testNamesEncodeSpacesAsPlusAndPercentEncodeTheRest() {
        XCTAssertEqual(GoogleMapsLink.encodeName("A/B+C D-é"), "A%2FB%2BC+D-%C3%A9")
        XCTAssertEqual(GoogleMapsLink.encodeName("Keskustori_2.~"), "Keskustori_2.~")
    }

    func testEachSegmentDepartsAtItsScheduleTime() throws {
        let station = Place(name: "Suidobashi", coordinate: Coordinate(latitude: 35.702, longitude: 139.7535))
        let plan = try RoutePlan(restoring: [PlanNode(place: station), PlanNode(place: Self.origin), PlanNode(place: Self.destination)],
                                 modes: [.walk, .transit],
                                 legs: [Fixture.walk(8), Fixture.transit(departing: jst(10, 54), minutes: 12)],
                                 timePreference: .leaveNow, pace: .normal, locks: [:], pinned: nil, pending: [:])
        // The walk has no dates: schedule() times it backward from the 10:54 departure → 10:46.
        let walk = try GoogleMapsLink.build(plan: plan, segment: 0, timeZone: tokyo)
        XCTAssertTrue(walk.url.contains("!8j\(1786704840 - 8 * 60)!"), walk.url)
        XCTAssertTrue(walk.url.hasSuffix("!3e2"))
    }

    func testWithoutATimeTheFallbackFormIsProducedAndSaysSo() throws {
        let plan = try RoutePlan(restoring: [PlanNode(place: Self.origin), PlanNode(place: Self.destination)], modes: [.walk],
                                 legs: [Fixture.walk(20)], timePreference: .leaveNow, pace: .normal,
                                 locks: [:], pinned: nil, pending: [:])
        let link = try GoogleMapsLink.build(plan: plan, segment: 0, timeZone: tokyo)
        XCTAssertEqual(link.form, .fallback)
        XCTAssertEqual(link.fallbackReason, "no departure time")
        XCTAssertEqual(link.url, "https://www.google.com/maps/dir/?api=1&origin=35.6993000,139.7649000"
                       + "&destination=35.6812362,139.7671248&travelmode=walking")
    }

    func testALeaveNowWalkIsTimedFromTheGivenNow() throws {
        let plan = try RoutePlan(restoring: [PlanNode(place: Self.origin), PlanNode(place: Self.destination)], modes: [.walk],
                                 legs: [Fixture.walk(20)], timePreference: .leaveNow, pace: .normal,
                                 locks: [:], pinned: nil, pending: [:])
        let link = try GoogleMapsLink.build(plan: plan, segment: 0, timeZone: tokyo, now: jst(10, 32))
        XCTAssertEqual(link.form, .timed)
        XCTAssertTrue(link.url.contains("!8j1786703520!"), link.url)
    }

    func testTheFallbackNamesTheTravelModeForCarAndTransit() throws {
        let car = try GoogleMapsLink.build(from: Self.origin, to: Self.destination, mode: .car, departure: nil, timeZone: tokyo)
        XCTAssertTrue(car.url.hasSuffix("&travelmode=driving"))
        let transit = try GoogleMapsLink.build(from: Self.origin, to: Self.destination, mode: .transit, departure: nil, timeZone: tokyo)
        XCTAssertTrue(transit.url.hasSuffix("&travelmode=transit"))
    }

    func testABadCoordinateGivesTheFallbackWithTheName() throws {
        let nowhere = Place(name: "Nowhere Land", coordinate: Coordinate(latitude: .nan, longitude: 0))
        let link = try GoogleMapsLink.build(from: nowhere, to: Self.destination, mode: .transit, departure: jst(10, 32),
                                            timeZone: tokyo)
        XCTAssertEqual(link.form, .fallback)
        XCTAssertEqual(link.fallbackReason, "invalid coordinate")
        XCTAssertTrue(link.url.contains("origin=Nowhere+Land&"), link.url)
    }

    func testASegmentOutsideThePlanThrows() throws {
        XCTAssertThrowsError(try GoogleMapsLink.build(plan: transitPlan(departing: jst(10, 32)), segment: 1, timeZone: tokyo)) {
            XCTAssertEqual(($0 as? PlannerError)?.code, "index_out_of_range")
        }
    }

    func testTheEmbeddedFormatFileIsReadAndConsistent() throws {
        let format = try GoogleMapsFormat.embedded.get()
        XCTAssertEqual(format.primary.coordinateFractionDigits, 7)
        XCTAssertEqual(Set(format.primary.modeValues.keys), Set(TravelMode.allCases.map(\.rawValue)))
    }

    func testOnlyTheFormatFileSpellsGooglesURLLayout() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let enumerator = try XCTUnwrap(FileManager.default.enumerator(atPath: sources.path))
        var offenders: [String] = []
        var sawFormatFile = false
        for case let file as String in enumerator {
            if file.hasSuffix("google-maps-format.json") { sawFormatFile = true; continue }
            guard file.hasSuffix(".swift") || file.hasSuffix(".json") else { continue }
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            if text.contains("!8j") || text.contains("/maps/dir/") { offenders.append(file) }
        }
        XCTAssertTrue(sawFormatFile)
        XCTAssertEqual(offenders, [])
    }
}
