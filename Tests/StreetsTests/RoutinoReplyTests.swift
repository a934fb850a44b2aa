import Planner
@testable import Streets
import XCTest

/// The worker's line format, read in exactly one place.
final class RoutinoReplyTests: XCTestCase {
    func testRouteAnswerGivesMetresSecondsAndPoints() {
        let reply = RoutinoReply(line: "ok 1107.0 798.9 61.497835,23.760983 61.498012,23.763097")
        XCTAssertEqual(reply, .route(distance: 1107, duration: 798.9, points: [
            Coordinate(latitude: 61.497835, longitude: 23.760983), Coordinate(latitude: 61.498012, longitude: 23.763097),
        ]))
    }

    func testErrorsAreDistinct() {
        XCTAssertEqual(RoutinoReply(line: "error no_road_nearby to"), .noRoadNearby(endpoint: "to"))
        XCTAssertEqual(RoutinoReply(line: "error no_route"), .noRoute)
        XCTAssertEqual(RoutinoReply(line: "error bad_request unknown profile x"), .badRequest("unknown profile x"))
        XCTAssertEqual(RoutinoReply(line: "error engine 41"), .engine("Routino error 41"))
    }

    func testMalformedAnswerIsAnEngineFailureNotACrash() {
        guard case .engine = RoutinoReply(line: "ok 12 x") else { return XCTFail("malformed numbers") }
        guard case .engine = RoutinoReply(line: "ok 12 3 61.4") else { return XCTFail("malformed point") }
        guard case .engine = RoutinoReply(line: "") else { return XCTFail("empty line") }
    }
}
