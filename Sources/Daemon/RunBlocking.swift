import Foundation

/// Runs blocking work (an import, a long SQLite job) on its own thread so it never holds one
/// of the few cooperative threads Swift concurrency has.
func runBlocking<T: Sendable>(_ name: String, _ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
        }
        thread.name = name
        thread.start()
    }
}
