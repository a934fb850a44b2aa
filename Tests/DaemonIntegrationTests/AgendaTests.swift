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
        let ride = try XCTUnwrap(bus.segments.lazy.compactMap { $0.leg?.rides.first }.first, "the bus plan rides")
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
        for bad in ["2022-13-01", "2022-02-30", "12.1.2022", "2022-1-12", "someday"] {
            let result = try harness.umctl(["agenda", "--day", bad])
            XCTAssertEqual(result.status, 1, "\(bad): \(result.stdout)")
            XCTAssertTrue(result.stderr.contains("day \"\(bad)\" must be a date YYYY-MM-DD, today, tomorrow or yesterday"), result.stderr)
        }
    }

    /// Issue 41: `agenda --day tomorrow` was refused while `history --since` takes such words.
    func testTheAgendaDayMayBeAskedAsTodayTomorrowOrYesterday() throws {
        let today = try newPlan(Tampere.keskustori, Tampere.tampereTalo, mode: "walk", at: "2022-01-12T09:00")
        let tomorrow = try newPlan(Tampere.keskustori, Tampere.tampereTalo, mode: "walk", at: "2022-01-13T09:00")
        let yesterday = try newPlan(Tampere.keskustori, Tampere.tampereTalo, mode: "walk", at: "2022-01-11T09:00")
        XCTAssertEqual(try agenda("today").plans.map(\.id), [today.id])
        XCTAssertEqual(try agenda("tomorrow").plans.map(\.id), [tomorrow.id])
        XCTAssertEqual(try agenda("yesterday").plans.map(\.id), [yesterday.id])
        let text = try harness.umctl(["agenda", "--day", "tomorrow"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.hasPrefix("agenda for tomorrow"), text.stdout)
        XCTAssertTrue(text.stdout.contains("#\(tomorrow.id) "), text.stdout)
    }

    /// Issue 41: a plan whose second segment has no route showed "10:32–--:--  [on time]".
    func testAPlanWithASegmentWithoutARouteIsIncompleteWithNoArrival() throws {
        // 2023 is past the Tampere feed's dates: the walk has a route, the transit segment none.
        let plan = try harness.json(["plan", "new", Tampere.keskustori, Tampere.tampereTalo, Tampere.hervanta, "--mode", "walk",
                                     "--at", "2023-06-01T10:00"])
        let changed = try harness.umctl(["plan", "mode", try id(plan), "2", "transit"])
        XCTAssertEqual(changed.status, 4, "stored, but segment 2 has no route: \(changed.stderr)")
        XCTAssertEqual(segments(try harness.json(["plan", "show", try id(plan)]))[1]["leg"], .null, "no transit in 2023")
        let entry = try XCTUnwrap(try agenda("2023-06-01").plans.first)
        XCTAssertEqual(entry.states.first, "incomplete")
        XCTAssertEqual(entry.stateWords.first, "incomplete: no route on segment 2")
        XCTAssertFalse(entry.states.contains("on_time"))
        XCTAssertNil(entry.arrival, "no arrival is known")
        let text = try harness.umctl(["agenda", "--day", "2023-06-01"]).stdout
        XCTAssertTrue(text.contains("[incomplete: no route on segment 2"), text)
        XCTAssertFalse(text.contains("on time"), text)
    }

    /// Issue 41: a plan arriving after midnight showed "23:56–00:11" without "+1d", and a long
    /// walk as "walk 107 min".
    func testAPlanArrivingAfterMidnightSaysPlusOneDayAndALongWalkItsHours() throws {
        let plan = try newPlan(Tampere.pyynikki, Tampere.hervanta, mode: "walk", at: "2022-01-12T23:30")
        let walk = try XCTUnwrap(plan.segments.first?.leg?.durationS)
        XCTAssertGreaterThan(walk, 3600, "a walk of over an hour")
        let entry = try XCTUnwrap(try agenda("2022-01-12").plans.first { $0.id == plan.id })
        XCTAssertEqual(entry.arrivalDays, 1)
        // Beside its clock times, the walk's minutes are their shown difference (as `plan show` says them).
        let leg = try XCTUnwrap(plan.segments.first?.leg)
        let shown = try [leg.departure, leg.arrival].map { text -> Int in
            let instant = try XCTUnwrap(text.flatMap { ISO8601DateFormatter().date(from: $0) }, "the walk's times on the wire")
            return Int((instant.timeIntervalSince1970 / 60).rounded(.down))
        }
        let minutes = shown[1] - shown[0]
        XCTAssertEqual(entry.firstLeg, "walk \(minutes / 60) h \(String(format: "%02d", minutes % 60)) min to \(plan.nodes.last?.name ?? "")")
        let text = try harness.umctl(["agenda", "--day", "2022-01-12"]).stdout
        XCTAssertTrue(text.contains(" +1d  #\(plan.id) "), text)
    }

    /// Issue 41: the first leg read "walk 2 min to Keskustori B" without the ride it walks to.
    func testAFirstLegThatWalksToTheFirstRideNamesThatRide() throws {
        let plan = try harness.json(["plan", "new", Tampere.keskustori, Tampere.railwayStation, Tampere.hervanta, "--mode", "transit",
                                     "--at", "2022-01-12T08:00"])
        let walked = try harness.json(["plan", "mode", try id(plan), "1", "walk"])
        XCTAssertEqual(segments(walked).first?["leg"]?["rides"], .array([]), "the first segment walks")
        let rideSegment = try XCTUnwrap(segments(walked).firstIndex { $0["leg"]?["rides"]?.arrayValue?.isEmpty == false }, "\(walked)")
        let ride = try XCTUnwrap(segments(walked)[rideSegment]["leg"]?["rides"]?.arrayValue?.first)
        let entry = try XCTUnwrap(try agenda("2022-01-12").plans.first)
        let clock = String(try XCTUnwrap(ride["departure"]?.stringValue).dropFirst(11).prefix(5))
        let board = "\(ride["vehicle"]?.stringValue ?? "") \(ride["line"]?.stringValue ?? "") at \(clock)"
        XCTAssertTrue(entry.firstLeg.hasPrefix("walk "), entry.firstLeg)
        // Review of issue 41: "then" only when the ride follows the first walk; else its segment is named.
        XCTAssertTrue(entry.firstLeg.hasSuffix(rideSegment == 1 ? ", then \(board)" : ", first ride \(board) (segment \(rideSegment + 1))"),
                      entry.firstLeg)
    }
}
