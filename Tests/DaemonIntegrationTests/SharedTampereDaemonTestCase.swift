import XCTest

/// A test class whose tests share one daemon on the Tampere region, started once for the class
/// (importing Tampere takes seconds). Classes run one after another, so one slot serves all.
class SharedTampereDaemonTestCase: XCTestCase {
    nonisolated(unsafe) static var shared: DaemonHarness?

    override class func setUp() {
        super.setUp()
        do {
            let harness = try DaemonHarness(regionsFrom: try TampereRegion.dataDirectory())
            try harness.start()
            shared = harness
        } catch {
            XCTFail("cannot start the daemon on Tampere: \(error)")
        }
    }

    override class func tearDown() {
        if let shared { XCTAssertEqual(shared.stop(), 0, shared.log) }
        shared = nil
        super.tearDown()
    }

    var harness: DaemonHarness {
        get throws { try XCTUnwrap(Self.shared, "no daemon") }
    }
}

/// A test class each of whose tests gets a daemon of its own on the Tampere region (a copy of
/// the region imported once per run), for tests that change what others would see.
class TampereDaemonTestCase: XCTestCase {
    var harness: DaemonHarness!

    override func setUpWithError() throws {
        harness = try DaemonHarness(regionsFrom: try TampereRegion.dataDirectory())
        try harness.start()
    }

    override func tearDown() {
        if let harness { XCTAssertEqual(harness.stop(), 0, harness.log) }
        harness = nil
        super.tearDown()
    }
}
