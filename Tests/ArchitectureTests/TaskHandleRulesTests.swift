import Foundation
import XCTest

/// Services with a lifetime (issue 45): every background part of the daemon is a
/// `DaemonService` whose work is its `run()`, in child tasks (a task group, `async let`) that its
/// cancellation ends. A `Task` kept in a property is work that outlives the call that started
/// it, which only a hand-written stop would end: none is kept under Sources/Daemon but the
/// exceptions below, each with its reason.
final class TaskHandleRulesTests: XCTestCase {
    /// "File (under Sources/Daemon): property" → why it keeps a task.
    static let exceptions: [String: String] = [
        "Server/Connection.swift: processing":
            "a connection's answering task is started by its I/O thread (a plain OS thread, so there is no task for it to be "
            + "a child of); the connection cancels it when its client goes or the server's grace ends, and waits for it "
            + "before it closes",
    ]

    /// "File (under Sources/Daemon)" → why it uses a `CancellationFlag`: blocking work on a thread
    /// of its own (not a Swift task's) that must stop when the task that waits for it is cancelled.
    static let cancellationFlagUses: [String: String] = [
        "Support/CancellationFlag.swift": "the flag itself",
        "Support/CPUWorkPool.swift": "a job waiting for a pool thread is skipped once its caller is cancelled",
        "Services/Realtime/RealtimePoller.swift": "a feed's fetch runs on a realtime pool thread",
        "Services/Regions/RegionImportService.swift": "an import, the files passed and the downloads run on blocking pool threads",
        "Services/Regions/RegionUpdateService.swift": "an update runs on a blocking pool thread",
    ]

