import Foundation
import TestSupport
import WireProtocol
import XCTest

/// Issue 39 (trial 54 finding T4): every minute a mode note shows is the one of what it sits
/// under or of what it names, and agrees with `compare` for the same stretch and moment. Trial
/// 54 read "walking (30 min) is no slower than transit (34 min door to door)" under a 19-min
/// ride (the whole trip's figures on one segment), and "transit (20 min door to door)" where
/// `compare` gave 17 min (counted from when the walk leaves, its wait unsaid). On Tampere,
/// through the real daemon and `umctl compare`.
final class ModeNoteFiguresMatchWhatTheyDescribeTests: SharedTampereDaemonTestCase {
    /// A plan of two places by transit whose walk end to end is no slower says so on its ride, of
    /// the whole way: the ride's segment is shorter than the whole plan door to door.
    func testAWholeWayNoteNamesTheWholeWayAndGivesItsFigures() throws {
        let harness = try harness
        let at = "2022-01-12T07:30"
        let plan = try id(try harness.json(["plan", "new", "Rautatieasema", "Keskustori", "--mode", "transit", "--at", at]))
        let noted = try notedSegments(ofPlan: plan, harness)
        let ride = try XCTUnwrap(noted.first { $0.note.contains("no slower") }, "walking end to end is no slower: \(noted.map(\.note))")
        XCTAssertTrue(ride.note.hasPrefix("walking the whole way ("), "a whole-way figure says so: \(ride.header) / \(ride.note)")
        try assertFiguresMatch(ofPlan: plan, leavingAt: at, harness)
    }

    /// A walk's note counts the ride from when the walk leaves, and says so: `compare` asked at
    /// that second arrives when the note says (Kaleva A → Tammelan puistokatu: 14 min by bus
    /// from its departure, 20 min door to door from the walk's).
    func testAWalksNoteSaysFromWhenItsRideIsCountedAsCompareTimesIt() throws {
        let harness = try harness
        let at = "2022-01-12T07:30"
        let plan = try id(try harness.json(["plan", "new", "Keskustori", "Hervanta", "Tampere-talo", "Kaleva A",
                                            "Tammelan puistokatu", "--mode", "transit", "--at", at]))
        let walks = try notedSegments(ofPlan: plan, harness).filter { $0.note.hasPrefix("walked: walking (") }
        XCTAssertFalse(walks.isEmpty, "a hop is walked because walking is no slower")
        for walk in walks {
            XCTAssertTrue(walk.note.contains(" the walk leaves, the wait for the ride included)"), "\(walk.header) / \(walk.note)")
        }
        try assertFiguresMatch(ofPlan: plan, leavingAt: at, harness)
    }

    /// The property: over day plans by transit, presets, inserted hops and the user's rides,
    /// every figure of every note is the one of what it describes.
    func testEveryNotesFiguresAreThoseOfWhatItDescribes() throws {
        let harness = try harness
        var plans: [(id: String, at: String?)] = []
        func new(_ places: [String], _ mode: String, at: String) throws -> String {
            let plan = try id(try harness.json(["plan", "new"] + places + ["--mode", mode, "--at", at]))
            plans.append((plan, at))
            return plan
        }
        _ = try new(["Keskustori", "Hervanta", "Tampere-talo", "Kaleva A", "Tammelan puistokatu"], "transit", at: "2022-01-12T07:30")
        _ = try new(["Tampere-talo", "Kaleva A"], "transit", at: "2022-01-12T07:48")
        _ = try new(["Rautatieasema", "Keskustori"], "transit", at: "2022-01-12T07:30")
        let preset = try new(["Keskustori", "Lielahti", "Rautatieasema", "Kaleva A"], "walk", at: "2022-01-12T07:45")
        _ = try harness.json(["plan", "preset", preset, "transit"])
        let chosen = try new(["Tammelan puistokatu", "Keskustori", "Tampere-talo"], "walk", at: "2022-01-12T07:40")
        _ = try harness.json(["plan", "mode", chosen, "1", "transit"])
        plans.append((try dayWithInsertedHops(harness).id, nil))

        var kinds: Set<String> = []
        for (plan, at) in plans {
            kinds.formUnion(try assertFiguresMatch(ofPlan: plan, leavingAt: at, harness))
        }
        XCTAssertTrue(kinds.isSuperset(of: ["walked: walking", "by transit", "walking (", "walking the whole way"]),
                      "every kind of note with figures was read: \(kinds)")
    }

