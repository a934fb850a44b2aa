import Foundation
import WireProtocol
import XCTest

/// Errors say what is wrong in words a person reads: which param, which edit, which file and why.
final class ReadableErrorMessagesTests: DaemonTestCase {
    func error(_ method: String, _ params: String) async throws -> WireError {
        do {
            _ = try await harness.client().call(method, params: try JSONParser.parse(Data(params.utf8)))
        } catch let error as WireError {
            return error
        }
        throw HarnessError("\(method) \(params) did not fail")
    }

    func testAFractionalOrHugeIntegerParamIsNamedWithItsValue() async throws {
        let fractional = try await error("plan.show", #"{"id":1.5}"#)
        XCTAssertEqual(fractional.code, "invalid_params")
        XCTAssertEqual(fractional.message, #"param "id" must be an integer, got 1.5"#)
        let huge = try await error("plan.show", #"{"id":1e30,"geometry":true}"#)
        XCTAssertTrue(huge.message.hasPrefix(#"param "id" must be an integer, got 1"#), huge.message)
    }

    func testAnEditThatIsNotAPlanEditIsNamedWithTheEditsThatExist() async throws {
        let error = try await error("plan.edits", #"{"id":1,"edits":[{"method":"plan.mode","params":{"segment":1,"mode":"car"}},{"method":"plan.copy","params":{"title":"x"}}]}"#)
        XCTAssertEqual(error.code, "invalid_params")
        XCTAssertFalse(error.message.contains("DecodingError"), error.message)
        XCTAssertFalse(error.message.contains("Context("), error.message)
        XCTAssertTrue(error.message.contains(#"edit 2 (plan.copy): "plan.copy" is not a plan edit method; the edits are plan.insert"#),
                      error.message)
    }

    func testAFractionalNumberInAnEditIsNamedWithItsEditAndParam() async throws {
        let error = try await error("plan.edits", #"{"id":1,"edits":[{"method":"plan.mode","params":{"segment":1.5,"mode":"car"}}]}"#)
        XCTAssertEqual(error.code, "invalid_params")
        XCTAssertEqual(error.message, #"param "edits": edit 1 (plan.mode): param "segment" must be an integer, got 1.5"#)
    }

    func testUmctlTellsAMissingFileFromAFolder() throws {
        let missing = try harness.umctl(["batch", "no-such-batch.txt"])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.stderr.contains("cannot read no-such-batch.txt: no such file"), missing.stderr)
        let folder = try harness.umctl(["batch", harness.dataDirectory.path])
        XCTAssertTrue(folder.stderr.contains("it is a folder, not a file"), folder.stderr)
        let osm = try harness.umctl(["region", "import", "x", "--osm", "missing.osm.pbf", "--no-transit"])
        XCTAssertTrue(osm.stderr.contains("cannot read missing.osm.pbf: no such file"), osm.stderr)
    }

    func testUmctlSaysWhenAFileExistsButMayNotBeRead() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            throw XCTSkip("needs root and setpriv to run umctl as another user")
        }
        let file = harness.directory.appendingPathComponent("private.txt")
        try Data("status\n".utf8).write(to: file)
        chmod(file.path, 0o600)
        chmod(harness.directory.path, 0o755)
        let result = try DaemonHarness.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups",
                                                                DaemonHarness.umctl, "batch", file.path], in: URL(fileURLWithPath: "/tmp"))
        XCTAssertTrue(result.stderr.contains("cannot read \(file.path): permission denied"), result.stderr)
    }
}
