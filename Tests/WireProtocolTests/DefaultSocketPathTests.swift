import Foundation
import WireProtocol
import XCTest

/// The socket both programs use when nothing names one.
final class DefaultSocketPathTests: XCTestCase {
    func testTheSocketLivesInItsOwnFolderOfTheXDGRuntimeDirectory() {
        XCTAssertEqual(DefaultSocketPath.resolve(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], uid: 1000),
                       "/run/user/1000/usefulmap/usefulmapd.sock")
    }

    func testWithoutARuntimeDirectoryTheFallbackFolderIsPerUser() {
        for environment in [[:], ["XDG_RUNTIME_DIR": ""]] {
            XCTAssertEqual(DefaultSocketPath.resolve(environment: environment, uid: 1000),
                           "/tmp/usefulmap-1000/usefulmap/usefulmapd.sock")
        }
    }
}