    /// Each noted segment's figures against what they describe: its header's minutes, the walk
    /// `compare` shows, the ride `compare` finds from the same moment; `leavingAt` is the plan's
    /// departure (nil: a whole-way note is not expected). Returns the kinds of notes read.
    @discardableResult
    func assertFiguresMatch(ofPlan plan: String, leavingAt at: String?, _ harness: DaemonHarness,
                            file: StaticString = #filePath, line: UInt = #line) throws -> Set<String> {
        var kinds: Set<String> = []
        try assertRideNotesCoverOneGround(ofPlan: plan, harness, file: file, line: line)
        for segment in try notedSegments(ofPlan: plan, harness) {
            let figures = Self.figures(in: segment.note), said = "\(segment.header) / \(segment.note)"
            func walk() throws -> Int { try comparedWalk(from: segment.from, to: segment.to, at: segment.departure, harness) }
            if segment.note.hasPrefix("walked: walking (") {
                kinds.insert("walked: walking")
                XCTAssertEqual(figures.first, segment.duration, "the walk's own minutes: \(said)", file: file, line: line)
                if segment.note.contains("from when the walk leaves") {
                    let ride = try compared("transit", from: segment.from, to: segment.to, at: segment.departure, harness)
                    XCTAssertEqual(figures.dropFirst().first, Self.minutes(from: segment.departure, to: ride.arrival),
                                   "compare's ride from when the walk leaves: \(said)", file: file, line: line)
                } else {
                    XCTAssertTrue(segment.note.contains(" the walk leaves"), "says from when: \(said)", file: file, line: line)
                }
            } else if segment.note.hasPrefix("walked: the ride walks ") || segment.note.hasPrefix("walked: no transit route found (") {
                kinds.insert("walked: other")
                XCTAssertEqual(figures.last, segment.duration, "the walk's own minutes: \(said)", file: file, line: line)
            } else if segment.note.hasPrefix("by transit: "), !segment.note.hasPrefix("by transit: no walking route"),
                      !segment.note.contains(" door to door from its departure ") {
                kinds.insert("by transit")  // of a hop it names: `assertRideNotesCoverOneGround`, below
            } else if segment.note.hasPrefix("by transit: "), !segment.note.hasPrefix("by transit: no walking route") {
                kinds.insert("by transit")
                XCTAssertEqual(figures.first, segment.duration, "the ride's own minutes: \(said)", file: file, line: line)
                XCTAssertEqual(figures.dropFirst().first, try walk(), "compare's walk of the stretch: \(said)", file: file, line: line)
            } else if segment.note.hasPrefix("walking the whole way (") {
                kinds.insert("walking the whole way")
                let nodes = try harness.json(["plan", "show", plan])["nodes"]?.arrayValue ?? []
                let ends = try [nodes.first, nodes.last].map { node in
                    "\(try XCTUnwrap(node?["lat"]?.numberValue)),\(try XCTUnwrap(node?["lon"]?.numberValue))"
                }
                let start = try XCTUnwrap(at.flatMap { Self.instant($0 + ":00+02:00") }, "a whole-way note in a plan leaving at a time")
                let end = try XCTUnwrap(nodes.last?["time"]?.stringValue.flatMap(Self.instant))
                XCTAssertEqual(figures.first, try comparedWalk(from: ends[0], to: ends[1], at: start, harness),
                               "compare's walk of the whole way: \(said)", file: file, line: line)
                XCTAssertEqual(figures.dropFirst().first, Self.minutes(from: start, to: end),
                               "the whole plan door to door from its departure: \(said)", file: file, line: line)
            } else if segment.note.hasPrefix("walking (") {
                kinds.insert("walking (")
                XCTAssertEqual(figures.first, try walk(), "compare's walk of the stretch: \(said)", file: file, line: line)
                // Door to door less the wait it says it counts: the ride's own minutes.
                XCTAssertEqual(figures.count > 2 ? figures[1] - figures[2] : figures.dropFirst().first, segment.duration,
                               "the ride's minutes and its wait: \(said)", file: file, line: line)
            } else {
                XCTAssertTrue(figures.isEmpty, "a note this test cannot read has figures: \(said)", file: file, line: line)
            }
        }
        return kinds
    }
}
