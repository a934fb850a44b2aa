import XCTest
@testable import Planner

final class StopKindTests: XCTestCase {
    func testTrainMarkersMakeAStation() {
        for name in ["東京駅", "Tampere station", "서울역", "北京站", "東海道新幹線", "地下鉄 大手町", "東京メトロ",
                     "Metro Centre", "Subway 14th St", "Lahti rail", "1番線のりば"] {
            XCTAssertEqual(StopKind.infer(fromName: name), .train, name)
        }
    }

    func testBusMarkersAreCheckedBeforeTrainMarkers() {
        for name in ["東京駅前バス停", "Central Station bus stop", "Station Bus Terminal", "駅前停留所", "札幌駅前電停",
                     "서울역 정류장", "北京站公交", "新宿駅巴士"] {
            XCTAssertEqual(StopKind.infer(fromName: name), .bus, name)
        }
    }

    func testANameWithoutMarkersIsABusStop() {
        XCTAssertEqual(StopKind.infer(fromName: "Hervannan kampus"), .bus)
        XCTAssertEqual(StopKind.infer(fromName: ""), .bus)
    }
}
