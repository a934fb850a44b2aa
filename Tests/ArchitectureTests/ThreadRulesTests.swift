import Foundation
import XCTest

/// One execution world (issue 45): threads, waits and locks come from the Executors module.
/// Only its one file waits on a semaphore or touches pthread locks; everything else awaits, or
/// on a plain thread waits through `Handoff`, `Gate` or `Mailbox`, and locks with `Mutex`. And
/// the compiler checks sendability: a type that claims `@unchecked Sendable` is an exception
/// with its reason, kept few.
final class ThreadRulesTests: XCTestCase {
    /// The one file allowed to block a thread on a semaphore or use pthread primitives.
    static let executorFile = "Executors/ExecutorThread.swift"
    /// `@unchecked Sendable` in all of Sources at most (issue 45: 18 before, at most 7).
    static let uncheckedSendableLimit = 7

    /// Path under Sources → text, for every Swift file.
    static func sourceFiles() throws -> [String: String] {
        let sources = LayeringTests.sourcesDirectory
        guard let paths = FileManager.default.enumerator(atPath: sources.path) else { throw CocoaError(.fileNoSuchFile) }
        var files: [String: String] = [:]
        for case let path as String in paths where path.hasSuffix(".swift") {
            files[path] = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
        }
        return files
    }

    func testNoSemaphoreOrRawLockOutsideTheExecutorFile() throws {
        let forbidden = ["DispatchSemaphore", "DispatchGroup", "sem_t", "sem_init", "sem_wait", "sem_post",
                         "pthread_mutex", "pthread_cond", "pthread_rwlock", "pthread_spin", "pthread_barrier", "pthread_create",
                         "NSLock", "NSRecursiveLock", "NSCondition", "os_unfair_lock"]
        let files = try Self.sourceFiles()
        XCTAssertNotNil(files[Self.executorFile], "the executor file moved: update ThreadRulesTests.executorFile")
        var offenders: [String] = []
        for (path, text) in files where path != Self.executorFile {
            for word in forbidden where text.contains(word) { offenders.append("Sources/\(path) uses \(word)") }
        }
        XCTAssertEqual(offenders.sorted(), [],
                       "wait with await, or on a plain thread with Executors' Handoff, Gate or Mailbox; lock with Mutex")
    }

    func testNoThreadIsStartedOutsideTheExecutorsModule() throws {
        let starts = try NSRegularExpression(pattern: #"(?<![\w.])Thread\s*(\{|\(block|\.detachNewThread)"#)
        var offenders: [String] = []
        for (path, text) in try Self.sourceFiles() where !path.hasPrefix("Executors/") {
            if starts.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil {
                offenders.append("Sources/\(path)")
            }
        }
        XCTAssertEqual(offenders.sorted(), [], "start a thread with Executors' startThread, ExecutorThread or ExecutorPool")
    }

    func testUncheckedSendableStaysRare() throws {
        var claims: [String] = []
        for (path, text) in try Self.sourceFiles() {
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains("@unchecked Sendable") && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                claims.append("Sources/\(path):\(number + 1)")
            }
        }
        XCTAssertLessThanOrEqual(claims.count, Self.uncheckedSendableLimit,
                                 "@unchecked Sendable \(claims.count) times (at most \(Self.uncheckedSendableLimit)); "
                                     + "put the state behind a Mutex instead: \(claims.sorted().joined(separator: ", "))")
    }
}
