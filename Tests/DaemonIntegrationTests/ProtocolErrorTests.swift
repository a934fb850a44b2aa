import Foundation
import WireProtocol
import XCTest

/// Bad input on the socket gets an error naming the problem, and hurts no other client.
final class ProtocolErrorTests: DaemonTestCase {
    func response(to line: String, on client: WireClient) throws -> WireResponse {
        try client.send(Data((line + "\n").utf8))
        guard case .response(let response) = try client.receive() else { throw HarnessError("expected a response") }
        return response
    }

    func testMalformedJSONGetsParseErrorAndTheConnectionStaysUsable() async throws {
        let client = try harness.client()
        XCTAssertEqual(try response(to: "{\"jsonrpc\":\"2.0\",", on: client).error?.code, "parse_error")
        await XCTAssertNoThrowAsync(try await client.call(Endpoints.status, Params.Empty()))
    }

    func testUnknownMethodIsNamedInTheError() throws {
        let error = try response(to: #"{"jsonrpc":"2.0","id":5,"method":"plan.teleport","params":{}}"#, on: harness.client()).error
        XCTAssertEqual(error?.code, "method_not_found")
        XCTAssertTrue(error?.message.contains("plan.teleport") ?? false)
    }

    func testMissingAndIllTypedParamsEachNameTheParam() throws {
        let client = try harness.client()
        let missing = try response(to: #"{"jsonrpc":"2.0","id":1,"method":"plan.show","params":{}}"#, on: client).error
        XCTAssertEqual(missing?.code, "invalid_params")
        XCTAssertTrue(missing?.message.contains("\"id\"") ?? false, missing?.message ?? "")
        let illTyped = try response(to: #"{"jsonrpc":"2.0","id":2,"method":"location.set","params":{"lat":"north","lon":1}}"#, on: client).error
        XCTAssertEqual(illTyped?.code, "invalid_params")
        XCTAssertTrue(illTyped?.message.contains("\"lat\"") ?? false, illTyped?.message ?? "")
    }

    func testRequestWithNullIDIsInvalid() throws {
        XCTAssertEqual(try response(to: #"{"jsonrpc":"2.0","id":null,"method":"status"}"#, on: harness.client()).error?.code,
                       "invalid_request")
    }

    func testOversizedLineGetsAnErrorThenTheConnectionCloses() async throws {
        let client = try harness.client()
        let huge = Data(repeating: UInt8(ascii: "x"), count: WireLimits.maximumLineBytes + 10) + Data([0x0A])
        try? client.send(huge) // the daemon may close before everything is written
        guard case .response(let response) = try client.receive() else { return XCTFail("expected a response") }
        XCTAssertEqual(response.error?.code, "line_too_long")
        XCTAssertThrowsError(try client.receiveLine(), "the daemon closes the connection after line_too_long")
        await XCTAssertNoThrowAsync(try await harness.client().call(Endpoints.status, Params.Empty()), "other connections are unaffected")
    }

    func testBadClientDoesNotDisturbAnotherClientsWork() async throws {
        let good = try harness.client()
        _ = try await good.call(Endpoints.locationSet, Params.LocationSet(lat: 61.5, lon: 23.76))
        let bad = try harness.client()
        _ = try response(to: "garbage", on: bad)
        _ = try response(to: #"{"jsonrpc":"2.0","id":1,"method":"nope"}"#, on: bad)
        let location = try await good.call(Endpoints.locationShow, Params.Empty())
        XCTAssertEqual(location.lat, 61.5)
    }

    func testUnknownPlanIsNotFound() throws {
        let result = try harness.umctl(["plan", "show", "999"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "umctl: plan 999 does not exist\n")
    }

    func testRoutingWithoutARegionSaysNoRegionInsteadOfFakingAnAnswer() throws {
        let result = try harness.umctl(["compare", Tampere.keskustori, Tampere.hervanta])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.hasPrefix("umctl: no region imported: run `umctl region import"), result.stderr)
        XCTAssertEqual(try harness.counters().routingQueries.total, 0)
    }

    func testOldClientGetsAClearVersionError() throws {
        let error = try response(to: #"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocol_version":99}}"#,
                                 on: harness.client()).error
        XCTAssertEqual(error?.code, "unsupported_version")
        XCTAssertTrue(error?.message.contains("99") ?? false)
    }

    func testClientHangingUpCancelsItsRunningRequest() throws {
        let observer = try harness.client()
        // Synchronous, for the loops' conditions and the assertions' autoclosures.
        func counters() throws -> CountersDocument { try runToEnd { try await observer.call(Endpoints.status, Params.Empty()).counters } }
        do {
            let watcher = try harness.client()
            try watcher.send(WireCodec.line(for: WireRequest(id: .number(1), method: "watch", params: .object([:]))))
            for _ in 0..<400 where try counters().watchers == 0 { usleep(10_000) }
            XCTAssertEqual(try counters().watchers, 1, "the watch is running")
            XCTAssertEqual(try counters().connections, 2)
        } // the watcher's socket closes here, mid-request
        for _ in 0..<400 where try counters().watchers > 0 || counters().connections > 1 { usleep(10_000) }
        XCTAssertEqual(try counters().watchers, 0, "the hang-up cancelled the running watch")
        XCTAssertEqual(try counters().connections, 1)
        // The log line may land a moment after the counters change: wait for it, bounded.
        for _ in 0..<400 where !harness.log.contains("client hung up; cancelling its request") { usleep(10_000) }
        XCTAssertTrue(harness.log.contains("client hung up; cancelling its request"), harness.log)
    }

    func testDisconnectingClientDoesNotStopTheDaemon() async throws {
        do {
            let client = try harness.client()
            try client.send(Data(#"{"jsonrpc":"2.0","id":1,"method":"status"}"#.utf8)) // no newline, then gone
        }
        await XCTAssertNoThrowAsync(try await harness.client().call(Endpoints.status, Params.Empty()))
    }
}
