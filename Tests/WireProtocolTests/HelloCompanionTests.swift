import WireProtocol
import XCTest

/// Which requests may go in one write with a `hello` not yet answered: asked by the method's
/// name (what `WireClient` has), it says what the method itself says, and no for a name that
/// is no method.
final class HelloCompanionTests: XCTestCase {
    func testAMethodsNameMayGoWithHelloExactlyWhenTheMethodMay() {
        for method in WireMethod.allCases {
            XCTAssertEqual(WireMethod.mayGoWithHello(named: method.rawValue), method.mayGoWithHello, method.rawValue)
        }
        XCTAssertEqual(WireMethod.allCases.filter(\.mayGoWithHello), [.status, .placeList])
    }

    func testANameThatIsNoMethodDoesNotGoWithHello() {
        for name in ["", "Status", "status ", "place", "place.list.x", "nonsense"] {
            XCTAssertFalse(WireMethod.mayGoWithHello(named: name), name)
        }
    }
}
