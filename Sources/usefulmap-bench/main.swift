import Foundation

/// `usefulmap-bench SUITE... [--json]`: one suite per area; `all` runs every speed suite.
/// Build with `swift build -c release` before trusting any figure.
let suites: [(name: String, run: @Sendable () async throws -> SuiteReport)] = [
    // Each area registers its suite here, in layer order.
    ("planner", { try await runPlannerSuite() }),
    ("store", { try await runStoreSuite() }),
    ("streets", { try await runStreetsSuite() }),
    ("import", { try await runImportSuite() }),
    ("search", { try await runSearchSuite() }),
    ("transit", { try await runTransitSuite() }),
    ("realtime", { try await runRealtimeSuite() }),
    ("scale", { try await runScaleSuite() }),
    ("country", { try await runCountrySuite() }),
    ("three-cities", { try await runThreeCitiesSuite() }),
    ("daemon", { try await runDaemonSuite() }),
    ("client", { try await runClientSuite() }),
    ("mixed", { try await runMixedLoadSuite() }),
    ("fuzz", { try await runFuzzSuite() }),
    ("soak", { try await runSoakSuite() }),
    ("maps", { try await runMapsSuite() }),
    ("tiles", { try await runTilesSuite() }),
    ("updates", { try await runUpdatesSuite() }),
    ("hostile", { try await runHostileInputSuite() }),
]

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == StatusProber.command { // the mixed load's prober, started by the bench itself
    func value(_ name: String) -> String? { arguments.first { $0.hasPrefix(name) }.map { String($0.dropFirst(name.count)) } }
    StatusProber.runHere(socket: value("--socket=") ?? "",
                         pacing: .init(pauseMilliseconds: value("--pause-ms=").flatMap(Double.init),
                                       everyMilliseconds: value("--every-ms=").flatMap(Double.init)))
}
let json = arguments.contains("--json")
let requested = arguments.filter { !$0.hasPrefix("--") }
if requested.isEmpty || arguments.contains("--help") {
    print("usage: usefulmap-bench SUITE... [--json]   suites: all \(suites.map(\.name).joined(separator: " "))")
    print("  fuzz: [--inputs=N] [--seed=N] [--socket=PATH] [--tampere]   soak: [--requests=N]   mixed: [--socket=PATH] [--at-once-trace=FILE] [--prober=process|thread] [--status-pause-ms=N|--status-every-ms=N]")
    print("  client: [--runs=N] [--other-umctl=PATH,...] [--tampere|--socket=PATH] [--back-to-back]   daemon: [--umctl=PATH]   import: [--runs=N]")
    print("  transit: [--queries=N] [--engine-only]   hostile: [--alerts-per-feed=N] [--watchers=N] [--fan-out-only]")
    print("  scale: [--layouts=tiled|laid-over] [--factors=1,4,16] [--queries=N]")
    print("  country: [--queries=N] [--umctl=PATH] [--files=DIR] [--copies=N] [--import-only] [--keep-regions=DIR | --kept-regions=DIR] (needs the osmium command, osmium-tool, not in .ci/packages.txt)")
    print("  three-cities: [--queries=N] (three Tampere copies as three regions; needs osmium)")
    exit(requested.isEmpty && !arguments.contains("--help") ? 2 : 0)
}
let unknown = requested.filter { name in name != "all" && !suites.contains { $0.name == name } }
if !unknown.isEmpty {
    FileHandle.standardError.write(Data("usefulmap-bench: unknown suite \(unknown.joined(separator: ", "))\n".utf8))
    exit(2)
}
/// Robustness runs, not speed figures, `mixed` (part of `daemon`), `country` and `three-cities`
/// (minutes, and a tool CI does not install): only when named.
let notInAll: Set = ["fuzz", "soak", "mixed", "hostile", "country", "three-cities"]
for suite in suites where (requested.contains("all") && !notInAll.contains(suite.name)) || requested.contains(suite.name) {
    do {
        printReport(try await suite.run(), json: json)
    } catch {
        FileHandle.standardError.write(Data("usefulmap-bench: suite \(suite.name) failed: \(error)\n".utf8))
        exit(1)
    }
}
