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
            XCTAssertTrue(path.hasSuffix("Methods.swift") == (folder == "Methods") || path.hasPrefix("Methods/WireDocuments")
                          || path.hasPrefix("Methods/PlanEditRules/"),
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

    // MARK: - Handlers that only translate (issue 45)

    /// Services take and return domain values; Methods alone turn them into wire documents
    /// (`WireDocuments…`) and errors into `WireError`s. Not one file under Services/ imports
    /// WireProtocol (issue 45): a service that needs a wire text (a time, a JSON line of another
    /// protocol) has its own, as `NoticeKey` and `GpsdTime` do.
    func testServicesDoNotImportTheWireProtocol() throws {
        let services = try Self.daemonFiles().filter { $0.key.hasPrefix("Services/") }
        XCTAssertGreaterThan(services.count, 30, "the services were not found")
        for (file, text) in services {
            XCTAssertFalse(LayeringTests.importedModules(in: text).contains("WireProtocol"),
                           "Daemon/\(file) imports WireProtocol: return a domain value and encode it in Methods/")
        }
    }

    /// `text` with its comments blanked out (line comments and doc comments; string literals kept).
    static func code(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            var inString = false, escaped = false, previous: Character = " "
            for index in line.indices {
                let character = line[index]
                if inString {
                    if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                } else if character == "\"" {
                    inString = true
                } else if character == "/", previous == "/" {
                    return line[..<line.index(before: index)]
                }
                previous = character
            }
            return line
        }.joined(separator: "\n")
    }

    /// Each `table.register(Endpoints.NAME …) { … }` of `code` (comments removed): the endpoint
    /// and how many lines its closure's body has (between the line of `{` and the line of `}`).
    static func handlerClosures(in code: String) -> [(endpoint: String, lines: Int)] {
        var found: [(String, Int)] = []
        let characters = Array(code)
        let marker = Array("table.register(Endpoints.")
        var index = 0
        while index + marker.count <= characters.count {
            guard Array(characters[index..<index + marker.count]) == marker else { index += 1; continue }
            var cursor = index + marker.count
            var name = ""
            while cursor < characters.count, characters[cursor].isLetter || characters[cursor].isNumber {
                name.append(characters[cursor])
                cursor += 1
            }
            // The closure opens after the call's arguments: the first `{` outside strings.
            var depth = 0, lines = 0, opened = false, inString = false, escaped = false
            while cursor < characters.count {
                let character = characters[cursor]
                if inString {
                    if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                } else if character == "\"" {
                    inString = true
                } else if character == "{" {
                    depth += 1
                    opened = true
                } else if character == "}" {
                    depth -= 1
                    if opened, depth == 0 { break }
                } else if character == "\n", opened {
                    lines += 1
                }
                cursor += 1
            }
            if opened { found.append((name, max(0, lines - 1))) }
            index = cursor
        }
        return found
    }

    func testTheHandlerClosureFinderCountsBodyLines() {
        let code = """
            table.register(Endpoints.one) { params, _ in
                let text = "a { brace"
                return text
            }
            table.register(Endpoints.two, atOnceAnswering: { _, id in try answer(id) })
            """
        let found = Self.handlerClosures(in: Self.code(code))
        XCTAssertEqual(found.map(\.endpoint), ["one", "two"])
        XCTAssertEqual(found.map(\.lines), [2, 0])
    }

    /// A handler decodes, makes one call into a service and encodes: the rules live in the
    /// service, where every entry point (a method, the web app, a background job) shares them.
    func testNoHandlerClosureIsLongerThanFifteenLines() throws {
        for (file, text) in try Self.handlerFiles() {
            for handler in Self.handlerClosures(in: Self.code(text)) {
                XCTAssertLessThanOrEqual(handler.lines, 15, "Daemon/\(file): the handler of Endpoints.\(handler.endpoint) is \(handler.lines) "
                                         + "lines; move its rules into a service (Services/) and keep the handler a translation")
            }
        }
    }

    /// Methods reach the store only through services (`PlaceService`, `HistoryService`,
    /// `GeofenceService`, `PlanAgendaService`, `PlanReminderSettings` …): no handler holds the
    /// `Store`, runs a query value or catches a `StoreError`. (The Store module's value types,
    /// such as `SavedPlace`, may still be named: services return them.)
    func testNoMethodsFileHoldsTheStore() throws {
        let forbidden = try NSRegularExpression(
            pattern: #"\bStore(Error)?\b|\b(Plans|Places|History|Geofences|Reminders)\.[a-z]\w*\("#)
        for (file, text) in try Self.daemonFiles() where file.hasPrefix("Methods/") {
            let code = Self.code(text).split(separator: "\n").filter { !$0.hasPrefix("import ") }.joined(separator: "\n")
            for match in forbidden.matches(in: code, range: NSRange(code.startIndex..., in: code)) {
                XCTFail("Daemon/\(file) uses \((code as NSString).substring(with: match.range)): reach the store through a service")
            }
        }
    }

    /// The names of the types declared at the top level of the files under `folder` (`Services`, `Methods`).
    static func topLevelTypes(under folder: String) throws -> Set<String> {
        let declaration = try NSRegularExpression(
            pattern: #"^(?:@\w+\s+)*(?:(?:public|internal|package|fileprivate|private|final)\s+)*(?:struct|class|enum|actor|protocol|typealias)\s+(\w+)"#,
            options: .anchorsMatchLines)
        var names = Set<String>()
        for (file, text) in try daemonFiles() where file.hasPrefix(folder + "/") {
            for match in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                names.insert((text as NSString).substring(with: match.range(at: 1)))
            }
        }
        return names
    }

    /// The server turns bytes into calls of the method table; it knows no service and no
    /// handler group (the composition root wires them), so that it can be read and changed alone.
    func testTheServerNamesNoServiceOrMethodsType() throws {
        let services = try Self.topLevelTypes(under: "Services"), methods = try Self.topLevelTypes(under: "Methods")
        XCTAssertTrue(services.contains("RegionRegistry") && methods.contains("StatusMethods"), "the type finder finds nothing")
        let word = try NSRegularExpression(pattern: #"\b[A-Z]\w*\b"#)
        for (file, text) in try Self.daemonFiles() where file.hasPrefix("Server/") {
            let code = Self.code(text)
            let named = Set(word.matches(in: code, range: NSRange(code.startIndex..., in: code)).map { (code as NSString).substring(with: $0.range) })
            XCTAssertTrue(named.isDisjoint(with: services), "Daemon/\(file) names the services \(named.intersection(services).sorted())")
            XCTAssertTrue(named.isDisjoint(with: methods), "Daemon/\(file) names the handler groups \(named.intersection(methods).sorted())")
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

    // MARK: - Adding a plan edit (issue 45): its params, its rule, its umctl command, one line

    /// The text of every Swift file under `Sources/module`, by its path inside the module.
    static func files(of module: String) throws -> [String: String] {
        let directory = LayeringTests.sourcesDirectory.appendingPathComponent(module)
        var files: [String: String] = [:]
        guard let paths = FileManager.default.enumerator(atPath: directory.path) else { return files }
        for case let path as String in paths where path.hasSuffix(".swift") {
            files[path] = try String(contentsOf: directory.appendingPathComponent(path), encoding: .utf8)
        }
        return files
    }

    /// Where each edit is named in the ways the test below counts: `Params.NAME.self`,
    /// `extension Params.NAME: PlanEditRule`, `extension Params.NAME: CommandLineEdit`,
    /// `Params.NAME.endpoint`, keyed by that form and NAME, one path per occurrence.
    static func editMentions(in files: [(path: String, text: String)]) throws -> [String: [String: [String]]] {
        let mention = try NSRegularExpression(
            pattern: #"(extension )?Params\.(Plan\w+)(\.self|\.endpoint|: PlanEditRule|: CommandLineEdit)"#)
        var found: [String: [String: [String]]] = [:]
        for (path, text) in files {
            let code = Self.code(text) as NSString
            for match in mention.matches(in: code as String, range: NSRange(location: 0, length: code.length)) {
                let form = code.substring(with: match.range(at: 3)), name = code.substring(with: match.range(at: 2))
                found[form, default: [:]][name, default: []].append(path)
            }
        }
        return found
    }

    /// Each edit's params type (`WireProtocol/PlanEdits/NAME.swift`) is listed once, in
    /// `PlanEdit.kinds`, and nowhere else names its type as a value (the list of edits is not
    /// repeated: the daemon registers and umctl lists the edits by walking it); it has exactly
    /// one rule (`Daemon/Methods/PlanEditRules/NAME+Rule.swift`), one umctl command, and no
    /// handler or endpoint of its own in the daemon.
    func testEveryPlanEditHasOneRuleOneRegistrationAndOneCommand() throws {
        let wire = try Self.files(of: "WireProtocol")
        let everything = try ["WireProtocol", "Daemon", "umctl", "usefulmapd", "usefulmap-bench"].flatMap { module in
            try Self.files(of: module).map { (path: "\(module)/\($0.key)", text: $0.value) }
        }
        let mentions = try Self.editMentions(in: everything)
        let edits = wire.keys.filter { $0.hasPrefix("PlanEdits/") }.map { ($0 as NSString).lastPathComponent.replacing(".swift", with: "") }.sorted()
        XCTAssertGreaterThanOrEqual(edits.count, 20, "the edits' params files: \(edits)")
        for edit in edits {
            let declaration = try XCTUnwrap(wire["PlanEdits/\(edit).swift"])
            XCTAssertTrue(declaration.contains("public struct \(edit): PlanEditParams {"), "PlanEdits/\(edit).swift declares no \(edit): PlanEditParams")
            XCTAssertEqual(mentions[".self"]?[edit], ["WireProtocol/PlanEdit.swift"],
                           "Params.\(edit).self is named once, in PlanEdit.kinds: walk that list instead of listing edits again")
            XCTAssertEqual(mentions[": PlanEditRule"]?[edit], ["Daemon/Methods/PlanEditRules/\(edit)+Rule.swift"], "the one rule of \(edit)")
            XCTAssertEqual(mentions[": CommandLineEdit"]?[edit]?.count, 1, "the one umctl command of \(edit)")
            XCTAssertFalse(mentions[".endpoint"]?[edit]?.contains { $0.hasPrefix("Daemon/") } ?? false,
                           "the daemon registers \(edit) by name: PlanEditMethods registers every kind")
        }
    }
}
