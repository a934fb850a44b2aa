@testable import Daemon
import Foundation
import Store
import TestSupport
import WireProtocol
import XCTest

/// The daemon answers every method the protocol names, so `umctl` never meets method_not_found.
final class MethodTableTests: XCTestCase {
    func testEveryWireMethodHasAHandler() throws {
        let directory = try DaemonHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = DaemonConfiguration(dataDirectory: directory.path, socketPath: directory.path + "/s.sock")
        let composition = DaemonComposition(configuration: configuration, store: try Store(path: configuration.databasePath),
                                            streets: StreetEngine(dataDirectory: directory, workers: 1), transit: TransitEngine(),
                                            transitImportStep: { TransitEngine.importStep(feeds: $0) })
        let missing = Set(WireMethod.allCases).subtracting(composition.table.methods)
        XCTAssertEqual(missing, [], "methods without a handler: \(missing.map(\.rawValue).sorted())")
        XCTAssertEqual(composition.table.duplicates, [])
    }

    /// As tailscale's local API does, a second handler for a method is refused, not swapped in:
    /// the first one answers, and the duplicate is named (the daemon refuses to start with one).
    func testASecondRegistrationOfAMethodIsRefusedAndTheFirstHandlerAnswers() async throws {
        @Sendable func hello(_ server: String) -> HelloDocument {
            HelloDocument(server: server, version: "1", protocolVersion: 1, oldestSupportedVersion: 1)
        }
        var table = MethodTable()
        table.register(Endpoints.hello, atOnce: { _, _ in hello("first") })
        table.register(Endpoints.hello) { _, _ in hello("second") }
        table.register(Endpoints.hello, atOnce: { _, _ in hello("third") })
        XCTAssertEqual(table.duplicates, [.hello, .hello])
        XCTAssertEqual(table.methods, [.hello])

        guard case .single(.success(let request)) = WireCodec.requests(from: Data(#"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocol_version":1}}"#.utf8)),
              let run = table.run(.hello) else { return XCTFail("no request or no handler") }
        let context = RequestContext(id: request.id, method: .hello, logger: DaemonLogger(level: .error) { _ in }) { _ in true }
        let answer = try await run(request, context)
        let envelope = try JSONSerialization.jsonObject(with: try XCTUnwrap(answer)) as? [String: Any]
        XCTAssertEqual((envelope?["result"] as? [String: Any])?["server"] as? String, "first", "\(envelope ?? [:])")
    }
}
