@testable import Streets
import XCTest

/// How a batch's requests are shared between the workers.
final class RoutinoBatchLanesTests: XCTestCase {
    func testEachLaneTakesItsOwnRunFromTheFrontFirst() {
        let lanes = RoutinoBatchLanes(count: 10, lanes: 2)
        XCTAssertEqual([lanes.next(lane: 0), lanes.next(lane: 1), lanes.next(lane: 0), lanes.next(lane: 1)], [0, 5, 1, 6])
    }

    func testAnEmptiedLaneHelpsTheFullestFromItsFarEnd() {
        let lanes = RoutinoBatchLanes(count: 9, lanes: 3)  // 0–2, 3–5, 6–8
        XCTAssertEqual([lanes.next(lane: 0), lanes.next(lane: 0), lanes.next(lane: 0)], [0, 1, 2])
        XCTAssertEqual(lanes.next(lane: 2), 6)
        XCTAssertEqual(lanes.next(lane: 0), 5, "lane 1 has three left, lane 2 two: the last of lane 1")
        XCTAssertEqual(lanes.next(lane: 1), 3, "lane 1 still takes its own from the front")
    }

    func testEveryRequestIsGivenOutExactlyOnce() {
        let lanes = RoutinoBatchLanes(count: 101, lanes: 4)
        var taken: [Int] = []
        var lane = 0
        while let index = lanes.next(lane: lane % 3) {  // lane 3 never comes: the others take its run
            taken.append(index)
            lane += 1
        }
        XCTAssertEqual(taken.sorted(), Array(0..<101))
        XCTAssertNil(lanes.next(lane: 3))
    }

    func testTakeAllLeavesNothingForTheLanes() {
        let lanes = RoutinoBatchLanes(count: 6, lanes: 2)
        XCTAssertEqual(lanes.next(lane: 1), 3)
        XCTAssertEqual(lanes.takeAll(), [0, 1, 2, 4, 5])
        XCTAssertNil(lanes.next(lane: 0))
        XCTAssertEqual(lanes.takeAll(), [])
    }

    func testMoreLanesThanRequestsGiveEachOnce() {
        let lanes = RoutinoBatchLanes(count: 1, lanes: 2)
        XCTAssertEqual(lanes.next(lane: 0), 0)
        XCTAssertNil(lanes.next(lane: 1))
    }
}
