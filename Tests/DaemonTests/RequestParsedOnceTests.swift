@testable import Daemon
import Foundation
import Glibc
import Synchronization
import TestSupport
import WireProtocol
import XCTest

/// Issue 45: each request line is parsed once, whoever reads it first (the connection's I/O
/// thread looking for an at-once answer, or the answering task) carrying the parse on to the
/// answer, for a shutting-down answer's id too. A dispatcher with a counting parser serves a
/// real connection over a socket pair.
final class RequestParsedOnceTests: XCTestCase {
    /// The test speaks on one end; the connection serves the other.
    private var pair: SocketPairClient!
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
        pair = try SocketPairClient()
        let logger = DaemonLogger(level: .warning) { _ in }
        let parses = parses
        dispatcher = RequestDispatcher(table: table, counters: DaemonCounters(), logger: logger) { line in
            parses.add()
            return WireCodec.requests(from: line)
        }
        connection = try XCTUnwrap(Connection(id: 1, fd: pair.servedEnd, peer: try XCTUnwrap(PeerCredentials.of(pair.servedEnd)),
                                              limits: ConnectionLimits(), trace: nil))
        let finished = finished
        connection.start(dispatcher: dispatcher, logger: logger, on: ServerThreads()) { _ in finished.signal() }
    }

    override func tearDown() {
        if let pair, pair.fd >= 0 {
            pair.close()
            finished.wait()
        }
        connection = nil
        dispatcher = nil
    }

    private func send(_ text: String) {
        XCTAssertEqual(pair.send(text), text.utf8.count)
    }

    /// Reads `count` answer lines (each bounded by the socket's receive timeout).
    private func answers(_ count: Int) throws -> [JSONValue] { try pair.answers(count) }

    private final class Count: Sendable {
        private let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
        func add() { count.withLock { $0 += 1 } }
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
