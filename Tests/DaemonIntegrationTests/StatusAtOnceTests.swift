@testable import Daemon
import Foundation
import Glibc
import Store
import Synchronization
import WireProtocol
import XCTest

/// Issue 27 (speed): `status` and `hello` are answered by the connection's own I/O thread, so
/// they never wait for Swift's cooperative pool, which 16 writing clients keep busy; an answer
/// given at once never overtakes the answer of an earlier request on its connection; the I/O
/// thread traces its answers' times when asked to.
final class StatusAtOnceTests: XCTestCase {
    private var directory: URL!
    private var composition: DaemonComposition!
    /// The test speaks on one end; the connection serves the other.
    private var pair: SocketPairClient!
    private var connection: Connection!
    /// Owned here, as the daemon's server owns it: a connection holds it only weakly.
    private var dispatcher: RequestDispatcher!
    private let finished = DispatchSemaphore(value: 0)
    private var tracePath: String { directory.path + "/at-once-trace.jsonl" }

    override func setUpWithError() throws {
        directory = try DaemonHarness.temporaryDirectory()
        let configuration = DaemonConfiguration(dataDirectory: directory.path, socketPath: directory.path + "/s.sock")
        composition = DaemonComposition(configuration: configuration, store: try Store(path: configuration.databasePath),
                                        streets: StreetEngine(dataDirectory: directory, workers: 1), transit: TransitEngine(),
                                        transitImportStep: { TransitEngine.importStep(feeds: $0) })
        pair = try SocketPairClient()
        let logger = DaemonLogger(level: .warning) { _ in }
        connection = try XCTUnwrap(Connection(id: 1, fd: pair.servedEnd, peer: try XCTUnwrap(PeerCredentials.of(pair.servedEnd)),
                                              limits: ConnectionLimits(), trace: AtOnceTrace(path: tracePath)))
        let finished = finished
        dispatcher = RequestDispatcher(table: composition.table, counters: composition.counters, logger: logger)
        connection.start(dispatcher: dispatcher, logger: logger, on: ServerThreads()) { _ in finished.signal() }
    }

    override func tearDown() {
        hangUp()
        connection = nil
        dispatcher = nil
        composition = nil
        try? FileManager.default.removeItem(at: directory)
    }

    /// Closes the test's end and waits for the connection's thread to finish.
    private func hangUp() {
        guard let pair, pair.fd >= 0 else { return }
        pair.close()
        finished.wait()
    }

    /// Occupies every thread of the cooperative pool until `release` is called.
    private final class BlockedPool: @unchecked Sendable {
        private let gate = DispatchSemaphore(value: 0)
        private let width = ProcessInfo.processInfo.activeProcessorCount

        init() {
            let started = DispatchSemaphore(value: 0)
            for _ in 0..<width {
                Task.detached { [gate] in
                    started.signal()
                    gate.wait()
                }
            }
            for _ in 0..<width { started.wait() }
        }

        func release() {
            for _ in 0..<width { gate.signal() }
        }
    }

    private func send(_ text: String) {
        XCTAssertEqual(pair.send(text), text.utf8.count)
    }

    /// The next `count` answer lines, each parsed.
    private func answers(_ count: Int) throws -> [JSONValue] { try pair.answers(count) }

