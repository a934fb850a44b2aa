import Foundation
import WireProtocol
import XCTest

/// Reading a plan's vehicle trips, for the tests that a trip is never ridden in two segments.
extension XCTestCase {
    /// The trip IDs each segment rides, in segment order.
    func tripsBySegment(_ plan: JSONValue) -> [[String]] {
        segments(plan).map { segment in (segment["leg"]?["rides"]?.arrayValue ?? []).compactMap { $0["trip_id"]?.stringValue } }
    }

    /// The trips that two segments of the plan ride, each with the segments (1-based), none when
    /// every trip is one segment's.
    func tripsInTwoSegments(_ plan: JSONValue) -> [String: [Int]] {
        var segmentsOf: [String: [Int]] = [:]
        for (index, trips) in tripsBySegment(plan).enumerated() {
            for trip in Set(trips) { segmentsOf[trip, default: []].append(index + 1) }
        }
        return segmentsOf.filter { $0.value.count > 1 }
    }
}
