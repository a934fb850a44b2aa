import Foundation
import WireProtocol
import XCTest

/// `agenda.day` and `umctl agenda`: three Tampere plans on two days, the daemon's clock at
/// 07:00 on 2022-01-12.
final class AgendaTests: TampereDaemonTestCase {
    static let clockStart = "2022-01-12T07:00:00+02:00"

    override var daemonArguments: [String] { ["--clock-start", Self.clockStart] }

    func newPlan(_ from: String, _ to: String, mode: String, at: String) throws -> PlanDocument {
        try harness.json(["plan", "new", from, to, "--mode", mode, "--at", at]).decode(as: PlanDocument.self)
    }

    func agenda(_ day: String? = nil) throws -> AgendaDocument {
        try harness.json(["agenda"] + (day.map { ["--day", $0] } ?? [])).decode(as: AgendaDocument.self)
    }

    func testTheAgendaListsEachDaysPlansInOrderOfLeavingWithTheirFirstLegArrivalAndState() throws {
        let bus = try newPlan(Tampere.keskustori, Tampere.hervanta, mode: "transit", at: "2022-01-12T08:00")
        let walk = try newPlan(Tampere.keskustori, Tampere.tampereTalo, mode: "walk", at: "2022-01-12T07:30")
        let tomorrow = try newPlan(Tampere.railwayStation, Tampere.hervanta, mode: "transit", at: "2022-01-13T09:00")

        let today = try agenda()
        XCTAssertNil(today.day)
        XCTAssertEqual(today.plans.map(\.id), [walk.id, bus.id], "today's plans, the earlier leaving first")
        let walkEntry = today.plans[0], busEntry = today.plans[1]
        XCTAssertEqual(walkEntry.leave, walk.nodes.first?.time)
        XCTAssertEqual(walkEntry.arrival, walk.nodes.last?.time)
        XCTAssertEqual(walkEntry.day, "2022-01-12")
        XCTAssertTrue(walkEntry.firstLeg.hasPrefix("walk ") && walkEntry.firstLeg.contains(" min to "), walkEntry.firstLeg)
        XCTAssertEqual(busEntry.arrival, bus.nodes.last?.time)
        XCTAssertEqual(busEntry.title, bus.title)
        let ride = try XCTUnwrap(bus.segments.first?.leg?.rides.first, "the bus plan rides")
        XCTAssertTrue(busEntry.firstLeg.contains("\(ride.vehicle) \(ride.line) at \(String(ride.departure.dropFirst(11).prefix(5)))"),
                      "names the first ride and its time: \(busEntry.firstLeg) / \(ride)")
        XCTAssertEqual(today.plans.map(\.states), [["on_time"], ["on_time"]])
        XCTAssertEqual(try agenda("2022-01-12").plans.map(\.id), [walk.id, bus.id], "the same day asked by its date")

        let next = try agenda("2022-01-13")
        XCTAssertEqual(next.day, "2022-01-13")
        XCTAssertEqual(next.plans.map(\.id), [tomorrow.id])
        XCTAssertEqual(next.plans.first?.leave, tomorrow.nodes.first?.time)
        XCTAssertTrue(try agenda("2022-01-14").plans.isEmpty)

        let text = try harness.umctl(["agenda"])
        XCTAssertEqual(text.status, 0, text.stderr)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        let walkLine = try XCTUnwrap(lines.firstIndex { $0.contains("#\(walk.id) ") }, text.stdout)
        let busLine = try XCTUnwrap(lines.firstIndex { $0.contains("#\(bus.id) ") }, text.stdout)
        XCTAssertLessThan(walkLine, busLine)
        XCTAssertTrue(lines[busLine].contains("[on time]"), lines[busLine])
        XCTAssertEqual(lines[busLine + 1].trimmingCharacters(in: .whitespaces), busEntry.firstLeg)
        XCTAssertFalse(text.stdout.contains("#\(tomorrow.id) "), "tomorrow's plan is not today's")
    }

    func testAnAgendaDayThatIsNotADateIsRefusedNamingTheDay() throws {
        for bad in ["2022-13-01", "2022-02-30", "12.1.2022", "2022-1-12"] {
            let result = try harness.umctl(["agenda", "--day", bad])
            XCTAssertEqual(result.status, 1, "\(bad): \(result.stdout)")
            XCTAssertTrue(result.stderr.contains("day \"\(bad)\" must be a date YYYY-MM-DD"), result.stderr)
        }
    }
}
