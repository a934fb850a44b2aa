import Foundation
import XCTest

/// A file of the shared Nysse feed as rows (column → value), unzipped by `unzip`, so that tests
/// read the expected values from the feed itself, not through the code under test.
func tampereFeedRows(_ name: String) throws -> [[String: String]] {
    let archive = tampereDirectory().appendingPathComponent("tampere.zip")
    try XCTSkipUnless(FileManager.default.fileExists(atPath: archive.path), "shared Tampere data not found at \(archive.path)")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
    process.arguments = ["-p", archive.path, name]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, "unzip \(name)")
    // The Nysse files have no quoted fields (checked: no '"' in them), so a comma split is exact.
    let lines = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).map {
        $0.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingCharacters(in: .whitespaces) }
    }
    guard let header = lines.first else { return [] }
    return lines.dropFirst().map { Dictionary(zip(header, $0).map { ($0, $1) }, uniquingKeysWith: { a, _ in a }) }
}
