import Foundation
@testable import umctl
import WireProtocol
import XCTest

/// The pending line of `plan show` names a proposal by its lines and departures (issue 39 item 2).
final class ProposalNamingTests: XCTestCase {
    /// Session 58: a missed pin's proposal riding bus 9 and then bus 2 read "bus 9 at 08:05
    /// instead of the missed bus 2 at 08:04", as if bus 9 went there alone. Each ride is named.
    func testAProposalOfSeveralRidesNamesEach() throws {
        let pending = try Self.pending(selected: [Self.ride("2", "08:04")], proposed: [Self.ride("9", "08:05"), Self.ride("2", "08:12")])
        XCTAssertEqual(Render.proposalNaming(pending, why: "the missed ", askedDay: "2022-01-12"),
                       "bus 9 at 08:05 instead of the missed bus 2 at 08:04; then bus 2 at 08:12")
        let one = try Self.pending(selected: [Self.ride("2", "08:04")], proposed: [Self.ride("2", "08:14")])
        XCTAssertEqual(Render.proposalNaming(one, why: "the missed ", askedDay: "2022-01-12"),
                       "bus 2 at 08:14 instead of the missed 08:04", "one ride on the user's line, as before")
    }

    /// Trial 60 F10: "selected bus 9 leaves 09:15, arrives 09:34 (19 min) (cancelled)" when bus 6,
    /// the second ride, was the one cancelled. The note names the failing ride unless it is the first.
    func testTheSelectedLegNamesItsCancelledRideWhenItIsNotTheFirst() throws {
        let second = try Self.pending(selected: [Self.ride("9", "09:15"), Self.ride("6", "09:25", cancelled: true)], proposed: [])
        XCTAssertEqual(Render.failingRideNote(second.selected), " (bus 6 cancelled)")
        let first = try Self.pending(selected: [Self.ride("9", "09:15", cancelled: true), Self.ride("6", "09:25")], proposed: [])
        XCTAssertEqual(Render.failingRideNote(first.selected), " (cancelled)", "the ride named just before it")
        let running = try Self.pending(selected: [Self.ride("9", "09:15")], proposed: [])
        XCTAssertEqual(Render.failingRideNote(running.selected), "")
    }

    static func ride(_ line: String, _ time: String, cancelled: Bool = false) -> String {
        #"{"line":"\#(line)","vehicle":"bus","headsign":null,"from":"A","to":"B","departure":"2022-01-12T\#(time):00+02:00","#
            + #""arrival":"2022-01-12T\#(time):30+02:00","trip_id":"T\#(line)_\#(time)","cancelled":\#(cancelled),"realtime":false,"alerts":[]}"#
    }

    static func pending(selected: [String], proposed: [String]) throws -> PendingDocument {
        func leg(_ rides: [String]) -> String {
            #"{"duration_s":600,"distance_m":1400,"departure":"2022-01-12T08:00:00+02:00","arrival":"2022-01-12T08:30:00+02:00","#
                + #""transfers":\#(max(0, rides.count - 1)),"rides":[\#(rides.joined(separator: ","))],"walks":[]}"#
        }
        let json = #"{"segment":4,"selected":\#(leg(selected)),"latest":\#(leg(proposed)),"no_catchable_ride":null}"#
        return try WireCodec.decoder.decode(PendingDocument.self, from: Data(json.utf8))
    }
}
