import Foundation
import WireProtocol
import XCTest

/// Times are shown to the minute, so arrivals in the same shown minute are the same arrival (the
/// dominance rule, docs/planner.md). Session 58: `plan new Amuri "Kaleva A" --mode transit --at
/// 08:00` left 08:00 on a 663 m walk to bus 9, arriving 08:23:16, while bus 7 leaves 08:04 with
/// less walking and arrives 08:23:31: both read 08:23, so leaving four minutes later wins. Its
/// `plan alternatives` listed bus 7 and not the plan's own bus 9 (dominated as shown).
final class ShownMinuteArrivalsTests: SharedTampereDaemonTestCase {
    private static let trips: [(from: String, to: String, at: String)] = [("Amuri", "Kaleva A", "2022-01-12T08:00"),
                                                                          ("Keskustori", "Hervanta", "2022-01-12T10:40"),
                                                                          ("Lielahti", "TAYS", "2022-01-12T09:20")]

    private func minute(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 60).rounded(.down) * 60)
    }

    private func tripIDs(_ leg: JSONValue?) -> [String] {
        (leg?["rides"]?.arrayValue ?? []).compactMap { $0["trip_id"]?.stringValue }
    }

    /// No option of the segment leaves over a minute after the plan's ride and arrives in the
    /// same shown minute or before with no more transfers: the plan would leave then. And the
    /// plan's own ride is among its alternatives.
    func testAPlanLeavesLatestAmongRidesArrivingInItsShownMinute() throws {
        let harness = try harness
        var compared = 0
        for (from, to, at) in Self.trips {
            let created = try harness.json(["plan", "new", from, to, "--mode", "transit", "--at", at])
            let segment = try XCTUnwrap(transitSegments(created).first, "\(created)")
            let own = try XCTUnwrap(segments(created)[segment]["leg"], "\(created)")
            let leaves = try XCTUnwrap(date(own["departure"]), "\(own)")
            let arrives = try XCTUnwrap(date(own["arrival"]), "\(own)")
            let transfers = own["transfers"]?.numberValue ?? 0
            let listed = try harness.json(["plan", "alternatives", try id(created), String(segment + 1)])
            let options = listed["options"]?.arrayValue ?? []
            XCTAssertFalse(options.isEmpty, "\(from) → \(to): \(listed)")
            for option in options {
                guard let departure = date(option["departure"]), let arrival = date(option["arrival"]) else { continue }
                let beats = departure > leaves.addingTimeInterval(60) && minute(arrival) <= minute(arrives)
                    && (option["transfers"]?.numberValue ?? 0) <= transfers
                XCTAssertFalse(beats, "\(from) → \(to) at \(at): the plan leaves \(leaves) and arrives \(arrives) on "
                               + "\(tripIDs(own)), yet \(tripIDs(option)) leaves \(departure) and arrives \(arrival)")
            }
            XCTAssertTrue(options.contains { tripIDs($0) == tripIDs(own) },
                          "\(from) → \(to) at \(at): the plan's own ride \(tripIDs(own)) is listed: \(options.map(tripIDs))")
            compared += 1
        }
        XCTAssertEqual(compared, Self.trips.count)
    }

    /// `compare` asked again two minutes after its transit answer leaves never arrives in the
    /// answer's shown minute or before: that later journey was there to take. Arrive-by still
    /// arrives by its deadline to the second: by a time between the two arrivals of one shown
    /// minute, the later one is not taken.
    func testCompareLeavesLatestForTheShownMinuteAndArriveByKeepsItsSecond() throws {
        let harness = try harness
        for (from, to, at) in Self.trips {
            let answer = try XCTUnwrap(transit(try harness.json(["compare", from, to, "--at", at])), "\(from) → \(to)")
            let again = WireTime.string(from: answer.departure.addingTimeInterval(120), timeZone: Self.zone)
            if let later = transit(try harness.json(["compare", from, to, "--at", again])) {
                XCTAssertGreaterThan(minute(later.arrival), minute(answer.arrival),
                                     "\(from) → \(to) at \(at): \(answer), yet from \(again) \(later)")
            }
            // By a second before the answer arrives, the answer itself is not taken.
            let deadline = answer.arrival.addingTimeInterval(-1)
            let by = WireTime.string(from: deadline, timeZone: Self.zone)
            if let early = transit(try harness.json(["compare", from, to, "--arrive-by", by])) {
                XCTAssertLessThanOrEqual(early.arrival, deadline, "\(from) → \(to) by \(by): \(early)")
            }
        }
    }

    private static let zone = TimeZone(identifier: "Europe/Helsinki")!

    /// The transit option of a `compare` answer: its departure and arrival; nil without times.
    private func transit(_ compared: JSONValue) -> (departure: Date, arrival: Date)? {
        guard let option = compared["options"]?.arrayValue?.first(where: { $0["mode"] == .string("transit") }),
              let departure = date(option["departure"]), let arrival = date(option["arrival"]) else { return nil }
        return (departure, arrival)
    }
}
