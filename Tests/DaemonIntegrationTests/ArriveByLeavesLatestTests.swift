import Foundation
import WireProtocol
import XCTest

/// Issue 39 (trial finding F5): an arrive-by answer leaves as late as a journey the planner itself
/// shows arriving in time. `compare Hervanta Koskikeskus --at 09:32` leaves 09:32 and arrives
/// 09:57:27, yet `--arrive-by 09:57:40` left at 09:22: the arrive-by plan asked its ride to the
/// stop nearest Koskikeskus (Sorin aukio A, a tram stop), adopted the bus stop the answer walked
/// from (Sorin aukio F), and kept that answer's earlier bus although the walk from F is shorter.
final class ArriveByLeavesLatestTests: SharedTampereDaemonTestCase {
    private func transit(_ compared: JSONValue) throws -> (departure: Date, arrival: Date)? {
        guard let option = compared["options"]?.arrayValue?.first(where: { $0["mode"] == .string("transit") }),
              let departure = option["departure"]?.stringValue.flatMap(Self.date),
              let arrival = option["arrival"]?.stringValue.flatMap(Self.date) else { return nil }
        return (departure, arrival)
    }

    func testAnArriveByAnswerLeavesNoEarlierThanADepartAtAnswerArrivingInTime() throws {
        let harness = try harness
        let zone = try XCTUnwrap(TimeZone(identifier: "Europe/Helsinki"))
        let local = DateFormatter()
        local.timeZone = zone
        local.locale = Locale(identifier: "en_US_POSIX")
        local.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        var checked = 0
        for (from, to, at) in [("Hervanta", "Koskikeskus", "2022-01-12T09:32"), ("Keskustori", "TAYS", "2022-01-12T08:10"),
                               ("Pyynikintori", "Kaleva", "2022-01-12T08:10"), ("Koskikeskus", "Hervantakeskus", "2022-01-12T10:40"),
                               ("Tampere-talo", "Lielahti", "2022-01-12T07:57"), ("Rautatieasema", "Hervanta", "2022-01-12T08:40")] {
            guard let forward = try transit(try harness.json(["compare", from, to, "--at", at])) else { continue }
            // A deadline a few seconds after that arrival, as a user would type it, and the
            // arrival itself to the second (trial 48: 09:57:27 left 10 minutes early, a walk of
            // a fraction of a second over the whole second missing the bus).
            for slack in [13.0, 0] {
                let deadline = local.string(from: forward.arrival.addingTimeInterval(slack))
                let backward = try XCTUnwrap(try transit(try harness.json(["compare", from, to, "--arrive-by", deadline])),
                                             "\(from) → \(to) by \(deadline)")
                XCTAssertGreaterThanOrEqual(backward.departure, forward.departure.addingTimeInterval(-60),
                                            "\(from) → \(to): leaving \(forward.departure) arrives \(forward.arrival), but --arrive-by \(deadline) leaves \(backward.departure)")
                XCTAssertLessThanOrEqual(backward.arrival, forward.arrival.addingTimeInterval(slack), "\(from) → \(to) by \(deadline)")
            }
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 5)
    }

    static func date(_ text: String) -> Date? { ISO8601DateFormatter().date(from: text) }
}
