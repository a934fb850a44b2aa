import Foundation
import WireProtocol
import XCTest

final class NullWhenNilTests: XCTestCase {
    private struct Fence: Codable, Equatable {
        var radiusM: Double
    }

    /// A marked field beside a plain optional one, which synthesized `Codable` leaves out when nil.
    private struct Sample: Codable, Equatable {
        @NullWhenNil var fallbackReason: String? = nil
        @NullWhenNil var fence: Fence? = nil
        var note: String?
    }

    private func wire(_ sample: Sample) throws -> String {
        String(decoding: try WireCodec.encoder.encode(sample), as: UTF8.self)
    }

    private func read(_ text: String) throws -> Sample {
        try WireCodec.decoder.decode(Sample.self, from: Data(text.utf8))
    }

    func testNilIsWrittenAsNullUnderTheSnakeCaseKeyWhileAPlainOptionalIsLeftOut() throws {
        XCTAssertEqual(try wire(Sample()), #"{"fallback_reason":null,"fence":null}"#)
    }

    func testAValueIsWrittenAsThatValue() throws {
        XCTAssertEqual(try wire(Sample(fallbackReason: "waypoints", fence: Fence(radiusM: 80), note: "n")),
                       #"{"fallback_reason":"waypoints","fence":{"radius_m":80},"note":"n"}"#)
    }

    func testAMissingKeyAndNullBothReadAsNil() throws {
        XCTAssertEqual(try read("{}"), Sample())
        XCTAssertEqual(try read(#"{"fallback_reason":null,"fence":null}"#), Sample())
        XCTAssertEqual(try read(#"{"fallback_reason":"waypoints","fence":{"radius_m":80}}"#),
                       Sample(fallbackReason: "waypoints", fence: Fence(radiusM: 80)))
    }

    func testAValueOfTheWrongTypeIsStillRefused() {
        XCTAssertThrowsError(try read(#"{"fallback_reason":7}"#)) { error in
            guard case DecodingError.typeMismatch(_, let context)? = error as? DecodingError else { return XCTFail("\(error)") }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["fallbackReason"])
        }
    }
}
