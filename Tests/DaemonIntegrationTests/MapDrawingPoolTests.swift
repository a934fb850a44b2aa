import Foundation
import Glibc
import Synchronization
import WireProtocol
import XCTest

/// Pictures are drawn on threads of their own: while more maps are being drawn than the shared
/// pool has threads, `status` is still answered.
final class MapDrawingPoolTests: SharedTampereDaemonTestCase {
    func testStatusIsAnsweredWhileMoreMapsAreDrawingThanTheSharedPoolHasThreads() async throws {
        let harness = try harness
        let plan = try harness.json(["plan", "new", Tampere.keskustori, Tampere.railwayStation, "--mode", "walk"])
        let id = Int64(try XCTUnwrap(plan["id"]?.numberValue))
        // Twice the shared pool's width (one thread per core): on a pool that draws, `status`
        // queues behind a whole round of maps, whose answers start arriving first.
        let drawers = ProcessInfo.processInfo.activeProcessorCount * 2
        let mapsStarted = AnswerCount()
        let done = DispatchGroup(), sent = DispatchGroup()
        let socketPath = harness.socketPath
        let request = Array((#"{"jsonrpc":"2.0","id":1,"method":"plan.map","params":{"id":\#(id),"width":4096,"height":4096}}"# + "\n").utf8)
        for _ in 0..<drawers {
            done.enter()
            sent.enter()
            Thread {
                defer { done.leave() }
                guard let fd = try? WireClient.connectedSocket(path: socketPath) else { return sent.leave() }
                defer { close(fd) }
                _ = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                sent.leave()
                var buffer = [UInt8](repeating: 0, count: 65536)
                var count = read(fd, &buffer, buffer.count) // blocks until the answer starts coming
                mapsStarted.add()
                while count > 0, !buffer[0..<count].contains(0x0A) { count = read(fd, &buffer, buffer.count) }
            }.start()
        }
        sent.wait()
        usleep(300_000) // the maps have started
        let status = try await harness.client().call(Endpoints.status, Params.Empty())
        XCTAssertFalse(status.version.isEmpty)
        let answeredBeforeStatus = mapsStarted.value
        XCTAssertEqual(answeredBeforeStatus, 0, "status waited for \(answeredBeforeStatus) of \(drawers) maps to be drawn")
        XCTAssertEqual(done.wait(timeout: .now() + 300), .success, "every map is drawn in the end")
    }
}

/// How many answers came, from several threads.
private final class AnswerCount: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
