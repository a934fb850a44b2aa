import Foundation
import XCTest

/// The store's face and threads (issue 45): queries are values run by a few access methods
/// (`read`, `write`, `readAtOnce`, sync and async overloads of the same names), not one async
/// twin per query; and the store's threads come from the one executor primitive, so no
/// semaphore or raw pthread lock is written by hand in Sources/Store.
final class StoreRulesTests: XCTestCase {
    static var storeDirectory: URL { LayeringTests.sourcesDirectory.appendingPathComponent("Store") }

    /// File name inside Sources/Store → text.
    static func storeFiles() throws -> [String: String] {
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: storeDirectory.path) where name.hasSuffix(".swift") {
            files[name] = try String(contentsOf: storeDirectory.appendingPathComponent(name), encoding: .utf8)
        }
        return files
    }

    func testTheStoreHasNoPerQueryAsyncTwins() throws {
        let files = try Self.storeFiles()
        XCTAssertFalse(files.keys.contains("Store+Async.swift"), "Store+Async.swift is back: run a query value with store.read/write")
        // The only async functions of the store are its access methods.
        let asyncFunction = try NSRegularExpression(pattern: #"func\s+(\w+)\s*(<[^>]*>)?\s*\([^{]*\)\s*(async)"#)
        for (file, text) in files {
            for match in asyncFunction.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let name = (text as NSString).substring(with: match.range(at: 1))
                XCTAssertTrue(["read", "write", "run"].contains(name),
                              "Store/\(file): async func \(name) forwards one query; make it a query value (StoreRead/StoreWrite)")
            }
        }
        for (file, text) in files {
            XCTAssertFalse(text.contains("func writing") || text.contains("func reading"),
                           "Store/\(file) has a forwarding helper (writing/reading); queries run through read/write")
        }
    }

    func testTheStoreWritesNoSemaphoreOrRawThreadLockOfItsOwn() throws {
        let forbidden = ["DispatchSemaphore", "pthread_mutex", "pthread_cond", "pthread_rwlock", "NSLock", "NSCondition",
                         "os_unfair_lock", "DispatchQueue("]
        for (file, text) in try Self.storeFiles() {
            for word in forbidden {
                XCTAssertFalse(text.contains(word),
                               "Store/\(file) uses \(word): the store's threads and waits come from the Executors module")
            }
        }
    }

    func testNothingCallsABlockingBridgeFromAsyncCode() throws {
        let sources = LayeringTests.sourcesDirectory
        guard let paths = FileManager.default.enumerator(atPath: sources.path) else { return XCTFail("no Sources") }
        for case let path as String in paths where path.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            XCTAssertFalse(text.contains("runBlocking"), "Sources/\(path) bridges async code by blocking a thread")
        }
    }
}
