import Foundation
import WireProtocol
import XCTest

/// A plan stays in one region whichever way it is edited (issue 27): `plan.move` and
/// `plan.insert` inside `plan.edits` are refused like the single methods, naming the edit and
/// the place's region, and nothing of the batch is stored.
final class OneRegionEditsTests: TampereDaemonTestCase {
    private static let tokyo = SmallRegion(name: "tokyo", latitude: 35.6812, longitude: 139.7671)

    override func setUpWithError() throws {
        try super.setUpWithError()
        _ = try harness.importSmallRegions([(Self.tokyo, .init(zone: "Asia/Tokyo", fromStop: "Kanda Gate", toStop: "Marunouchi Square",
                                                               departure: "10:32:00", minutes: 8, dates: ("20260801", "20260831")))])
    }

    func testAMoveOrAnInsertIntoAnotherRegionInsidePlanEditsIsRefusedNamingTheEditAndNothingIsStored() async throws {
        let client = try harness.client()
        let created = try await client.call(Endpoints.planNew, Params.PlanNew(from: "Keskustori", to: "Hervanta", mode: .walk,
                                                                         at: Tampere.morning, via: ["Ratina"]))
        let batches: [(PlanEdit, String)] = [
            (PlanEdit(Params.PlanMove(id: created.id, node: 2, place: "Kanda Gate")), "edit 2 (plan.move)"),
            (PlanEdit(Params.PlanInsert(id: created.id, after: 1, place: "Kanda Gate")), "edit 2 (plan.insert)"),
        ]
        for (edit, name) in batches {
            let batch = Params.PlanEdits(id: created.id, edits: [
                PlanEdit(Params.PlanStay(id: created.id, node: 2, durationS: 600)), edit,
            ])
            await XCTAssertThrowsErrorAsync(try await client.call(Endpoints.planEdits, batch), name) { error in
                let message = "\(error)"
                XCTAssertTrue(message.contains(name), message)
                XCTAssertTrue(message.contains("Kanda Gate is in region tokyo"), message)
            }
            let shown = try await client.call(Endpoints.planShow, Params.PlanShow(id: created.id))
            XCTAssertEqual(shown.generation, created.generation, "\(name): nothing stored")
            XCTAssertEqual(shown.nodes.map(\.name), created.nodes.map(\.name), name)
            XCTAssertEqual(shown.nodes.map(\.stayS), created.nodes.map(\.stayS), "\(name): the stay before it is not kept either")
        }
    }
}
