@testable import umctl
import XCTest

/// `Render.clock`: the time of an ISO 8601 instant as the daemon wrote it, with its date when
/// asked; "--:--" for none.
final class RenderClockTests: XCTestCase {
    func testTheClockIsTheFiveCharactersAfterTheTAndTheDateTheTextBeforeIt() {
        XCTAssertEqual(Render.clock("2022-01-12T08:15:00+02:00"), "08:15")
        XCTAssertEqual(Render.clock("2022-01-12T08:15:00+02:00", withDate: true), "2022-01-12 08:15")
        XCTAssertEqual(Render.clock("2022-01-12T8"), "8")
        XCTAssertEqual(Render.clock("2022-01-12T", withDate: true), "2022-01-12 ")
        XCTAssertEqual(Render.clock("ä-päivä T10:30ö", withDate: true), "ä-päivä  10:30")
        XCTAssertEqual(Render.clock("2022-01-12 08:15"), "--:--")
        XCTAssertEqual(Render.clock(nil), "--:--")
    }
}
