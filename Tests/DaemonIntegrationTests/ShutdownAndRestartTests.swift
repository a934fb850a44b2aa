import Foundation
import Glibc
import Store
import WireProtocol
import XCTest

/// Stopping during work leaves a sound database; starting again shows everything as before.
final class ShutdownAndRestartTests: XCTestCase {
    func testSIGTERMDuringARecomputeExitsZeroWithTheDatabaseIntact() throws {
        let harness = try startDaemon(regionsFrom: try TampereRegion.dataDirectory(), extraArguments: ["--shutdown-grace", "0"], assertingCleanExit: false)
        let plan = try harness.json(["plan", "new", Tampere.keskustori, Tampere.hervanta, "--mode", "transit", "--at", Tampere.morning])
        let id = Int64(try XCTUnwrap(plan["id"]?.numberValue))
        for (after, place) in [(1, Tampere.pyynikki), (2, Tampere.ratina), (3, Tampere.tampereTalo)] {
            _ = try harness.json(["plan", "insert", String(id), "--after", String(after), place, "--mode", "walk"])
        }
        // A recompute of every leg (walk, transit and car variants) is running when SIGTERM arrives.
        let socket = harness.socketPath
        let answered = expectation(description: "the edit was answered or cut off")
        Thread.detachNewThread {
            if let client = try? WireClient(socketPath: socket) {
                _ = try? runToEnd { try await client.call(Params.PlanPreset.endpoint, Params.PlanPreset(id: id, preset: .fastest)) }
            }
            answered.fulfill()
        }
        let database = harness.dataDirectory.appendingPathComponent("usefulmap.sqlite").path
        let before = try harness.counters().routingQueries.total
        for _ in 0..<400 where (try? harness.counters().routingQueries.total) == before { usleep(5_000) }
        XCTAssertEqual(harness.stop(), 0, harness.log)
        XCTAssertTrue(harness.log.contains("database closed"), "the store is released and closed before exit: \(harness.log)")
        wait(for: [answered], timeout: 30)

        let store = try Store(path: database)
        XCTAssertEqual(try store.read(Maintenance.integrityCheck()), ["ok"])
        let stored = try store.read(Plans.load(id))
        // Three stops were inserted; the preset may then drop the inferred stops that served
        // only transit (if it finished before the signal), never anything else.
        let nodes = try XCTUnwrap(plan["nodes"]?.arrayValue)
        let inferred = nodes.filter { $0["inferred"] == .bool(true) }.count
        XCTAssertTrue((nodes.count + 3 - inferred...nodes.count + 3).contains(stored.plan.nodes.count), "\(stored.plan.nodes)")
        XCTAssertEqual(stored.plan.modes.count, stored.plan.nodes.count - 1)
    }

    func testRestartShowsEveryPlanPlaceAndHistoryEntryAsBefore() throws {
        let harness = try startDaemon(regionsFrom: try TampereRegion.dataDirectory(), assertingCleanExit: false)
        _ = try harness.json(["place", "save", "Koti", Tampere.pyynikki, "--note", "home"])
        _ = try harness.json(["search", "Hervanta"])
        _ = try harness.json(["compare", "Koti", Tampere.hervanta, "--at", Tampere.morning])
        for mode in ["walk", "transit", "car"] {
            // The transit plan starts a few metres from a stop, so its leg keeps its walk to the bus.
            let from = mode == "transit" ? Tampere.keskustori : "Koti"
            _ = try harness.json(["plan", "new", from, Tampere.tampereTalo, "--mode", mode, "--at", Tampere.morning, "--title", mode])
        }
        let queries: [[String]] = [["place", "list"], ["history", "searches"], ["history", "routes"], ["plan", "list"]]
        let plans = try harness.json(["plan", "list"])["plans"]?.arrayValue ?? []
        let showIDs = plans.compactMap { $0["id"]?.numberValue }.map { String(Int64($0)) }
        XCTAssertEqual(showIDs.count, 3)
        let before = try queries.map { try harness.json($0) }
        let shownBefore = try showIDs.map { try harness.json(["plan", "show", $0]) }
        let transitWalks = shownBefore.flatMap { $0["segments"]?.arrayValue ?? [] }
            .filter { $0["mode"] == .string("transit") }.flatMap { $0["leg"]?["walks"]?.arrayValue ?? [] }
        XCTAssertFalse(transitWalks.isEmpty, "the transit plan's walks are part of what must survive the restart")
        XCTAssertEqual(harness.stop(), 0)

        try harness.start()
        defer { XCTAssertEqual(harness.stop(), 0) }
        XCTAssertEqual(try queries.map { try harness.json($0) }, before)
        let shownAfter = try showIDs.map { try harness.json(["plan", "show", $0]) }
        for (old, new) in zip(shownBefore, shownAfter) {
            XCTAssertEqual(old["nodes"]?.arrayValue?.map { $0["name"] }, new["nodes"]?.arrayValue?.map { $0["name"] })
            XCTAssertEqual(old["segments"], new["segments"], "legs, modes and locks are as before")
            XCTAssertEqual(old["total_duration_s"], new["total_duration_s"])
        }
    }
}
