import Foundation
import TestSupport
import XCTest

/// The protobuf-c code in Sources/CGTFSRealtime is committed; this keeps it equal to what
/// scripts/generate-gtfs-realtime.sh makes from the committed proto, so neither can drift.
final class GTFSRealtimeGeneratedCodeTests: XCTestCase {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testTheCommittedProtobufCCodeIsWhatTheScriptGeneratesFromTheProto() throws {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        guard path.split(separator: ":").contains(where: { FileManager.default.isExecutableFile(atPath: "\($0)/protoc-c") }) else {
            throw XCTSkip("protoc-c is not on PATH (Debian protobuf-c-compiler; CI has it)")
        }
        let temporary = try TemporaryDirectory("gtfs-realtime")
        defer { temporary.remove() }
        let output = temporary.url

        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/bin/sh")
        script.arguments = [Self.packageRoot.appendingPathComponent("scripts/generate-gtfs-realtime.sh").path, output.path]
        try script.run()
        script.waitUntilExit()
        XCTAssertEqual(script.terminationStatus, 0, "scripts/generate-gtfs-realtime.sh failed")

        let committed = Self.packageRoot.appendingPathComponent("Sources/CGTFSRealtime")
        for file in ["gtfs-realtime.pb-c.c", "include/gtfs-realtime.pb-c.h"] {
            let generated = try Data(contentsOf: output.appendingPathComponent(file))
            XCTAssertEqual(generated, try Data(contentsOf: committed.appendingPathComponent(file)),
                           "Sources/CGTFSRealtime/\(file) differs from what the script makes: run `make gtfs-realtime` and commit")
        }
    }
}
