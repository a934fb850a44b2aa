import Foundation
import XCTest

extension XCTestCase {
    /// A daemon harness on a new data directory (with the regions of `regionsFrom` copied in),
    /// not started: for a test that prepares its folders first, starts it with arguments of its
    /// own, restarts it (`stop()`, then `start(…)` again) or launches it itself. When the test
    /// ends its daemon is stopped, its exit status asserted 0 unless `assertingCleanExit` is
    /// false, and its directory removed.
    public func makeDaemon(regionsFrom source: URL? = nil, assertingCleanExit: Bool = true,
                           file: StaticString = #filePath, line: UInt = #line) throws -> DaemonHarness {
        let harness = try DaemonHarness(regionsFrom: source)
        addTeardownBlock { harness.tearDown(assertingCleanExit: assertingCleanExit, file: file, line: line) }
        return harness
    }

    /// A daemon on a new data directory (with the regions of `regionsFrom` copied in), started
    /// with `extraArguments`, and stopped when the test ends: its exit status is asserted 0 unless
    /// `assertingCleanExit` is false, and its directory is removed. Stopping it earlier is fine.
    public func startDaemon(regionsFrom source: URL? = nil, extraArguments: [String] = [], environment: [String: String] = [:],
                            standardError: FileHandle? = nil, launcher: [String] = [], assertingCleanExit: Bool = true,
                            file: StaticString = #filePath, line: UInt = #line) throws -> DaemonHarness {
        // Its tear-down is registered before starting, so a daemon that starts but never serves is still stopped.
        let harness = try makeDaemon(regionsFrom: source, assertingCleanExit: assertingCleanExit, file: file, line: line)
        try harness.start(extraArguments: extraArguments, environment: environment, standardError: standardError, launcher: launcher)
        return harness
    }
}

/// A test class each of whose tests gets a daemon of its own, started by `setUp` on the regions
/// of `regionsSource()` with `daemonArguments`, and stopped at tear-down with exit status 0.
open class DaemonTestCase: XCTestCase {
    public var harness: DaemonHarness!

    /// A data directory whose regions each test's daemon starts with; none by default.
    open func regionsSource() throws -> URL? { nil }

    /// Arguments added to every daemon of the class (`["--clock-start", …]`).
    open var daemonArguments: [String] { [] }

    open override func setUpWithError() throws {
        try super.setUpWithError()
        harness = try startDaemon(regionsFrom: try regionsSource(), extraArguments: daemonArguments)
    }

    open override func tearDown() {
        harness = nil
        super.tearDown()
    }
}

/// A test class each of whose tests gets a daemon of its own on the Tampere region (a copy of
/// the region imported once per run), for tests that change what others would see.
open class TampereDaemonTestCase: DaemonTestCase {
    open override func regionsSource() throws -> URL? { try TampereRegion.dataDirectory() }
}

/// A test class whose tests share one daemon, made by `makeSharedDaemon()` once for the class
/// (an import takes seconds). Classes run one after another, so one slot serves all.
open class SharedDaemonTestCase: XCTestCase {
    nonisolated(unsafe) public static var shared: DaemonHarness?

    /// The class's daemon, started (and its regions imported) by the subclass.
    open class func makeSharedDaemon() throws -> DaemonHarness {
        let harness = try DaemonHarness()
        try harness.start()
        return harness
    }

    open override class func setUp() {
        super.setUp()
        do {
            shared = try makeSharedDaemon()
        } catch {
            XCTFail("cannot start the daemon of \(self): \(error)")
        }
    }

    open override class func tearDown() {
        shared?.tearDown()
        shared = nil
        super.tearDown()
    }

    public var harness: DaemonHarness {
        get throws { try XCTUnwrap(Self.shared, "no daemon") }
    }
}

/// A test class whose tests share one daemon on the Tampere region, started once for the class.
open class SharedTampereDaemonTestCase: SharedDaemonTestCase {
    open override class func makeSharedDaemon() throws -> DaemonHarness {
        let harness = try DaemonHarness(regionsFrom: try TampereRegion.dataDirectory())
        try harness.start()
        return harness
    }
}
