import Daemon
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
    }
}
