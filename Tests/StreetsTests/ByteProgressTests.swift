import Streets
import XCTest

/// Issue 41 item 6: import progress says how much of a file is read in a unit that fits it,
/// never "0 of 0 MiB" for a small file, and what is known when the size is not.
final class ByteProgressTests: XCTestCase {
    func testASmallFileReadsInKibibytesNotZeroMebibytes() {
        XCTAssertEqual(ByteProgress.text(300_000, of: 685_000), "293 of 669 KiB")
        XCTAssertEqual(ByteProgress.text(0, of: 685_000), "0 of 669 KiB")
        XCTAssertEqual(ByteProgress.text(10, of: 20), "1 of 1 KiB", "a few bytes are not nothing")
    }

    func testLargerFilesReadInMebibytesWithATenthUnderTen() {
        XCTAssertEqual(ByteProgress.text(1 << 20, of: 3 << 20), "1.0 of 3.0 MiB")
        XCTAssertEqual(ByteProgress.text(12 << 20, of: 48 << 20), "12 of 48 MiB")
    }

    func testAnUnknownSizeSaysWhatCameSoFar() {
        XCTAssertEqual(ByteProgress.text(300_000, of: nil), "293 KiB so far, size not announced")
        XCTAssertEqual(ByteProgress.text(5 << 20, of: 0), "5.0 MiB so far, size not announced")
    }
}
