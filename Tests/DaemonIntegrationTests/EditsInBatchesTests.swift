import Foundation
import WireProtocol
import XCTest

/// An edit inside `plan.edits` does what the same edit alone does: a swap turns the same titles
/// around, and `plan.choose` takes the option the user saw, named by its departure and trips,
/// even when earlier edits of the batch moved the segment's time.
final class EditsInBatchesTests: SharedTampereDaemonTestCase {
    func testATypedTitleFromEndToEndIsTurnedAroundBySwapAloneAndInsideEditsAlike() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", Tampere.keskustori, Tampere.tampereTalo, Tampere.ratina,
                                        "--mode", "walk", "--at", Tampere.morning])
        let id = try id(created)
        let names = nodes(created).compactMap { $0["name"]?.stringValue }
        let first = try XCTUnwrap(names.first), last = try XCTUnwrap(names.last)
        XCTAssertEqual(try harness.json(["plan", "rename", id, "\(first) → \(last)"])["title"]?.stringValue, "\(first) → \(last)")
        XCTAssertEqual(try harness.json(["plan", "swap", id])["title"]?.stringValue, "\(last) → \(first)", "plan.swap")
        let batch = try harness.umctl(["batch", try harness.writeBatch(["plan swap \(id)"]), "--atomic", "--json"])
        XCTAssertEqual(batch.status, 0, batch.stderr)
        let swapped = try WireCodec.decoder.decode(JSONValue.self, from: Data(batch.stdout.utf8))
        XCTAssertEqual(swapped["title"]?.stringValue, "\(first) → \(last)", "the same swap in plan.edits")
    }

    func testARebuildThatDropsTheStopsGivesAGeneratedTitleOfItsTwoEndsAloneAndInsideEditsAlike() throws {
        let harness = try harness
        var titles: [String] = []
        for atomically in [false, true] {
            let created = try harness.json(["plan", "new", Tampere.keskustori, Tampere.tampereTalo, Tampere.ratina,
                                            "--mode", "walk", "--at", Tampere.morning])
            let id = try id(created)
            XCTAssertEqual(nodes(created).count, 3, "\(created)")
            let rebuilt: JSONValue
            if atomically {
                let batch = try harness.umctl(["batch", try harness.writeBatch(["plan rebuild \(id) --preset walk"]), "--atomic", "--json"])
                XCTAssertEqual(batch.status, 0, batch.stderr)
                rebuilt = try WireCodec.decoder.decode(JSONValue.self, from: Data(batch.stdout.utf8))
            } else {
                rebuilt = try harness.json(["plan", "rebuild", id, "--preset", "walk"])
            }
            let names = nodes(rebuilt).compactMap { $0["name"]?.stringValue }
            XCTAssertEqual(names.count, 2, "the stop in between went: \(rebuilt)")
            titles.append(try XCTUnwrap(rebuilt["title"]?.stringValue, "\(rebuilt)"))
            XCTAssertEqual(titles.last, "\(names[0]) → \(names[1])", atomically ? "inside plan.edits" : "plan.rebuild alone")
        }
        XCTAssertEqual(titles[0], titles[1])
    }

    /// Keskustori → Hervanta by transit at 08:00, its transit segment, and option 3 of its list.
    func listedOption(_ client: WireClient) async throws -> (id: Int64, segment: Int, option: LegDocument) {
        let created = try await client.call(Endpoints.planNew, Params.PlanNew(from: Tampere.keskustori, to: Tampere.hervanta, mode: .transit,
                                                                       at: Tampere.morning))
        let segment = try XCTUnwrap(created.segments.firstIndex { $0.mode == .transit }, "\(created)") + 1
        let listed = try await client.call(Endpoints.planAlternatives, Params.PlanAlternatives(id: created.id, segment: segment, count: 5))
        XCTAssertGreaterThanOrEqual(listed.options.count, 3, "\(listed)")
        return (created.id, segment, listed.options[2])
    }

    func testChooseInsideEditsTakesTheOptionTheUserSawByItsDepartureAndTrips() async throws {
        let client = try harness.client()
        let (id, segment, option) = try await listedOption(client)
        let departure = try XCTUnwrap(option.departure)
        let trips = option.rides.compactMap(\.tripID)
        XCTAssertFalse(trips.isEmpty)
        // Five minutes at the origin first: the batch's working copy lists later departures,
        // so its option 3 is another bus than the one the user saw (which is still caught).
        let chosen = try await client.call(Endpoints.planEdits, Params.PlanEdits(id: id, edits: [
            PlanEdit(Params.PlanStay(id: id, node: 1, durationS: 300)),
            PlanEdit(Params.PlanChoose(id: id, segment: segment, option: 3, count: 5, departure: departure, tripIds: trips)),
        ]))
        let leg = try XCTUnwrap(chosen.segments[segment - 1].leg, "\(chosen)")
        XCTAssertEqual(leg.rides.compactMap(\.tripID), trips, "the option that was listed, not option 3 of another list")
        XCTAssertEqual(leg.rides.map(\.departure), option.rides.map(\.departure), "its rides at their listed times")
        XCTAssertEqual(chosen.pinnedSegments, [segment])
    }

    func testChooseOfAnOptionThatIsNoLongerOfferedChangesNothing() async throws {
        let client = try harness.client()
        let (id, segment, _) = try await listedOption(client)
        let before = try await client.call(Endpoints.planShow, Params.PlanShow(id: id))
        await XCTAssertThrowsErrorAsync(try await client.call(Endpoints.planEdits, Params.PlanEdits(id: id, edits: [
            PlanEdit(Params.PlanChoose(id: id, segment: segment, option: 3, count: 5, departure: "2022-01-12T08:07:00+02:00",
                                      tripIds: ["no-such-trip"])),
        ]))) { error in
            XCTAssertEqual((error as? WireError)?.code, "conflict", "\(error)")
            XCTAssertTrue("\(error)".contains("no-such-trip"), "names what was asked: \(error)")
        }
        let after = try await client.call(Endpoints.planShow, Params.PlanShow(id: id))
        XCTAssertEqual(after.generation, before.generation, "nothing changed")
    }
}
