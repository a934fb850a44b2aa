import Foundation
import WireProtocol
import XCTest

/// A plan's generation survives a restart of the daemon (issue 27): it is stored with every
/// change, so `expected_generation` and a calendar's SEQUENCE mean the same before and after.
final class StoredGenerationTests: TampereDaemonTestCase {
    func walkPlan(_ client: WireClient) async throws -> PlanDocument {
        try await client.call(Endpoints.planNew, Params.PlanNew(from: Tampere.keskustori, to: Tampere.tampereTalo, mode: .walk,
                                                           at: Tampere.morning))
    }

    func show(_ id: Int64) throws -> PlanDocument {
        let client = try harness.client()
        return try runToEnd { try await client.call(Endpoints.planShow, Params.PlanShow(id: id)) }
    }

    /// Stops the daemon (SIGTERM, exit 0) and starts it again on the same data directory.
    func restart() throws {
        XCTAssertEqual(harness.stop(), 0, harness.log)
        try harness.start(extraArguments: daemonArguments)
    }

    func testAPlanChangedThreeTimesShowsTheSameGenerationAfterARestart() async throws {
        let client = try harness.client()
        let created = try await walkPlan(client)
        XCTAssertEqual(created.generation, 1, "a new plan starts at 1")
        let id = created.id
        // An edit, a refresh and an atomic batch of two edits: three changes, one generation each.
        _ = try await client.call(Params.PlanRename.endpoint, Params.PlanRename(id: id, title: "renamed"))
        _ = try await client.call(Params.PlanRefresh.endpoint, Params.PlanRefresh(id: id))
        let edited = try await client.call(Endpoints.planEdits, Params.PlanEdits(id: id, edits: [
            PlanEdit(Params.PlanPace(id: id, pace: .fast)), PlanEdit(Params.PlanRename(id: id, title: "batch")),
        ]))
        XCTAssertEqual(edited.generation, 4)

        try restart()
        let shown = try show(id)
        XCTAssertEqual(shown.generation, 4, "the generation is the stored one, not 0")
        XCTAssertEqual(shown.title, "batch")
        let next = try await harness.client().call(Params.PlanRename.endpoint, Params.PlanRename(id: id, title: "after"))
        XCTAssertEqual(next.generation, 5, "the next change goes on from the stored generation")
        try restart()
        XCTAssertEqual(try show(id).generation, 5)
    }

    func testAnExpectedGenerationReadBeforeARestartStillWorksAndAStaleOneGetsConflict() async throws {
        let client = try harness.client()
        let created = try await walkPlan(client)
        let id = created.id
        let read = try await client.call(Params.PlanRename.endpoint, Params.PlanRename(id: id, title: "read before"))
        try restart()

        let after = try harness.client()
        await XCTAssertThrowsErrorAsync(try await after.call(Params.PlanRename.endpoint, Params.PlanRename(
            id: id, title: "stale", expectedGeneration: created.generation))) { error in
            XCTAssertEqual((error as? WireError)?.code, "conflict", "\(error)")
        }
        await XCTAssertThrowsErrorAsync(try await after.call(Endpoints.planEdits, Params.PlanEdits(
            id: id, edits: [PlanEdit(Params.PlanRename(id: id, title: "stale batch"))], expectedGeneration: created.generation))) { error in
            XCTAssertEqual((error as? WireError)?.code, "conflict", "\(error)")
        }
        let unchanged = try show(id)
        XCTAssertEqual(unchanged.generation, read.generation, "a stale generation changed nothing")
        XCTAssertEqual(unchanged.title, "read before")

        let taken = try await after.call(Params.PlanRename.endpoint, Params.PlanRename(id: id, title: "current", expectedGeneration: read.generation))
        XCTAssertEqual(taken.title, "current", "the generation read before the restart is the plan's")
        XCTAssertEqual(taken.generation, read.generation + 1)
    }

    func testTheCalendarSequenceDoesNotGoBackAcrossARestart() async throws {
        let client = try harness.client()
        let id = try await walkPlan(client).id
        _ = try await client.call(Params.PlanPace.endpoint, Params.PlanPace(id: id, pace: .fast))
        _ = try await client.call(Params.PlanPace.endpoint, Params.PlanPace(id: id, pace: .slow))
        func sequences() throws -> [Int] {
            let client = try harness.client()
            let export = try runToEnd { try await client.call(Endpoints.planExport, Params.PlanExport(id: id, format: .ics)) }
            return try ICalendarReading(export.content).events.map(\.sequence)
        }
        let before = try sequences()
        XCTAssertFalse(before.isEmpty, "the walk has a leg with times")
        XCTAssertEqual(Set(before), [3])

        try restart()
        XCTAssertEqual(try sequences(), before, "SEQUENCE stays where it was, not back at 0")
        _ = try await harness.client().call(Params.PlanPace.endpoint, Params.PlanPace(id: id, pace: .normal))
        XCTAssertEqual(Set(try sequences()), [4], "and grows with the next change")
    }

    func testACopyStartsAtGenerationOneAndKeepsItsOwnAcrossARestart() async throws {
        let client = try harness.client()
        let original = try await walkPlan(client)
        _ = try await client.call(Params.PlanRename.endpoint, Params.PlanRename(id: original.id, title: "original"))
        let copy = try await client.call(Endpoints.planCopy, Params.PlanCopy(id: original.id))
        XCTAssertEqual(copy.generation, 1, "a copy is a new plan")
        _ = try await client.call(Params.PlanRename.endpoint, Params.PlanRename(id: copy.id, title: "copy"))
        try restart()
        XCTAssertEqual(try show(copy.id).generation, 2)
        XCTAssertEqual(try show(original.id).generation, 2)
    }
}
