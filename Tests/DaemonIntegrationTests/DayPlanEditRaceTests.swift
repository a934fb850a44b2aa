import Foundation
import Synchronization
import WireProtocol
import XCTest

/// `plan.move` and `plan.stay` take the one edit path (issue 27): racing another edit of the same
/// plan with the same `expected_generation`, exactly one of the two is kept, whole, and the
/// other is refused with `conflict` and leaves no trace.
final class DayPlanEditRaceTests: SharedTampereDaemonTestCase {
    private func plan(_ client: WireClient) async throws -> PlanDocument {
        try await client.call(Endpoints.planNew, Params.PlanNew(from: Tampere.keskustori, to: Tampere.hervanta, mode: .walk,
                                                           at: Tampere.morning, via: [Tampere.tampereTalo]))
    }

    /// Sends both edits at once, each from a client of its own; their outcomes in the same order.
    private func race(_ edits: [@Sendable (WireClient) async throws -> PlanDocument]) throws -> [Result<PlanDocument, Error>] {
        let socket = try harness.socketPath
        let outcomes = Mutex<[Int: Result<PlanDocument, Error>]>([:])
        DispatchQueue.concurrentPerform(iterations: edits.count) { index in
            let outcome = Result { try runToEnd { try await edits[index](try WireClient(socketPath: socket)) } }
            outcomes.withLock { $0[index] = outcome }
        }
        return outcomes.withLock { all in edits.indices.compactMap { all[$0] } }
    }

    /// The race of `edit` and a rename, both expecting `created`'s generation: one wins, one gets
    /// `conflict`, and the plan is exactly the winner's answer.
    private func assertOneWins(_ edit: @escaping @Sendable (WireClient) async throws -> PlanDocument, against created: PlanDocument,
                               loserLeftNoTrace: (PlanDocument, _ moveOrStayWon: Bool) -> Void,
                               file: StaticString = #filePath, line: UInt = #line) async throws {
        let rename: @Sendable (WireClient) async throws -> PlanDocument = { client in
            try await client.call(Params.PlanRename.endpoint, Params.PlanRename(id: created.id, title: "raced", expectedGeneration: created.generation))
        }
        let outcomes = try race([edit, rename])
        XCTAssertEqual(outcomes.count, 2, file: file, line: line)
        let winners = outcomes.compactMap { try? $0.get() }
        let conflicts = outcomes.filter { if case .failure(let error) = $0 { (error as? WireError)?.code == "conflict" } else { false } }
        XCTAssertEqual(winners.count, 1, "\(outcomes)", file: file, line: line)
        XCTAssertEqual(conflicts.count, 1, "\(outcomes)", file: file, line: line)
        let winner = try XCTUnwrap(winners.first, file: file, line: line)
        let shown = try await harness.client().call(Endpoints.planShow, Params.PlanShow(id: created.id))
        XCTAssertEqual(shown.generation, created.generation + 1, "one edit, one generation", file: file, line: line)
        XCTAssertEqual(shown.generation, winner.generation, file: file, line: line)
        XCTAssertEqual(shown.title, winner.title, "the winner is kept whole", file: file, line: line)
        XCTAssertEqual(shown.nodes.map(\.name), winner.nodes.map(\.name), "the winner is kept whole", file: file, line: line)
        XCTAssertEqual(shown.nodes.map(\.stayS), winner.nodes.map(\.stayS), "the winner is kept whole", file: file, line: line)
        loserLeftNoTrace(shown, (try? outcomes[0].get()) != nil)
    }

    func testAMoveRacingARenameOfTheSameGenerationKeepsExactlyOneAndTheOtherGetsConflict() async throws {
        let created = try await plan(try harness.client())
        try await assertOneWins({ client in
            try await client.call(Params.PlanMove.endpoint, Params.PlanMove(id: created.id, node: 2, place: Tampere.ratina,
                                                                expectedGeneration: created.generation))
        }, against: created) { shown, moveWon in
            if moveWon {
                XCTAssertNotEqual(shown.title, "raced", "the refused rename left no trace")
                XCTAssertNotEqual(shown.nodes[1].name, created.nodes[1].name, "node 2 moved")
            } else {
                XCTAssertEqual(shown.title, "raced")
                XCTAssertEqual(shown.nodes.map(\.name), created.nodes.map(\.name), "the refused move left no trace")
            }
        }
    }

    func testAStayRacingARenameOfTheSameGenerationKeepsExactlyOneAndTheOtherGetsConflict() async throws {
        let created = try await plan(try harness.client())
        try await assertOneWins({ client in
            try await client.call(Params.PlanStay.endpoint, Params.PlanStay(id: created.id, node: 2, durationS: 900,
                                                                expectedGeneration: created.generation))
        }, against: created) { shown, stayWon in
            if stayWon {
                XCTAssertNotEqual(shown.title, "raced", "the refused rename left no trace")
                XCTAssertEqual(shown.nodes[1].stayS, 900)
            } else {
                XCTAssertEqual(shown.title, "raced")
                XCTAssertEqual(shown.nodes.map(\.stayS), created.nodes.map(\.stayS), "the refused stay left no trace")
            }
        }
    }

    /// Both day-plan edits at once with the same generation: one of them, never both or a mix.
    func testAMoveRacingAStayOfTheSameGenerationKeepsExactlyOne() async throws {
        let created = try await plan(try harness.client())
        let outcomes = try race([
            { client in
                try await client.call(Params.PlanMove.endpoint, Params.PlanMove(id: created.id, node: 2, place: Tampere.ratina,
                                                                    expectedGeneration: created.generation))
            },
            { client in
                try await client.call(Params.PlanStay.endpoint, Params.PlanStay(id: created.id, node: 2, durationS: 900,
                                                                    expectedGeneration: created.generation))
            },
        ])
        let codes = outcomes.map { outcome -> String in
            switch outcome {
            case .success: "ok"
            case .failure(let error): (error as? WireError)?.code ?? "\(error)"
            }
        }
        XCTAssertEqual(codes.sorted(), ["conflict", "ok"], "\(outcomes)")
        let shown = try await harness.client().call(Endpoints.planShow, Params.PlanShow(id: created.id))
        XCTAssertEqual(shown.generation, created.generation + 1)
        if codes[0] == "ok" {
            XCTAssertNotEqual(shown.nodes[1].name, created.nodes[1].name, "the move is kept")
            XCTAssertEqual(shown.nodes.map(\.stayS), created.nodes.map(\.stayS), "the refused stay left no trace")
        } else {
            XCTAssertEqual(shown.nodes[1].stayS, 900, "the stay is kept")
            XCTAssertEqual(shown.nodes.map(\.name), created.nodes.map(\.name), "the refused move left no trace")
        }
    }
}
