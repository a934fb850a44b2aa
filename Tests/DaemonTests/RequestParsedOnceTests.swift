@testable import Daemon
import Foundation
import Glibc
import Synchronization
import WireProtocol
import XCTest

/// Issue 45: each request line is parsed once, whoever reads it first (the connection's I/O
/// thread looking for an at-once answer, or the answering task) carrying the parse on to the
/// answer, for a shutting-down answer's id too. A dispatcher with a counting parser serves a
/// real connection over a socket pair.
final class RequestParsedOnceTests: XCTestCase {
    private var client: Int32 = -1
    private var connection: Connection!
    private var dispatcher: RequestDispatcher!
    private let parses = Count()
    private let finished = DispatchSemaphore(value: 0)

    override func setUpWithError() throws {
        var table = MethodTable()
        table.register(Endpoints.hello, atOnce: { _, _ in
            HelloDocument(server: "test", version: "1", protocolVersion: ProtocolVersion.current, oldestSupportedVersion: 1)
        })
        table.register(Endpoints.placeList) { _, _ in PlaceListDocument(places: []) }
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends), 0)
        client = ends[1]
        // Only a safety net, so that a connection that never answers fails the test instead of hanging it.
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let logger = DaemonLogger(level: .warning) { _ in }
        let parses = parses
        dispatcher = RequestDispatcher(table: table, counters: DaemonCounters(), logger: logger) { line in
            parses.add()
            return WireCodec.requests(from: line)
        }
        connection = try XCTUnwrap(Connection(id: 1, fd: ends[0], peer: try XCTUnwrap(PeerCredentials.of(ends[0])),
                                              limits: ConnectionLimits(), trace: nil))
        let finished = finished
        connection.start(dispatcher: dispatcher, logger: logger, on: ServerThreads()) { _ in finished.signal() }
    }

    override func tearDown() {
        if client >= 0 {
            close(client)
            finished.wait()
        }
        connection = nil
        dispatcher = nil
    }

    private func send(_ text: String) {
        let bytes = Array(text.utf8)
        XCTAssertEqual(bytes.withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, 0) }, bytes.count)
    }

    /// Reads `count` answer lines (each bounded by the socket's receive timeout).
    private func answers(_ count: Int) throws -> [JSONValue] {
        var lines: [JSONValue] = [], pending = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while lines.count < count {
            let read = recv(client, &buffer, buffer.count, 0)
            guard read > 0 else { throw NoMoreAnswers(received: lines.count, expected: count) }
            pending.append(contentsOf: buffer[0..<read])
            while let end = pending.firstIndex(of: 0x0A) {
                lines.append(try JSONParser.parse(pending[pending.startIndex..<end]))
                pending = Data(pending[(end + 1)...])
            }
        }
        return lines
    }

    private final class Count: Sendable {
        private let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
        func add() { count.withLock { $0 += 1 } }
    }

    private struct NoMoreAnswers: Error {
        let received: Int, expected: Int
    }

    func testEachRequestLineIsParsedOnceWhereverItIsAnswered() throws {
        let lines = [
            #"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocol_version":\#(ProtocolVersion.current)}}"#, // at once
            #"{"jsonrpc":"2.0","id":2,"method":"place.list"}"#, // looked at by the I/O thread, answered by the task
            #"{"jsonrpc":"2.0","id":3,"method":"hello","params":{"protocol_version":\#(ProtocolVersion.current)}}"#,
            #"[{"jsonrpc":"2.0","id":4,"method":"hello","params":{"protocol_version":\#(ProtocolVersion.current)}},"#
                + #"{"jsonrpc":"2.0","id":5,"method":"place.list"}]"#,
            #"{"jsonrpc":"2.0","method":"place.list"}"#, // a notification: no answer
            "  ", // a blank line: no request
            "{not json",
            #"{"jsonrpc":"2.0","id":6,"method":"place.list"}"#,
        ]
        send(lines.joined(separator: "\n") + "\n")
        let answered = try answers(6)
        XCTAssertEqual(answered[0]["id"], .number(1))
        XCTAssertEqual(answered[1]["id"], .number(2))
        XCTAssertEqual(answered[2]["id"], .number(3))
        XCTAssertEqual(answered[3].arrayValue?.map { $0["id"] }, [.number(4), .number(5)])
        XCTAssertEqual(answered[4]["error"]?["code"], .number(-32700), "\(answered[4])")
        XCTAssertEqual(answered[5]["id"], .number(6))
        XCTAssertNotNil(answered[5]["result"]?["places"], "\(answered[5])")
        XCTAssertEqual(parses.value, lines.count - 1, "one parse per line that is not blank")
    }

    func testALineRefusedWhileShuttingDownIsParsedOnceForItsID() throws {
        connection.drain()
        send(#"{"jsonrpc":"2.0","id":9,"method":"place.list"}"# + "\n")
        let answered = try answers(1)
        XCTAssertEqual(answered[0]["id"], .number(9))
        XCTAssertEqual(answered[0]["error"]?["message"], .string("usefulmapd is shutting down"), "\(answered[0])")
        XCTAssertEqual(parses.value, 1)
    }
}
