import Foundation
import TestSupport
import WireProtocol
import XCTest

/// Trial 51's findings on what `plan show` says: a price counts only rides taken. On Tampere,
/// through the real daemon and umctl.
final class WhatPlanShowSaysIsTrueTests: SharedTampereDaemonTestCase {
    /// The segment lines of `plan show` (each "seg N: …" line), by segment number.
    private func segmentLines(_ shown: String) -> [Int: String] {
        var lines: [Int: String] = [:]
        for line in shown.split(separator: "\n") {
            let words = line.trimmingCharacters(in: .whitespaces)
            guard words.hasPrefix("seg "), let colon = words.firstIndex(of: ":"),
                  let number = Int(words[words.index(words.startIndex, offsetBy: 4)..<colon].trimmingCharacters(in: .whitespaces))
            else { continue }
            lines[number] = words
        }
        return lines
    }

    /// Trial 51 finding 1: a plan whose pinned ride is missed (the start moved after it) showed
    /// 7.00 EUR with the proposal pending and 3.50 EUR once it was accepted: the missed 08:14 bus
    /// bought a ticket that ran out before the ride after the proposal. The traveller takes the
    /// proposal or nothing, never the missed ride: the plan costs what accepting it costs, and
    /// the total and the segment say the missed ride is priced as the one proposed.
    func testAPlanWithAMissedRideCostsWhatItsProposalCostsAndSaysSo() throws {
        let harness = try harness
        let (plan, missed) = try planWhoseFirstRideIsMissedByALaterStart(harness)
        let pinned = try XCTUnwrap(segments(missed).firstIndex { $0["missed_connection"] == .bool(true) }, "\(missed)")
        XCTAssertTrue((missed["pending"]?.arrayValue ?? []).contains { $0["segment"] == .number(Double(pinned + 1)) && $0["latest"] != nil },
                      "the missed pin has a ride proposed: \(missed["pending"] ?? .null)")
        let pendingPrice = try XCTUnwrap(missed["price"]?["amount"]?.numberValue, "\(missed)")
        XCTAssertTrue(missed["price_note"]?.stringValue?.contains("the missed ride on segment \(pinned + 1) priced as the one proposed") == true,
                      "the total says how the missed ride is priced: \(missed["price_note"] ?? .null)")
        XCTAssertTrue(segments(missed)[pinned]["leg"]?["price_note"]?.stringValue?.hasPrefix("the missed ride priced as the one proposed") == true,
                      "\(segments(missed)[pinned])")
        let total = try XCTUnwrap(try harness.umctl(["plan", "show", plan]).stdout.split(separator: "\n").first { $0.contains("total:") })
        XCTAssertTrue(total.contains("price \(String(format: "%.2f", pendingPrice)) EUR (the missed ride on segment \(pinned + 1) priced as the one proposed)"),
                      "\(total)")

        let accepted = try harness.json(["plan", "accept", plan, String(pinned + 1)])
        XCTAssertFalse(segments(accepted).contains { $0["missed_connection"] == .bool(true) }, "\(accepted)")
        XCTAssertEqual(pendingPrice, accepted["price"]?["amount"]?.numberValue,
                       "with the proposal pending the plan costs what accepting it costs: \(accepted["price"] ?? .null)")
        XCTAssertEqual(accepted["price_note"], .null, "nothing missed, nothing said: \(accepted)")
    }

    /// A missed ride with no ride proposed (nothing left that morning, the traveller can only
    /// walk) is not priced, and the total says so, not a fare for a bus nobody takes.
    func testAMissedRideWithNothingToCatchIsNotPricedAndTheTotalSaysSo() throws {
        let harness = try harness
        let (plan, pinned) = try planWhoseSecondPinIsMissed(harness)
        let missed = try XCTUnwrap(segments(pinned).indices.first {
            segments(pinned)[$0]["missed_connection"] == .bool(true) && segments(pinned)[$0]["mode"] == .string("transit")
        }, "\(pinned)")
        XCTAssertTrue((pinned["pending"]?.arrayValue ?? []).contains { $0["segment"] == .number(Double(missed + 1)) && $0["no_catchable_ride"] != nil },
                      "\(pinned["pending"] ?? .null)")
        XCTAssertEqual(segments(pinned)[missed]["leg"]?["price_note"]?.stringValue, "ride missed: not priced", "\(segments(pinned)[missed])")
        XCTAssertTrue(pinned["price_note"]?.stringValue?.contains("ride missed on segment \(missed + 1): not priced") == true,
                      "\(pinned["price_note"] ?? .null)")
        let shown = try harness.umctl(["plan", "show", plan]).stdout
        XCTAssertTrue(segmentLines(shown)[missed + 1]?.contains("ride missed: not priced") == true, shown)
    }
}
