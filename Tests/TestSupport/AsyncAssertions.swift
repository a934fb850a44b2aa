import XCTest

// XCTest's assertions take synchronous autoclosures, which cannot await a `WireClient` call:
// these are `XCTAssertThrowsError` and `XCTAssertNoThrow` for an async expression, with the
// same failure messages. `nonisolated(nonsending)`: the expression runs on the test's own
// executor, so a client it captures is not sent anywhere.

/// Fails unless `expression` throws; hands the error to `errorHandler`.
nonisolated(nonsending)
public func XCTAssertThrowsErrorAsync<T>(_ expression: @autoclosure () async throws -> T, _ message: @autoclosure () -> String = "",
                                         file: StaticString = #filePath, line: UInt = #line,
                                         _ errorHandler: (_ error: any Error) -> Void = { _ in }) async {
    do {
        _ = try await expression()
        let text = message()
        XCTFail("XCTAssertThrowsError failed: did not throw an error" + (text.isEmpty ? "" : " - \(text)"), file: file, line: line)
    } catch {
        errorHandler(error)
    }
}

/// Fails when `expression` throws, naming the error.
nonisolated(nonsending)
public func XCTAssertNoThrowAsync<T>(_ expression: @autoclosure () async throws -> T, _ message: @autoclosure () -> String = "",
                                     file: StaticString = #filePath, line: UInt = #line) async {
    do {
        _ = try await expression()
    } catch {
        let text = message()
        XCTFail("XCTAssertNoThrow failed: threw error \"\(error)\"" + (text.isEmpty ? "" : " - \(text)"), file: file, line: line)
    }
}
