import Foundation
import WireProtocol
import XCTest

/// `plan.edits` and `umctl batch --atomic`: several edits of one plan, all or none, with one
/// recompute; optimistic concurrency with expected generations; errors as JSON under `--json`.
final class AtomicPlanEditsTests: SharedTampereDaemonTestCase {
    /// A walking plan: walk and car legs do not depend on the time of day.
    func newWalkPlan() throws -> Int64 {
        let plan = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "walk", "--at", Tampere.morning])
        return Int64(try XCTUnwrap(plan["id"]?.numberValue))
    }

    /// Five edits. The pace comes first: a car leg keeps the pace it was asked with (its walks to
    /// and from the road), so a pace change after it would differ by design between the two ways.
    func fiveEdits(_ id: Int64) -> [String] {
        ["plan pace \(id) fast",
         "plan insert \(id) Ratina --after 1",
         "plan insert \(id) \(Tampere.tampereTalo) --after 2",
         "plan mode \(id) 2 car",
         "plan mode \(id) 3 walk"]
    }

    /// The plan without what differs between two plans made the same way (id, title, generation).
    func content(_ plan: JSONValue) -> JSONValue {
        guard case .object(var fields) = plan else { return plan }
        // `matched` tells how the edits' typed places matched: about the request, not the plan.
        for key in ["id", "title", "generation", "matched"] { fields[key] = nil }
        return .object(fields)
    }

    func testAtomicBatchOfFiveEditsRecomputesOnceAndEqualsTheEditsAppliedOneByOne() throws {
        let atomicID = try newWalkPlan(), oneByOneID = try newWalkPlan()
        let before = try harness.counters()
        let batch = try harness.umctl(["batch", try harness.writeBatch(fiveEdits(atomicID)), "--atomic", "--json"])
        XCTAssertEqual(batch.status, 0, batch.stderr)
        let after = try harness.counters()
        XCTAssertEqual(after.plansRecomputed - before.plansRecomputed, 1, "five edits, one recompute")
        let atomic = try WireCodec.decoder.decode(JSONValue.self, from: Data(batch.stdout.utf8))
        XCTAssertEqual(atomic["generation"], .number(2), "one new generation for the whole batch")
        let searches = try harness.json(["history", "searches"])["entries"]?.arrayValue ?? []
        XCTAssertEqual(searches.first?["text"], .string("Ratina"), "a place typed into an edit of the batch is a search")

        for line in fiveEdits(oneByOneID) {
            let words = try CommandLineWords.split(line)
            _ = try harness.json(words)
        }
        let oneByOne = try harness.json(["plan", "show", String(oneByOneID)])
        XCTAssertEqual(oneByOne["generation"], .number(6))
        XCTAssertEqual(atomic["nodes"]?.arrayValue?.count, 4)
        XCTAssertEqual(content(atomic), content(oneByOne))
        XCTAssertEqual(content(try harness.json(["plan", "show", String(atomicID)])), content(atomic), "what was answered is what is stored")
    }

    func testAtomicBatchWhoseFourthEditIsInvalidLeavesThePlanByteIdenticalAndNamesTheEdit() throws {
        let id = try newWalkPlan()
        let shownBefore = try harness.umctl(["plan", "show", String(id), "--json"])
        let searchesBefore = try harness.umctl(["history", "searches", "--json"]).stdout
        let recomputedBefore = try harness.counters().plansRecomputed
        var lines = fiveEdits(id)
        lines[3] = "plan mode \(id) 9 car"
        let batch = try harness.umctl(["batch", try harness.writeBatch(lines), "--atomic", "--json"])

        XCTAssertEqual(batch.status, 1, batch.stderr)
        let error = try WireCodec.decoder.decode(JSONValue.self, from: Data(batch.stderr.utf8))
        XCTAssertEqual(error["code"], .number(-32602))
        XCTAssertEqual(error["data"]?["code"], .string("invalid_params"))
        XCTAssertEqual(error["data"]?["edit"], .number(4))
        XCTAssertEqual(error["data"]?["method"], .string("plan.mode"))
        XCTAssertEqual(error["data"]?["line"], .number(4), "the file's line")
        let shownAfter = try harness.umctl(["plan", "show", String(id), "--json"])
        XCTAssertEqual(shownAfter.stdout, shownBefore.stdout, "byte-identical, generation included")
        XCTAssertEqual(try harness.counters().plansRecomputed, recomputedBefore)
        XCTAssertEqual(try harness.umctl(["history", "searches", "--json"]).stdout, searchesBefore,
                       "the place typed into edit 2 is not recorded: nothing of a failed batch is")
    }

    func testAtomicBatchTakesEveryPlanEdit() throws {
        let id = try newWalkPlan()
        let lines = ["# a day's changes, in one go",
                     "plan stay \(id) 1 30m",
                     "plan rename \(id) Morning walk",
                     "plan move \(id) 2 \(Tampere.tampereTalo)",
                     "",
                     "plan unlock \(id) 1",
                     "plan choose \(id) 1 1",
                     "plan time \(id) --at 09:00",
                     "plan pin \(id) 1 09:40"]  // after the 30 min stay at the start
        let batch = try harness.umctl(["batch", try harness.writeBatch(lines), "--atomic", "--json"])
        XCTAssertEqual(batch.status, 0, batch.stderr)
        let plan = try WireCodec.decoder.decode(JSONValue.self, from: Data(batch.stdout.utf8))
        XCTAssertEqual(plan["title"], .string("Morning walk"))
        XCTAssertEqual(nodes(plan).first?["stay_s"], .number(1_800))
        XCTAssertEqual(typed(nodes(plan).last), Tampere.tampereTalo)
        XCTAssertEqual(plan["pinned_segment"], .number(1))
        XCTAssertEqual(plan["generation"], .number(2), "one new generation for the whole batch")
        XCTAssertEqual(try harness.json(["plan", "show", String(id)])["title"], .string("Morning walk"), "stored")
    }

    func testAnAtomicBatchErrorNamesTheFilesLineNotTheEditNumber() throws {
        let id = try newWalkPlan()
        let lines = ["# comment", "plan stay \(id) 1 30m", "", "plan mode \(id) 9 car"]
        let batch = try harness.umctl(["batch", try harness.writeBatch(lines), "--atomic"])
        XCTAssertEqual(batch.status, 1, batch.stderr)
        XCTAssertTrue(batch.stderr.contains("line 4:"), batch.stderr)
        XCTAssertFalse(batch.stderr.contains("edit 2"), batch.stderr)
        let json = try harness.umctl(["batch", try harness.writeBatch(lines), "--atomic", "--json"])
        let error = try WireCodec.decoder.decode(JSONValue.self, from: Data(json.stderr.split(separator: "\n").last.map(String.init)?.utf8 ?? "".utf8))
        XCTAssertEqual(error["data"]?["line"], .number(4), json.stderr)
        XCTAssertEqual(error["data"]?["edit"], .number(2), "the edit's number stays in the data")
    }

    func testASyntaxErrorAnywhereInABatchMeansNothingRuns() throws {
        let id = try newWalkPlan()
        let before = try harness.umctl(["plan", "show", String(id), "--json"]).stdout
        for atomic in [false, true] {
            let path = try harness.writeBatch(["plan mode \(id) 1 car", "plan mode \(id) one car", "plan pace \(id) fast"])
            let batch = try harness.umctl(["batch", path, "--json"] + (atomic ? ["--atomic"] : []))
            XCTAssertEqual(batch.status, 2, batch.stderr)
            let error = try WireCodec.decoder.decode(JSONValue.self, from: Data(batch.stderr.utf8))
            XCTAssertEqual(error["data"]?["code"], .string("usage"))
            XCTAssertEqual(error["code"], .null, "umctl found it: no JSON-RPC number")
            XCTAssertTrue(error["message"]?.stringValue?.contains("line 2") == true, batch.stderr)
            XCTAssertEqual(try harness.umctl(["plan", "show", String(id), "--json"]).stdout, before, "line 1 never ran")
        }
    }

    func testDryRunAnswersTheResultingPlanWithoutStoringIt() throws {
        let id = try newWalkPlan()
        let before = try harness.umctl(["plan", "show", String(id), "--json"]).stdout
        let batch = try harness.umctl(["batch", try harness.writeBatch(["plan mode \(id) 1 car"]), "--atomic", "--dry-run", "--json"])
        XCTAssertEqual(batch.status, 0, batch.stderr)
        let answer = try WireCodec.decoder.decode(JSONValue.self, from: Data(batch.stdout.utf8))
        XCTAssertEqual(answer["segments"]?.arrayValue?.first?["mode"], .string("car"))
        XCTAssertEqual(try harness.umctl(["plan", "show", String(id), "--json"]).stdout, before)
    }

    func testTwoClientsEditingWithTheSameExpectedGenerationExactlyOneSucceeds() throws {
        let id = try newWalkPlan()
        let generation = Int64(try XCTUnwrap(try harness.json(["plan", "show", String(id)])["generation"]?.numberValue))
        let socket = try harness.socketPath
        let results = [ResultBox<PlanDocument>(), ResultBox<PlanDocument>()]
        let done = (0..<2).map { expectation(description: "client \($0)") }
        for (index, mode) in [WireMode.car, .walk].enumerated() {
            Thread.detachNewThread {
                results[index].value = Result {
                    let client = try WireClient(socketPath: socket)
                    return try runToEnd {
                        try await client.call(Params.PlanMode.endpoint, Params.PlanMode(id: id, segment: 1, mode: mode, expectedGeneration: generation))
                    }
                }
                done[index].fulfill()
            }
        }
        wait(for: done, timeout: 120)
        let outcomes = results.compactMap(\.value)
        XCTAssertEqual(outcomes.count, 2)
        let successes = outcomes.filter { if case .success = $0 { true } else { false } }
        let conflicts = outcomes.filter { if case .failure(let error) = $0 { (error as? WireError)?.code == "conflict" } else { false } }
        XCTAssertEqual(successes.count, 1, "\(outcomes)")
        XCTAssertEqual(conflicts.count, 1, "\(outcomes)")
        XCTAssertEqual(try harness.json(["plan", "show", String(id)])["generation"], .number(Double(generation + 1)))

        // The same through umctl: a stale generation is a conflict, as JSON on stderr.
        let stale = try harness.umctl(["plan", "pace", String(id), "fast", "--expect-generation", String(generation), "--json"])
        XCTAssertEqual(stale.status, 1)
        let error = try WireCodec.decoder.decode(JSONValue.self, from: Data(stale.stderr.utf8))
        XCTAssertEqual(error["code"], .number(-32012))
        XCTAssertEqual(error["data"]?["code"], .string("conflict"))
        let fresh = try harness.umctl(["plan", "pace", String(id), "fast", "--expect-generation", String(generation + 1)])
        XCTAssertEqual(fresh.status, 0, fresh.stderr)
    }

    func testDaemonErrorsUnderJSONAreJSONOnStderrWithTheDocumentedExitCode() throws {
        let missing = try harness.umctl(["plan", "show", "999999", "--json"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stdout, "")
        let error = try WireCodec.decoder.decode(JSONValue.self, from: Data(missing.stderr.utf8))
        XCTAssertEqual(error["code"], .number(-32010))
        XCTAssertEqual(error["data"]?["code"], .string("not_found"))
        XCTAssertEqual(error["data"]?["exit_code"], .number(1))
        XCTAssertNotNil(error["message"]?.stringValue)
    }

    func testWireNumbersAreWholeSecondsAndWholeMetres() throws {
        let compare = try harness.json(["compare", Tampere.keskustori, Tampere.tampereTalo, "--at", Tampere.morning])
        let plan = try harness.json(["plan", "new", Tampere.keskustori, Tampere.tampereTalo, "--mode", "transit", "--at", Tampere.morning])
        var numbers: [Double] = []
        func collect(_ value: JSONValue, key: String? = nil) {
            switch value {
            case .object(let fields): for (key, value) in fields { collect(value, key: key) }
            case .array(let items): items.forEach { collect($0, key: key) }
            case .number(let number) where key?.hasSuffix("_s") == true || key?.hasSuffix("_m") == true: numbers.append(number)
            default: break
            }
        }
        collect(compare)
        collect(plan)
        XCTAssertGreaterThan(numbers.count, 6)
        XCTAssertEqual(numbers.filter { $0 != $0.rounded() }, [], "every duration and distance is whole")
        XCTAssertEqual(plan["segments"]?.arrayValue?.first(where: { $0["mode"] == .string("transit") })?["leg"]?["rides"]?.arrayValue?.isEmpty, false, "a transit plan was made")
    }
}

/// Splits a test's command line as `umctl batch` does (no quotes needed in these tests).
enum CommandLineWords {
    static func split(_ line: String) throws -> [String] { line.split(separator: " ").map(String.init) }
}