    /// A loop in Swift tasks ends one way: its task's cancellation (issue 45). A `CancellationFlag`
    /// only carries a cancellation to a thread that cannot see it, made for one call; one kept
    /// in a property would be a second way of ending a part's loop.
    func testACancellationFlagOnlyCarriesACancellationToAThreadOfItsOwn() throws {
        var users: [String] = [], stored: [String] = []
        for (file, text) in try HandlerRulesTests.daemonFiles() where HandlerRulesTests.code(text).contains("CancellationFlag") {
            users.append(file)
            let scan = Self.storedProperties(in: text, typed: #"\bCancellationFlag\b"#, madeBy: #"^\s*CancellationFlag\s*\("#)
            stored += scan.properties.map { "\(file): \($0.name)" }
        }
        XCTAssertEqual(stored.sorted(), [], "a CancellationFlag kept in a property: end the loop by its task's cancellation")
        XCTAssertEqual(Set(users).subtracting(Self.cancellationFlagUses.keys).sorted(), [],
                       "a CancellationFlag outside the work on threads of their own: check `Task.isCancelled` instead, "
                           + "or list the file here with the thread it carries the cancellation to")
        XCTAssertEqual(Set(Self.cancellationFlagUses.keys).subtracting(users).sorted(), [],
                       "a file that no longer uses a CancellationFlag: remove it from the list")
    }

    func testTheScannerFindsAStoredCancellationFlagAndNotALocalOne() {
        let sample = """
        actor Refresher {
            private let stopped = CancellationFlag()
            private var ended: [String: CancellationFlag] = [:]
            func fetch() async {
                let stop = CancellationFlag()
            }
        }
        """
        let scan = Self.storedProperties(in: sample, typed: #"\bCancellationFlag\b"#, madeBy: #"^\s*CancellationFlag\s*\("#)
        XCTAssertEqual(scan.properties.map(\.name), ["stopped", "ended"])
    }

    func testNoDaemonPartKeepsATaskInAProperty() throws {
        var found: [String] = []
        for (file, text) in try HandlerRulesTests.daemonFiles() {
            let scan = Self.storedTasks(in: text)
            XCTAssertNil(scan.unbalancedLine, "Daemon/\(file): the scanner lost its place (braces unbalanced) at line \(scan.unbalancedLine ?? 0)")
            found += scan.properties.map { "\(file): \($0.name)" }
        }
        let unexplained = found.filter { Self.exceptions[$0] == nil }
        XCTAssertEqual(unexplained.sorted(), [],
                       "a stored Task outlives the call that started it: run the work as a child task of the part's `run()` "
                           + "(requests that come later reach the run on an AsyncStream), or list it here with the reason")
        let stale = Set(Self.exceptions.keys).subtracting(found)
        XCTAssertEqual(stale.sorted(), [], "an exception that no longer keeps a task: remove it from the list")
    }

    func testTheScannerFindsStoredTasksAndNotLocalOnes() {
        let sample = """
        actor Poller {
            private var loops: [String: Task<Void, Never>] = [:]
            let worker = Task { await work() }
            private struct State {
                var processing: Task<Void, Never>? // a comment: Task<Int, Never>
            }
            func run() async {
                var running: [Task<Void, Never>] = []
                let one = Task { }
                if true { let two: Task<Void, Never>? = nil }
            }
            let name = "a { brace in a string"
        }
        extension Poller {
            var count: Int { 0 }
        }
        """
        let scan = Self.storedTasks(in: sample)
        XCTAssertNil(scan.unbalancedLine)
        XCTAssertEqual(scan.properties.map(\.name), ["loops", "worker", "processing"])
    }

    /// The properties of `text`'s types (not a function's locals) that hold a `Task`: typed
    /// `Task<…>` (alone, optional, in a collection) or made with `= Task {`. A line-based scan
    /// of the braces (comments and string literals skipped): a brace whose line declares a type
    /// opens a type's body, any other a block of code. `unbalancedLine`: where the braces did not
    /// match (the scan cannot be trusted there).
    static func storedTasks(in text: String) -> (properties: [(line: Int, name: String)], unbalancedLine: Int?) {
        storedProperties(in: text, typed: #"\bTask\s*<"#, madeBy: #"^\s*Task\s*[({]"#)
    }

    /// The properties of `text`'s types whose declared type matches `typed` or whose initial
    /// value matches `madeBy` (the scan `storedTasks` describes).
    static func storedProperties(in text: String, typed: String, madeBy: String)
        -> (properties: [(line: Int, name: String)], unbalancedLine: Int?) {
        let typeDeclaration = try! NSRegularExpression(pattern: #"\b(class|struct|actor|enum|extension|protocol)\s+\w"#)
        let notAType = try! NSRegularExpression(pattern: #"\bfunc\b|=|\bin\b"#)
        let property = try! NSRegularExpression(
            pattern: #"^\s*(?:(?:private|fileprivate|internal|public|nonisolated|static|lazy|weak|unowned|final)(?:\(set\))?\s+)*"#
                + #"(?:let|var)\s+(\w+)\s*(?::\s*([^=]*))?(?:=\s*(.*))?$"#)
        let taskType = try! NSRegularExpression(pattern: typed)
        let taskMade = try! NSRegularExpression(pattern: madeBy)
        func matches(_ regex: NSRegularExpression, _ string: String) -> Bool {
            regex.firstMatch(in: string, range: NSRange(string.startIndex..., in: string)) != nil
        }
        enum Scope { case type, code }
        var scopes: [Scope] = []
        var properties: [(line: Int, name: String)] = []
        var inMultilineString = false
        for (index, line) in HandlerRulesTests.code(text).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(line)
            if line.components(separatedBy: "\"\"\"").count % 2 == 0 {
                inMultilineString.toggle()
                continue
            }
            if inMultilineString { continue }
            if scopes.last ?? .type == .type,
               let match = property.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) {
                let part = { (group: Int) -> String in
                    Range(match.range(at: group), in: line).map { String(line[$0]) } ?? ""
                }
                if matches(taskType, part(2)) || matches(taskMade, part(3)) { properties.append((index + 1, part(1))) }
            }
            var inString = false, escaped = false
            for (offset, character) in line.enumerated() {
                if inString {
                    if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                    continue
                }
                switch character {
                case "\"": inString = true
                case "{":
                    let head = String(line.prefix(offset))
                    scopes.append(matches(typeDeclaration, head) && !matches(notAType, head) ? .type : .code)
                case "}":
                    guard scopes.popLast() != nil else { return (properties, index + 1) }
                default: break
                }
            }
        }
        return (properties, scopes.isEmpty ? nil : -1)
    }
}
