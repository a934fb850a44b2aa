import Foundation
import Checksum
import XCTest

/// Our SHA-256 against the FIPS 180-4 example vectors (it identifies unchanged import sources).
final class SHA256Tests: XCTestCase {
    func testKnownVectors() {
        XCTAssertEqual(SHA256.hex(of: Data()), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex(of: Data("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex(of: Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    func testFileDigestReadInChunksMatchesTheDataDigest() throws {
        // Larger than the 1 MiB read size, and not a multiple of it or of the 64-byte block.
        let data = Data((0..<(3 << 20) + 123).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) })
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sha256-\(UUID().uuidString)")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        XCTAssertEqual(try SHA256.hex(ofFile: file), SHA256.hex(of: try Data(contentsOf: file)))
    }

    func testChunkedUpdatesEqualOneShot() {
        let data = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        var hasher = SHA256()
        for start in stride(from: 0, to: data.count, by: 37) {
            data[start..<min(start + 37, data.count)].withUnsafeBytes { hasher.update($0) }
        }
        XCTAssertEqual(hasher.finalize(), SHA256.hex(of: data))
    }
}
