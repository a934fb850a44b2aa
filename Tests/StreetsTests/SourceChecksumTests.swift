import Foundation
@testable import Streets
import XCTest

/// The SHA-256 an import records for each source file (it decides whether a re-import is
/// skipped), against the FIPS 180-4 example vectors.
final class SourceChecksumTests: XCTestCase {
    func checksum(of bytes: [UInt8]) throws -> String {
        let file = try TampereFixture.temporaryDirectory("sha256", removedAfter: self).appendingPathComponent("source.osm")
        try Data(bytes).write(to: file)
        return try RegionImporter.describe(file, role: "osm").sha256
    }

    func testSourceChecksumsAreTheSHA256OfTheFileBytes() throws {
        XCTAssertEqual(try checksum(of: []), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(try checksum(of: Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(try checksum(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // Larger than any read buffer, so the digest spans many reads.
        XCTAssertEqual(try checksum(of: Array(repeating: UInt8(ascii: "a"), count: 1_000_000)),
                       "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    func testAMissingSourceIsSourceNotFoundNamingIt() throws {
        let missing = try TampereFixture.temporaryDirectory("sha256", removedAfter: self).appendingPathComponent("gone.osm")
        XCTAssertThrowsError(try RegionImporter.describe(missing, role: "osm")) { error in
            XCTAssertEqual((error as? StreetsError)?.code, "source_not_found", "\(error)")
            XCTAssertTrue("\(error)".contains(missing.path), "\(error)")
        }
    }
}
