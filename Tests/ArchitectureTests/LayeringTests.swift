import Foundation
import XCTest

/// Reads every source file's `import` lines and checks them against the allowed layering.
/// Package.swift already makes most illegal imports fail to compile; this catches anyone
/// widening the declared dependencies by accident.
final class LayeringTests: XCTestCase {
    /// What each module may import, besides itself. Foundation and the C shims are listed explicitly.
    static let allowedImports: [String: Set<String>] = [
        "Planner": ["Foundation"],
        // The one thread primitive: Foundation and the standard library's Mutex, nothing of the domain.
        "Executors": ["Foundation", "Synchronization"],
        "SQLite": ["Foundation", "CSQLite"],
        "Store": ["Foundation", "Planner", "SQLite", "CLibMD", "Synchronization", "Executors"],
        "Streets": ["Foundation", "Planner", "SQLite", "CLibMD", "CReadOSM", "CChildProcess", "Glibc", "Dispatch", "Synchronization",
                    "Executors"],
        "Transit": ["Foundation", "Planner", "SQLite", "CZip", "CGTFSRealtime", "Dispatch", "Synchronization"],
        // The client's half loads no full Foundation and no ICU, so that umctl starts fast (issue 26).
        "WireProtocol": ["FoundationEssentials", "Glibc", "Synchronization", "CLibMD"],  // libmd: SHA-256 for the web login
        // Pictures know the domain and cairo, nothing of storage, routing engines or the wire.
        "MapRendering": ["Foundation", "Planner", "CCairo"],
        // Calendars know the domain and libical, nothing of storage, routing engines or the wire.
        "PlanCalendar": ["Foundation", "Planner", "CICal"],
        // Downloads know libcurl and nothing of the domain; only the daemon and the bench use them.
        "Fetching": ["Foundation", "Glibc", "CCurl"],
        // Notifications know sd-bus and nothing of the domain; only the daemon uses them.
        "Notifications": ["Foundation", "Synchronization", "CSystemd", "Executors"],
        "Daemon": ["Foundation", "Glibc", "Dispatch", "Synchronization", "Executors",
                   "Planner", "Store", "Streets", "Transit", "MapRendering", "PlanCalendar", "Fetching", "Notifications", "WireProtocol", "SQLite"],
        "usefulmapd": ["Foundation", "Glibc", "Daemon"],
        "umctl": ["FoundationEssentials", "Glibc", "Synchronization", "WireProtocol"],
        "usefulmap-routino-worker": ["Foundation", "Glibc", "CRoutino"],
        "usefulmap-bench": ["Foundation", "Glibc", "Dispatch", "Synchronization", "Executors",
                            "Planner", "SQLite", "Store", "Streets", "Transit", "MapRendering", "Fetching", "WireProtocol", "Daemon",
                            // The updates suite: the tests' loopback HTTP server, and libzip to reissue a feed.
                            "HTTPTestSupport", "CZip"],
    ]

    static var sourcesDirectory: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
    }

    /// Module name → the set of modules its files import.
    static func importsByModule() throws -> [String: [String: Set<String>]] {
        let fm = FileManager.default
        var result: [String: [String: Set<String>]] = [:]
        for module in try fm.contentsOfDirectory(atPath: sourcesDirectory.path) {
            let dir = sourcesDirectory.appendingPathComponent(module)
            guard let files = fm.enumerator(atPath: dir.path) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
                result[module, default: [:]][file] = importedModules(in: text)
            }
        }
        return result
    }

    /// Parses `import X`, `@testable import X`, `import struct X.Y`, `@preconcurrency import X`.
    static func importedModules(in source: String) -> Set<String> {
        var modules = Set<String>()
        for rawLine in source.split(separator: "\n") {
            var words = rawLine.trimmingCharacters(in: .whitespaces).split(separator: " ").map(String.init)
            while let first = words.first, first.hasPrefix("@") || first == "public" || first == "internal" {
                words.removeFirst()
            }
            guard words.first == "import", words.count >= 2 else { continue }
            let kinds: Set<String> = ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"]
            let target = kinds.contains(words[1]) && words.count >= 3 ? words[2] : words[1]
            if let name = target.split(separator: ".").first { modules.insert(String(name)) }
        }
        return modules
    }

    func testImportParserReadsEveryImportForm() {
        let source = """
        import Foundation
        @testable import Planner
        import struct SQLite.Statement
        @preconcurrency import CSQLite
        // import Nothing — a comment is not an import
        let important = 1
        """
        XCTAssertEqual(Self.importedModules(in: source), ["Foundation", "Planner", "SQLite", "CSQLite"])
    }

    func testPlannerImportsOnlyFoundation() throws {
        let planner = try XCTUnwrap(Self.importsByModule()["Planner"], "no Sources/Planner")
        for (file, imports) in planner {
            XCTAssertTrue(imports.isSubset(of: ["Foundation"]),
                          "Planner/\(file) imports \(imports.subtracting(["Foundation"]).sorted())")
        }
    }

    func testEveryModuleImportsOnlyWhatItsLayerAllows() throws {
        for (module, files) in try Self.importsByModule() {
            let allowed = try XCTUnwrap(Self.allowedImports[module],
                                        "module \(module) has no layering rule; add one to LayeringTests")
            for (file, imports) in files {
                let illegal = imports.subtracting(allowed).subtracting([module])
                XCTAssertTrue(illegal.isEmpty, "\(module)/\(file) imports \(illegal.sorted()), which its layer forbids")
            }
        }
    }

    func testClientDependsOnNothingButTheWireProtocol() throws {
        let client = try XCTUnwrap(Self.importsByModule()["umctl"])
        let everything = client.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        XCTAssertTrue(everything.isSubset(of: ["FoundationEssentials", "Glibc", "Synchronization", "WireProtocol"]), "\(everything)")
    }

    /// umctl and the wire protocol it uses stay on the standard library, Glibc and
    /// FoundationEssentials: Foundation itself brings ICU, milliseconds of every umctl start.
    func testClientAndWireProtocolImportNeitherFoundationNorICU() throws {
        let heavy: Set = ["Foundation", "FoundationInternationalization", "FoundationNetworking", "FoundationXML", "Dispatch"]
        let modules = try Self.importsByModule()
        for module in ["umctl", "WireProtocol"] {
            let files = try XCTUnwrap(modules[module], "no Sources/\(module)")
            for (file, imports) in files {
                XCTAssertTrue(imports.isDisjoint(with: heavy), "\(module)/\(file) imports \(imports.intersection(heavy).sorted())")
            }
        }
    }
}
