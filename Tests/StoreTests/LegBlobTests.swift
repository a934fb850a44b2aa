import Foundation
import Planner
@testable import Store
import XCTest

final class LegBlobTests: XCTestCase {
    func testLegsRoundTripBitForBitIncludingNaNAndInfinity() throws {
        var random = SeededRandom(seed: 42)
        for _ in 0..<200 {
            let leg = RandomPlans.leg(&random)
            XCTAssertEqual(try LegBlob.decodeLeg(LegBlob.encode(leg: leg)), leg)
        }
        let odd = RouteLeg(mode: .car, expectedTravelTime: .infinity, distance: .nan,
                           geometry: [Coordinate(latitude: -0.0, longitude: .nan)])
        let decoded = try LegBlob.decodeLeg(LegBlob.encode(leg: odd))
        XCTAssertEqual(decoded.distance?.bitPattern, Double.nan.bitPattern)
        XCTAssertEqual(decoded.geometry.first?.latitude.sign, .minus)
        XCTAssertEqual(decoded.expectedTravelTime, .infinity)
    }

    func testEveryTruncationOfABlobIsACorruptRecordErrorNotACrash() throws {
        var random = SeededRandom(seed: 43)
        let leg = RandomPlans.leg(&random, geometryPoints: 3...5)
        let bytes = LegBlob.encode(leg: leg)
        for length in 0..<bytes.count {
            XCTAssertThrowsError(try LegBlob.decodeLeg(Array(bytes.prefix(length))), "length \(length)") { error in
                XCTAssertEqual((error as? StoreError)?.code, "corrupt_record")
            }
        }
        XCTAssertThrowsError(try LegBlob.decodeLeg(bytes + [0])) {
            XCTAssertTrue("\($0)".contains("trailing"), "\($0)")
        }
    }

    func testBlobOfAnotherKindOrFutureFormatIsRefused() {
        let geometry = LegBlob.encode(geometry: [Coordinate(latitude: 1, longitude: 2)])
        XCTAssertThrowsError(try LegBlob.decodeLeg(geometry)) { XCTAssertEqual(($0 as? StoreError)?.code, "corrupt_record") }
        var future = geometry
        future[1] = 99
        XCTAssertThrowsError(try LegBlob.decodeGeometry(future)) { XCTAssertTrue("\($0)".contains("version 99"), "\($0)") }
    }

    func testHugeCountInADamagedBlobIsRefusedWithoutAllocatingIt() {
        let bytes: [UInt8] = [LegBlob.Kind.geometry.rawValue, LegBlob.formatVersion, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]
        XCTAssertThrowsError(try LegBlob.decodeGeometry(bytes)) { XCTAssertEqual(($0 as? StoreError)?.code, "corrupt_record") }
    }
}
