import Foundation
import WireProtocol
import XCTest

/// Issue 39 item 3: a preset on a plan whose ride the user chose keeps the walks to and from
/// the ride's stops as walks. Made rides, one trip would be split across segments (and paid
/// twice); made drives, the car would be left at the stop and driven again after the bus.
final class PresetsKeepAccessWalksTests: SharedTampereDaemonTestCase {
    func trips(_ segment: JSONValue) -> [String] {
        (segment["leg"]?["rides"]?.arrayValue ?? []).compactMap { $0["trip_id"]?.stringValue }
    }

    func modes(_ plan: JSONValue) -> [String] { segments(plan).compactMap { $0["mode"]?.stringValue } }

    /// The rules every preset answer keeps: no trip in two segments, no drive after a ride.
    func assertTravellable(_ plan: JSONValue, _ context: String, file: StaticString = #filePath, line: UInt = #line) {
        var seen: Set<String> = []
        for segment in segments(plan) {
            for trip in Set(trips(segment)) {
                XCTAssertFalse(seen.contains(trip), "\(context): trip \(trip) in two segments: \(modes(plan))", file: file, line: line)
                seen.insert(trip)
            }
        }
        let modes = modes(plan)
        if let ride = modes.firstIndex(of: "transit") {
            XCTAssertFalse(modes[ride...].contains("car"), "\(context): a drive after the ride: \(modes)", file: file, line: line)
        }
    }

    func testEveryPresetOnAPlanWithAChosenRideKeepsTheWalksToAndFromItsStops() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "transit", "--at", Tampere.morning])
        let id = try id(created)
        let ride = try XCTUnwrap(transitSegments(created).first, "\(created)")
        let built = modes(created)  // Keskustori is itself a stop: ride, walk on
        XCTAssertTrue(built.contains("walk") && built.contains("transit"), "\(created)")
        XCTAssertEqual(try harness.umctl(["plan", "choose", id, String(ride + 1), "1"]).status, 0)
        let chosen = try harness.json(["plan", "show", id])
        let chosenTrips = trips(segments(chosen)[ride])
        XCTAssertFalse(chosenTrips.isEmpty, "\(chosen)")

        for preset in ["transit", "car", "fastest", "transit"] {
            let applied = try harness.json(["plan", "preset", id, preset])
            XCTAssertEqual(modes(applied), built, "preset \(preset) keeps the walks as walks: \(applied)")
            XCTAssertEqual(trips(segments(applied)[ride]), chosenTrips, "preset \(preset) keeps the chosen ride")
            assertTravellable(applied, "preset \(preset)")
        }
    }

    func testADrivePresetAfterAChosenRideNeverDrivesAfterIt() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, Tampere.ratina,
                                        "--mode", "transit", "--at", Tampere.morning])
        let id = try id(created)
        let ride = try XCTUnwrap(transitSegments(created).first, "\(created)")
        XCTAssertEqual(try harness.umctl(["plan", "choose", id, String(ride + 1), "1"]).status, 0)
        for preset in ["car", "fastest"] {
            let applied = try harness.json(["plan", "preset", id, preset])
            XCTAssertEqual(modes(applied)[ride], "transit", "the chosen ride stays: \(modes(applied))")
            assertTravellable(applied, "preset \(preset) on Keskustori → Hervanta (ride chosen) → Ratina")
        }
    }

    /// Trial 58 F7: a day Hämeenkatu 9 → TAYS A → Hervanta → Pyynikintori by transit with bus 38
    /// from TAYS A pinned: `plan preset ID fastest` drove Hämeenkatu 9 → TAYS A and left the car
    /// there for the rest of the day (no drive after the bus). A drive the user did not choose is
    /// proposed only where the car is driven again or the day ends driving.
    func testFastestNeverDrivesToWhereTheCarIsLeftForTheRestOfTheDay() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Hämeenkatu 9", "TAYS A", "Hervanta", "Pyynikintori", "--mode", "transit",
                                        "--at", "2022-01-12T07:30"])
        let id = try id(created)
        let stop = try XCTUnwrap(nodes(created).firstIndex { $0["name"] == .string("TAYS A") }, "\(created)")
        _ = try harness.json(["plan", "pin", id, String(stop + 1), "--line", "38"])
        let applied = try harness.json(["plan", "preset", id, "fastest"])
        let modes = modes(applied)
        XCTAssertEqual(segments(applied)[try XCTUnwrap(nodes(applied).firstIndex { $0["name"] == .string("TAYS A") })]["mode"],
                       .string("transit"), "the pinned bus stays: \(modes)")
        if let lastDrive = modes.lastIndex(of: "car") {
            XCTAssertEqual(lastDrive, modes.count - 1, "no car left behind for the rest of the day: \(modes)")
        }
        assertTravellable(applied, "preset fastest on the day with bus 38 pinned")
    }

    func testSettingTheWalkToTheStopToTransitRidesFromThereInOneSegment() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", Tampere.pyynikki, Tampere.hervanta, "--mode", "transit", "--at", Tampere.morning])
        XCTAssertEqual(modes(created), ["walk", "transit", "walk"], "a walk to the stop first: \(created)")
        let changed = try harness.json(["plan", "mode", try id(created), "1", "transit"])
        XCTAssertEqual(modes(changed), ["transit", "walk"], "one ride from the origin, not two on one trip: \(changed)")
        XCTAssertEqual(segments(changed).first?["locked"], .bool(true))
        assertTravellable(changed, "plan mode 1 transit")
    }
}