    func testStatusAndHelloAreAnsweredWhileEveryThreadOfTheCooperativePoolIsBusy() throws {
        let pool = BlockedPool()
        send(#"{"jsonrpc":"2.0","id":1,"method":"status"}"# + "\n" + #"{"jsonrpc":"2.0","id":2,"method":"hello","params":{"protocol_version":"# + "\(ProtocolVersion.current)}}\n")
        let answered: [JSONValue]
        do {
            answered = try answers(2)
        } catch {
            pool.release()
            return XCTFail("status and hello waited for the blocked pool: \(error)")
        }
        pool.release()
        XCTAssertEqual(answered.map { $0["id"] }, [.number(1), .number(2)])
        XCTAssertNotNil(answered[0]["result"]?["protocol_version"], "\(answered[0])")
        XCTAssertNotNil(answered[0]["result"]?["refresh_queue"], "\(answered[0])")
        XCTAssertEqual(answered[1]["result"]?["server"], .string("usefulmapd"), "\(answered[1])")
    }

    func testAStatusBehindAnUnansweredRequestIsAnsweredAfterIt() throws {
        let pool = BlockedPool() // place.list waits for the pool; status could be answered at once
        send(#"{"jsonrpc":"2.0","id":1,"method":"place.list"}"# + "\n" + #"{"jsonrpc":"2.0","id":2,"method":"status"}"# + "\n")
        pool.release()
        let answered = try answers(2)
        XCTAssertEqual(answered.map { $0["id"] }, [.number(1), .number(2)], "answers in the order of their requests")
        XCTAssertNotNil(answered[0]["result"]?["places"], "\(answered[0])")
        XCTAssertNotNil(answered[1]["result"]?["protocol_version"], "\(answered[1])")
    }

    func testEachAnswerGivenAtOnceIsTracedWithTheDaemonsTimeWhenAsked() throws {
        send(#"{"jsonrpc":"2.0","id":1,"method":"status"}"# + "\n")
        _ = try answers(1)
        send(#"{"jsonrpc":"2.0","id":2,"method":"hello","params":{"protocol_version":"# + "\(ProtocolVersion.current)}}\n")
        _ = try answers(1)
        send(#"{"jsonrpc":"2.0","id":3,"method":"place.list"}"# + "\n") // answered by the task: not traced
        _ = try answers(1)
        hangUp() // the line is written when the connection closes
        let lines = try String(contentsOfFile: tracePath, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 1)
        let line = try JSONParser.parse(Data(lines[0].utf8))
        XCTAssertEqual(line["connection"], .number(1))
        XCTAssertEqual(line["pid"], .number(Double(getpid())), "the client's pid, which the bench looks for")
        let times = try XCTUnwrap(line["answer_ns"]?.arrayValue)
        XCTAssertEqual(times.count, 2, "status and hello, not place.list: \(line)")
        for time in times { XCTAssertGreaterThan(try XCTUnwrap(time.numberValue), 0) }
        XCTAssertEqual(line["unsent"], .number(0))
        XCTAssertNotNil(line["run_delay_ns"]?.numberValue, "\(line)")
        XCTAssertNotNil(line["timeslices"]?.numberValue, "\(line)")
    }

    /// umctl sends `hello` and `status` in one write: the hello's answer, queued and not yet
    /// sent, does not send the status to the answering task.
    func testAHelloAndAStatusInOneWriteAreBothAnsweredAtOnce() throws {
        send(#"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocol_version":"# + "\(ProtocolVersion.current)}}\n"
             + #"{"jsonrpc":"2.0","id":2,"method":"status"}"# + "\n")
        let answered = try answers(2)
        XCTAssertEqual(answered.map { $0["id"] }, [.number(1), .number(2)], "in order")
        hangUp()
        let lines = try String(contentsOfFile: tracePath, encoding: .utf8).split(separator: "\n")
        let times = try XCTUnwrap(try JSONParser.parse(Data(XCTUnwrap(lines.first).utf8))["answer_ns"]?.arrayValue)
        XCTAssertEqual(times.count, 2, "both answered by the I/O thread")
    }

    /// Issue 26 (speed): a connection that asks only what its I/O thread answers (`umctl
    /// status`: `hello` and `status` in one write) starts no answering task; the first request
    /// for the pool starts it, and is answered.
    func testAConnectionAskingOnlyStatusStartsNoAnsweringTaskUntilARequestNeedsThePool() throws {
        send(#"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocol_version":"# + "\(ProtocolVersion.current)}}\n"
             + #"{"jsonrpc":"2.0","id":2,"method":"status"}"# + "\n")
        _ = try answers(2)
        XCTAssertFalse(connection.answeringStarted)
        send(#"{"jsonrpc":"2.0","id":3,"method":"place.list"}"# + "\n")
        let answered = try answers(1)
        XCTAssertNotNil(answered[0]["result"]?["places"], "\(answered[0])")
        XCTAssertTrue(connection.answeringStarted)
    }

    /// Without an answering task, a client that ends its input still gets its answers, and
    /// then the connection closes by itself.
    func testAConnectionAskingOnlyStatusThatEndsItsInputIsAnsweredThenClosed() throws {
        send(#"{"jsonrpc":"2.0","id":1,"method":"status"}"# + "\n")
        XCTAssertEqual(pair.shutdownWriting(), 0)
        let answered = try answers(1)
        XCTAssertNotNil(answered[0]["result"]?["protocol_version"], "\(answered[0])")
        finished.wait() // the connection ends by itself (`hangUp` is not needed)
        var byte: UInt8 = 0
        XCTAssertEqual(recv(pair.fd, &byte, 1, 0), 0, "the daemon closed its end")
        XCTAssertFalse(connection.answeringStarted)
        pair.close()
    }

    /// Issue 26 (speed): `hello`'s answer is written from its document encoded once, the same
    /// bytes as `WireCodec` encodes the whole answer, for an integer id and a string id.
    func testTheHelloAnswerIsTheWholeAnswerEncodedAtOnce() throws {
        for (id, text) in [(RequestID.number(7), "7"), (.string("a\"b"), #""a\"b""#)] {
            let line = Data((#"{"jsonrpc":"2.0","id":"# + text + #","method":"hello","params":{"protocol_version":"#
                             + "\(ProtocolVersion.current)}}").utf8)
            let expected = try WireCodec.resultAnswer(id: id, result: StatusMethods.helloDocument) + [0x0A]
            XCTAssertEqual(dispatcher.answerAtOnce(to: line, connection: 1), .answered(expected), text)
            XCTAssertEqual(dispatcher.answerAtOnce(to: line, connection: 1), .answered(expected), "kept: \(text)")
        }
    }
}
