import Foundation
import WireProtocol
import XCTest

/// A batch line costs the daemon a bounded amount: at most `WireLimits.maximumBatchCalls`
/// calls, answers within the connection's output limit, and nothing more once its client left.
final class BatchLimitsTests: XCTestCase {
    private func statusBatch(_ count: Int) -> Data {
        let calls = (0..<count).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"status"}"# }
        return Data(("[" + calls.joined(separator: ",") + "]\n").utf8)
    }

    func testBatchOfMoreCallsThanTheCapGetsOneInvalidRequestNamingTheCap() throws {
        let harness = try startDaemon()
        let before = try harness.counters().requests
        let client = try harness.client()
        try client.send(statusBatch(WireLimits.maximumBatchCalls + 1))
        guard case .object(let answer) = try JSONParser.parse(try client.receiveLine()) else {
            return XCTFail("a batch over the cap was answered call by call, not with one error")
        }
        let error = try WireCodec.decoder.decode(WireError.self, from: JSONWriter.data(try XCTUnwrap(answer["error"])))
        XCTAssertEqual(error.code, WireError.Code.invalidRequest.rawValue)
        XCTAssertTrue(error.message.contains("\(WireLimits.maximumBatchCalls)"), error.message)
        XCTAssertEqual(try harness.counters().requests, before + 2, "no call of the refused batch ran (only the counters' status calls)")

        try client.send(statusBatch(WireLimits.maximumBatchCalls))
        guard case .array(let answers) = try JSONParser.parse(try client.receiveLine()) else { return XCTFail("a batch at the cap") }
        XCTAssertEqual(answers.count, WireLimits.maximumBatchCalls)
    }

    func testBatchWhoseAnswersPassTheOutputLimitStopsWithAnswerTooLarge() async throws {
        let harness = try startDaemon(extraArguments: ["--max-output-kb", "16"])
        let before = try harness.counters().requests
        let client = try harness.client()
        try client.send(statusBatch(100)) // a status answer is about 500 bytes: 100 of them pass 16 KiB
        let line = try client.receiveLine()
        XCTAssertLessThan(line.count, 16 << 10)
        guard case .object(let answer) = try JSONParser.parse(line) else {
            return XCTFail("the batch's answers were sent whole (\(line.count) bytes) past the output limit")
        }
        let error = try WireCodec.decoder.decode(WireError.self, from: JSONWriter.data(try XCTUnwrap(answer["error"])))
        XCTAssertEqual(error.code, WireError.Code.answerTooLarge.rawValue)
        XCTAssertTrue(error.message.contains("\(16 << 10) bytes"), error.message)
        let ran = try harness.counters().requests - before - 2
        XCTAssertLessThan(ran, 100, "the calls after the limit were not run")
        // The connection stays usable.
        await XCTAssertNoThrowAsync(try await client.call(Endpoints.status, Params.Empty()))
    }
}

/// A batch stops between its calls when its client hangs up (`SharedTampereDaemonTestCase`:
/// pictures of Tampere's streets take long enough to see it).
final class BatchCancellationTests: SharedTampereDaemonTestCase {
    func testBatchIsCancelledBetweenItsCallsWhenItsClientHangsUp() throws {
        let harness = try harness
        let plan = try harness.json(["plan", "new", Tampere.keskustori, Tampere.railwayStation, "--mode", "walk"])
        let id = Int64(try XCTUnwrap(plan["id"]?.numberValue))
        let calls = WireLimits.maximumBatchCalls
        let map = #"{"jsonrpc":"2.0","id":ID,"method":"plan.map","params":{"id":\#(id),"width":1024,"height":1024}}"#
        let line = "[" + (0..<calls).map { map.replacingOccurrences(of: "ID", with: String($0)) }.joined(separator: ",") + "]\n"
        let before = try harness.counters().requests
        do {
            let client = try harness.client()
            try client.send(Data(line.utf8))
        } // closed: the client hung up
        // A liveness deadline only: either the daemon says it stopped the batch, or it ran it all.
        let deadline = Date().addingTimeInterval(90)
        var ran = 0
        while Date() < deadline, !harness.log.contains("batch cancelled") {
            ran = try harness.counters().requests - before
            if ran > calls + 10 { break } // every call ran (and some status calls of this loop)
            usleep(200_000)
        }
        let cancelled = harness.log.split(separator: "\n").first { $0.contains("batch cancelled") }
        XCTAssertNotNil(cancelled, "the batch went on after its client hung up (\(ran) requests counted)")
        if let cancelled {
            XCTAssertTrue(cancelled.contains("calls_run"), String(cancelled))
            XCTAssertFalse(cancelled.contains("calls_run=\(calls)"), String(cancelled))
        }
    }
}
