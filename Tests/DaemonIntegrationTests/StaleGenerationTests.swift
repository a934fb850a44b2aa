import Foundation
import Synchronization
import WireProtocol
import XCTest

/// Every plan edit honours `expected_generation` (issue 25 item 2): `plan.stay`, `plan.choose`,
/// `plan.move`, `plan.unlock` and `plan.rename` too. A stale generation changes nothing, and of
/// many clients sending the same generation exactly one wins.
final class StaleGenerationTests: SharedTampereDaemonTestCase {
    func plan(_ client: WireClient) async throws -> PlanDocument {
        try await client.call(Endpoints.planNew, Params.PlanNew(from: Tampere.keskustori, to: Tampere.hervanta, mode: .transit,
                                                           at: Tampere.morning, via: [Tampere.tampereTalo]))
    }

    func testTheFiveDayPlanEditsRefuseAStaleGenerationAndChangeNothing() async throws {
        let client = try harness.client()
        let created = try await plan(client)
        let id = created.id, stale = created.generation - 1
        let edits: [(String, () async throws -> PlanDocument)] = [
            ("plan.stay", { try await client.call(Params.PlanStay.endpoint, Params.PlanStay(id: id, node: 2, durationS: 600, expectedGeneration: stale)) }),
            ("plan.choose", { try await client.call(Params.PlanChoose.endpoint, Params.PlanChoose(id: id, segment: 1, option: 1, expectedGeneration: stale)) }),
            ("plan.move", { try await client.call(Params.PlanMove.endpoint, Params.PlanMove(id: id, node: 2, place: Tampere.ratina, expectedGeneration: stale)) }),
            ("plan.unlock", { try await client.call(Params.PlanUnlock.endpoint, Params.PlanUnlock(id: id, segment: 1, expectedGeneration: stale)) }),
            ("plan.rename", { try await client.call(Params.PlanRename.endpoint, Params.PlanRename(id: id, title: "stale", expectedGeneration: stale)) }),
        ]
        for (method, edit) in edits {
            await XCTAssertThrowsErrorAsync(try await edit(), method) { error in
                XCTAssertEqual((error as? WireError)?.code, "conflict", "\(method): \(error)")
                XCTAssertEqual((error as? WireError)?.data?["generation"]?.numberValue, Double(created.generation),
                               "\(method): the conflict names the plan's generation now")
            }
            let shown = try await client.call(Endpoints.planShow, Params.PlanShow(id: id))
            XCTAssertEqual(shown.generation, created.generation, "\(method) changed nothing")
            XCTAssertEqual(shown.title, created.title, method)
            XCTAssertEqual(shown.nodes.map(\.name), created.nodes.map(\.name), method)
        }
        // Inside plan.edits a generation goes beside the edits, never on one of them: refused, not ignored.
        let inBatch = Params.PlanEdits(id: id, edits: [PlanEdit(Params.PlanRename(id: id, title: "batch", expectedGeneration: stale))])
        await XCTAssertThrowsErrorAsync(try await client.call(Endpoints.planEdits, inBatch)) { error in
            XCTAssertEqual((error as? WireError)?.code, "invalid_params", "\(error)")
            XCTAssertTrue("\(error)".contains("has its own expected_generation"), "\(error)")
        }
        let renamed = try await client.call(Params.PlanRename.endpoint, Params.PlanRename(id: id, title: "current", expectedGeneration: created.generation))
        XCTAssertEqual(renamed.title, "current", "the current generation is taken")
    }

    func testOfSixteenClientsRenamingWithTheSameGenerationExactlyOneWins() async throws {
        let created = try await plan(try harness.client())
        let socket = try harness.socketPath
        let outcomes = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            let outcome: String
            do {
                _ = try runToEnd {
                    try await WireClient(socketPath: socket).call(Params.PlanRename.endpoint, Params.PlanRename(
                        id: created.id, title: "client \(index)", expectedGeneration: created.generation))
                }
                outcome = "ok"
            } catch let error as WireError {
                outcome = error.code
            } catch {
                outcome = "\(error)"
            }
            outcomes.withLock { $0.append(outcome) }
        }
        let all = outcomes.withLock { $0 }
        XCTAssertEqual(all.filter { $0 == "ok" }.count, 1, "\(all)")
        XCTAssertEqual(all.filter { $0 == "conflict" }.count, 15, "\(all)")
        XCTAssertEqual(try harness.umctl(["plan", "rename", String(created.id), "late", "--expect-generation", String(created.generation)]).status, 1,
                       "umctl passes --expect-generation")
    }

    /// A stale `--expect-generation` says what to do next: read the plan again, whose header
    /// shows the generation to give, alone and in an atomic batch alike.
    func testAStaleGenerationFromUmctlSaysToReadThePlanAgainWhichShowsItsGeneration() async throws {
        let created = try await plan(try harness.client())
        let id = String(created.id), stale = String(created.generation)
        XCTAssertEqual(try harness.umctl(["plan", "rename", id, "first"]).status, 0)
        let shown = try harness.umctl(["plan", "show", id])
        let current = try harness.json(["plan", "show", id])["generation"]?.numberValue.map { String(Int64($0)) }
        XCTAssertTrue(shown.stdout.contains(", generation \(try XCTUnwrap(current))\n"), "the header gives the generation: \(shown.stdout)")

        for words in [["plan", "rename", id, "late", "--expect-generation", stale],
                      ["batch", try harness.writeBatch(["plan rename \(id) late"]), "--atomic", "--expect-generation", stale]] {
            let refused = try harness.umctl(words)
            XCTAssertEqual(refused.status, 1, refused.stderr)
            XCTAssertTrue(refused.stderr.contains("nothing was changed"), refused.stderr)
            XCTAssertTrue(refused.stderr.contains("read the plan again (umctl plan show \(id) prints its generation)"), refused.stderr)
            XCTAssertTrue(refused.stderr.hasSuffix("and decide the edit from what it holds now\n"), refused.stderr)
        }
        XCTAssertEqual(try harness.json(["plan", "show", id])["title"]?.stringValue, "first", "nothing changed")
    }
}
