import Foundation
import WireProtocol
import XCTest

/// A name holding a control character (a NUL first of all) is refused up front with
/// `invalid_params` naming the rule; nothing is stored and nothing is logged at error level.
final class NamesWithControlCharactersTests: XCTestCase {
    func testAPlaceNameStartingWithNULIsRefusedNamingTheRule() async throws {
        let harness = try startDaemon(assertingCleanExit: false)
        let client = try harness.client()
        await XCTAssertThrowsErrorAsync(try await client.call(Endpoints.placeSave, Params.PlaceSave(name: "\u{0}Home", place: "61.4978,23.761"))) {
            let error = $0 as? WireError
            XCTAssertEqual(error?.code, "invalid_params", "\($0)")
            XCTAssertEqual(error?.message.contains("U+0000 at character 1"), true, "\($0)")
            XCTAssertEqual(error?.message.contains("must not contain control characters"), true, "\($0)")
        }
        let places = try await client.call(Endpoints.placeList, Params.Empty()).places
        XCTAssertEqual(places, [])
        XCTAssertFalse(harness.log.contains("<3>"), harness.log)
    }

    func testRenamingAPlaceOrTitlingAPlanWithAControlCharacterIsRefused() async throws {
        let harness = try startDaemon(assertingCleanExit: false)
        let client = try harness.client()
        _ = try await client.call(Endpoints.placeSave, Params.PlaceSave(name: "Home", place: "61.4978,23.761"))
        await XCTAssertThrowsErrorAsync(try await client.call(Endpoints.placeRename, Params.PlaceRename(old: "Home", new: "Ho\u{1B}[2Jme"))) {
            XCTAssertEqual(($0 as? WireError)?.code, "invalid_params", "\($0)")
            XCTAssertEqual(($0 as? WireError)?.message.hasPrefix("new holds the control character U+001B at character 3"), true, "\($0)")
        }
        let names = try await client.call(Endpoints.placeList, Params.Empty()).places.map(\.name)
        XCTAssertEqual(names, ["Home"])
        await XCTAssertThrowsErrorAsync(try await client.call(Endpoints.planNew, Params.PlanNew(from: "Home", to: "61.5,23.8", title: "Day\nout"))) {
            XCTAssertEqual(($0 as? WireError)?.code, "invalid_params", "\($0)")
            XCTAssertEqual(($0 as? WireError)?.message.hasPrefix("title holds the control character U+000A"), true, "\($0)")
        }
    }

    func testRenamingAPlanWithAControlCharacterIsRefusedAndKeepsItsTitle() async throws {
        let harness = try startDaemon(regionsFrom: try TampereRegion.dataDirectory())
        let client = try harness.client()
        let plan = try await client.call(Endpoints.planNew, Params.PlanNew(from: Tampere.keskustori, to: Tampere.tampereTalo, mode: .walk,
                                                                      at: Tampere.morning, title: "Concert"))
        await XCTAssertThrowsErrorAsync(try await client.call(Params.PlanRename.endpoint, Params.PlanRename(id: plan.id, title: "Con\u{0}cert"))) {
            XCTAssertEqual(($0 as? WireError)?.code, "invalid_params", "\($0)")
            XCTAssertEqual(($0 as? WireError)?.message.hasPrefix("title holds the control character U+0000"), true, "\($0)")
        }
        let shown = try await client.call(Endpoints.planShow, Params.PlanShow(id: plan.id))
        XCTAssertEqual(shown.title, "Concert")
    }
}
