import Foundation
import XCTest

/// The rules of the daemon's boundary (issue 11): handlers translate typed params to domain
/// calls and domain values to typed results; the composition root is the only place that
/// builds stores, engines and routers; nothing converts a result through `JSONValue`.
final class HandlerRulesTests: XCTestCase {
    static var daemonDirectory: URL { LayeringTests.sourcesDirectory.appendingPathComponent("Daemon") }

    /// Path inside Sources/Daemon (for example `Methods/PlanMethods.swift`) → text.
    static func daemonFiles() throws -> [String: String] {
        var files: [String: String] = [:]
        guard let paths = FileManager.default.enumerator(atPath: daemonDirectory.path) else { return files }
        for case let path as String in paths where path.hasSuffix(".swift") {
            files[path] = try String(contentsOf: daemonDirectory.appendingPathComponent(path), encoding: .utf8)
        }
        return files
    }

    /// The handler groups: one file per area, named `…Methods.swift`.
    static func handlerFiles() throws -> [String: String] {
        try daemonFiles().filter { $0.key.hasSuffix("Methods.swift") }
    }

    func testTheHandlerGroupsExist() throws {
        let names = Set(try Self.handlerFiles().keys.map { ($0 as NSString).lastPathComponent })
        XCTAssertTrue(names.isSuperset(of: ["StatusMethods.swift", "PlanMethods.swift", "PlanEditMethods.swift",
                                            "PlaceMethods.swift", "LocationMethods.swift", "RegionMethods.swift"]), "\(names.sorted())")
    }

    /// The folders show the architecture (docs/architecture.md): the socket server, the web
    /// gateway (one more client of the same method table), the services, the method handlers,
    /// and the composition root above them.
    func testDaemonFilesLiveInTheFolderOfTheirPart() throws {
        let paths = try Self.daemonFiles().keys
        for path in paths {
            let folder = path.split(separator: "/").first.map(String.init) ?? ""
            XCTAssertTrue(path.hasSuffix("Methods.swift") == (folder == "Methods") || path.hasPrefix("Methods/WireDocuments"),
                          "Daemon/\(path): handler groups (…Methods.swift) live in Methods/, and only they")
            XCTAssertTrue(["Server", "Web", "Services", "Methods", "Support"].contains(folder)
                          || ["UsefulMapDaemon.swift", "DaemonComposition.swift", "DaemonConfiguration.swift",
                              "DaemonManualPage.swift"].contains(path),
                          "Daemon/\(path) is outside Server/, Web/, Services/, Methods/ and Support/")
        }
    }

    func testNoDaemonCodeConvertsAResultThroughJSONValue() throws {
        for (file, text) in try Self.daemonFiles() {
            XCTAssertFalse(text.contains("JSONValue(encoding:"), "Daemon/\(file) encodes to JSONValue; return a typed document")
            XCTAssertFalse(text.contains(".decode(as:"), "Daemon/\(file) decodes a JSONValue; take typed params")
        }
    }

    func testHandlersNeverImportTransit() throws {
        for (file, text) in try Self.handlerFiles() {
            XCTAssertFalse(LayeringTests.importedModules(in: text).contains("Transit"),
                           "Daemon/\(file) imports Transit; reach transit through the group's router")
        }
    }

    /// Store, Streets and Transit types reach a handler only as what its group was given by
    /// the composition root: a handler file builds none of them.
    func testHandlersBuildNoStoresEnginesOrRouters() throws {
        let builders = ["Store(", "StreetEngine(", "TransitEngine(", "RegionRouter(", "RegionRegistry(", "Planner(",
                        "PlanRepository(", "PlaceResolver(", "RegionCatalog(", "PlaceIndex(", "RegionImporter("]
        for (file, text) in try Self.handlerFiles() {
            for builder in builders {
                XCTAssertFalse(text.contains(" \(builder)") || text.contains("= \(builder)"),
                               "Daemon/\(file) builds \(builder)…); the composition root gives the group what it needs")
            }
        }
    }

    /// The plan repository is the only reader and writer of stored plans (issue 45): nothing else
    /// in the daemon runs the store's plan queries, so every plan read sees what the edits wrote.
    func testOnlyThePlanRepositoryReadsOrWritesPlans() throws {
        let queries = ["Plans.load", "Plans.list", "Plans.save", "Plans.create", "Plans.delete", "Plans.withPendingLegs",
                       "Plans.saveGeneration"]
        for (file, text) in try Self.daemonFiles() where file != "Services/Plans/PlanRepository.swift" {
            for query in queries {
                XCTAssertFalse(text.contains(query), "Daemon/\(file) runs \(query); read and change plans through PlanRepository")
            }
        }
    }

    func testHandlersTakeTypedParamsThroughTheirEndpoint() throws {
        for (file, text) in try Self.handlerFiles() {
            XCTAssertFalse(text.contains("context.params("), "Daemon/\(file) decodes params itself")
            XCTAssertFalse(text.contains("extension DaemonServices"), "Daemon/\(file) extends a service locator")
            XCTAssertTrue(text.contains("table.register(Endpoints."), "Daemon/\(file) registers no endpoint")
        }
    }
}
