import Foundation
import Planner
import WireProtocol
import XCTest

/// Issue 39 item 4: an edit that puts a new place next to a stop the planner inferred for a ride
/// chooses that stop again from the new place, as a new plan would. Before, `plan insert …
/// Keskustori --after 1` into Pyynikki → Hervanta by bus kept the stop chosen for Pyynikki and
/// walked 1.6 km back west to it from Keskustori, where buses to Hervanta leave (now the ride
/// leaves from Keskustori itself: the place typed is at stop Keskustori D).
final class EditsChooseStopsAgainTests: SharedTampereDaemonTestCase {
    func coordinate(_ text: String) throws -> Coordinate {
        let parts = text.split(separator: ",").compactMap { Double($0) }
        return Coordinate(latitude: parts[0], longitude: parts[1])
    }

    func place(_ node: JSONValue) throws -> Coordinate {
        Coordinate(latitude: try XCTUnwrap(node["lat"]?.numberValue), longitude: try XCTUnwrap(node["lon"]?.numberValue))
    }

    /// The plan's nodes and modes in a line, for messages.
    func chain(_ plan: JSONValue) -> String {
        let names = nodes(plan).map { $0["name"]?.stringValue ?? "?" }, modes = segments(plan).map { $0["mode"]?.stringValue ?? "?" }
        return names.indices.map { $0 < modes.count ? "\(names[$0]) -\(modes[$0])-> " : names[$0] }.joined()
    }

    /// The ride after node `index` (a new place) boards near it: at a stop the planner inferred
    /// after it that is nearer to it than to `away` (the old neighbour), or, when the new place
    /// needs no stop of its own (it is one), from the place itself, walking no farther to the
    /// vehicle than to `away`.
    func checkRide(after index: Int, in plan: JSONValue, boardsNear near: Coordinate, notNear away: Coordinate,
                   file: StaticString = #filePath, line: UInt = #line) throws {
        let nodes = nodes(plan), segments = segments(plan)
        guard segments.indices.contains(index + 1) else { return XCTFail("no ride after node \(index + 1): \(chain(plan))", file: file, line: line) }
        if segments[index]["mode"]?.stringValue == "transit" {
            let access = segments[index]["leg"]?["walks"]?.arrayValue?.first { $0["kind"]?.stringValue == "access" }
            let walked = access?["distance_m"]?.numberValue ?? 0
            XCTAssertLessThan(walked, near.distance(to: away), "the ride from the new place walks \(walked) m: \(chain(plan))",
                              file: file, line: line)
            return
        }
        let stop = nodes[index + 1]
        XCTAssertEqual(stop["inferred"], .bool(true), "the stop is the planner's: \(chain(plan))", file: file, line: line)
        XCTAssertEqual(segments[index + 1]["mode"]?.stringValue, "transit", "\(chain(plan))", file: file, line: line)
        let stopPlace = try place(stop)
        XCTAssertLessThan(stopPlace.distance(to: near), stopPlace.distance(to: away),
                          "\(stop["name"]?.stringValue ?? "?") is chosen from the new neighbour: \(chain(plan))", file: file, line: line)
    }

    func testAnInsertChoosesTheBoardingStopAgainFromTheInsertedPlace() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", Tampere.pyynikki, Tampere.hervanta, "--mode", "transit", "--at", Tampere.morning])
        let pyynikki = try coordinate(Tampere.pyynikki), keskustori = try coordinate(Tampere.keskustori)
        try checkRide(after: 0, in: created, boardsNear: pyynikki, notNear: keskustori)
        let inserted = try harness.json(["plan", "insert", try id(created), Tampere.keskustori, "--after", "1", "--mode", "walk"])
        try checkRide(after: 1, in: inserted, boardsNear: keskustori, notNear: pyynikki)
    }

    func testAMoveChoosesTheBoardingStopAgainFromTheNewPlace() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", Tampere.pyynikki, Tampere.hervanta, "--mode", "transit", "--at", Tampere.morning])
        let pyynikki = try coordinate(Tampere.pyynikki), station = try coordinate(Tampere.railwayStation)
        let moved = try harness.json(["plan", "move", try id(created), "1", Tampere.railwayStation])
        try checkRide(after: 0, in: moved, boardsNear: station, notNear: pyynikki)
    }

    /// Issue 39 item 1's leftover: moving a ride's own end (Keskustori, a stop itself: the ride
    /// leaves from it) onto the doorstep of the place the ride's inferred stop serves (45 m from
    /// the Hervanta address) gave a ride to that stop and a walk back. The move now gives the plan
    /// the stop left out, one segment from the doorstep to the address (what the engine answers for
    /// it is the engine's: it may still ride, noting that walking is no slower).
    func testMovingARidesOwnEndNextToThePlaceItsStopServesGivesNoRideThereAndWalkBack() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "transit", "--at", Tampere.morning])
        XCTAssertEqual(segments(created).first?["mode"], .string("transit"), "the ride leaves from Keskustori itself: \(chain(created))")
        XCTAssertEqual(nodes(created).dropFirst().first?["inferred"], .bool(true), "a stop inferred for Hervanta: \(chain(created))")
        let doorstep = "61.45060,23.85100"
        let moved = try harness.json(["plan", "move", try id(created), "1", doorstep])
        XCTAssertEqual(nodes(moved).count, 2, "no ride to the stop and walk back: \(chain(moved))")
        XCTAssertEqual(nodes(moved).last?["lat"], nodes(created).last?["lat"], "one segment to the address: \(chain(moved))")
    }

    /// Issue 39 item 1's leftover: a pinned ride's stop chosen again from an inserted place is
    /// never left out (the pin needs its stop), so `plan insert … Keskustori --after 1` into
    /// Pyynikki → Hervanta with the ride pinned keeps the stop chosen for Pyynikki, 1.6 km back
    /// west (Keskustori is a stop itself: no other stop takes its place). After `plan unpin` that
    /// stop was kept still; it is now chosen again from Keskustori.
    func testAStopKeptByAPinIsChosenAgainFromTheNewNeighbourWhenUnpinned() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", Tampere.pyynikki, Tampere.hervanta, "--mode", "transit", "--at", Tampere.morning])
        let ride = try XCTUnwrap(segments(created).firstIndex { $0["mode"] == .string("transit") }, "\(chain(created))") + 1
        let departure = try XCTUnwrap(segments(created)[ride - 1]["leg"]?["departure"]?.stringValue, "\(chain(created))")
        let pinned = try harness.json(["plan", "pin", try id(created), String(ride), String(departure.dropFirst(11).prefix(5))])
        XCTAssertEqual(pinned["pinned_segment"], .number(Double(ride)), "\(chain(pinned))")
        let pyynikki = try coordinate(Tampere.pyynikki), keskustori = try coordinate(Tampere.keskustori)
        let inserted = try harness.json(["plan", "insert", try id(created), Tampere.keskustori, "--after", "1", "--mode", "walk"])
        let kept = try place(nodes(inserted)[2])
        XCTAssertLessThan(kept.distance(to: pyynikki), kept.distance(to: keskustori),
                          "the pinned ride keeps the stop chosen for Pyynikki: \(chain(inserted))")
        let unpinned = try harness.json(["plan", "unpin", try id(created)])
        try checkRide(after: 1, in: unpinned, boardsNear: keskustori, notNear: pyynikki)
    }
}
