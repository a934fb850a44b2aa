import Foundation
import Glibc
import TestSupport
import XCTest

/// Started with descriptors 0-2 closed, the daemon holds them on /dev/null: its epoll and
/// eventfd never take 1 or 2, so no log line is ever written into them.
final class ClosedStandardDescriptorsTests: XCTestCase {
    func testStartedWithZeroToTwoClosedTheDaemonHoldsThemOnDevNullAndServes() throws {
        let harness = try makeDaemon()
        try harness.start(launcher: ["/bin/sh", "-c", "exec \"$0\" \"$@\" <&- >&- 2>&-"])
        let pid = try XCTUnwrap(harness.process?.processIdentifier)
        for descriptor in 0...2 {
            let target = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)")
            XCTAssertEqual(target, "/dev/null", "descriptor \(descriptor)")
        }
        // A request that logs, then another: the event loop still wakes (its eventfd was never written by the log).
        XCTAssertEqual(try harness.umctl(["place", "save", "Home", "61.49780,23.76100"]).status, 0)
        XCTAssertEqual(try harness.umctl(["status"]).status, 0)
    }
}
