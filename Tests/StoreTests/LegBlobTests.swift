import Foundation
import Planner
@testable import Store
import TestSupport
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

    func testVersionOneLegAndRidesBlobsStillDecodeWithNoWalks() throws {
        var random = SeededRandom(seed: 44)
        var leg = RandomPlans.leg(&random, geometryPoints: 1...3)
        leg.rides = [TransitRide(lineName: "3", vehicle: "tram", headsign: "Hervanta", tripID: "t1",
                                 boarding: RandomPlans.stopCall(&random), alighting: RandomPlans.stopCall(&random))]
        // A version 1 writer stops after the rides.
        var old = BlobWriter(kind: .leg, version: 1)
        old.string(leg.mode.rawValue)
        old.double(leg.expectedTravelTime)
        old.optional(leg.distance) { $0.double($1) }
        old.optional(leg.departure) { $0.date($1) }
        old.optional(leg.arrival) { $0.date($1) }
        old.coordinates(leg.geometry)
        old.rides(leg.rides)
        XCTAssertEqual(old.bytes[1], 1)
        let decoded = try LegBlob.decodeLeg(old.bytes)
        XCTAssertEqual(decoded.rides, leg.rides)
        XCTAssertEqual(decoded.geometry, leg.geometry)
        XCTAssertEqual(decoded.walks, [])
        XCTAssertFalse(decoded.walkingIsNoSlower)

        var oldRides = BlobWriter(kind: .rides, version: 1)
        oldRides.rides(leg.rides)
        let transit = try LegBlob.decodeRides(oldRides.bytes)
        XCTAssertEqual(transit.rides, leg.rides)
        XCTAssertEqual(transit.walks, [])
        XCTAssertFalse(transit.walkingIsNoSlower)
    }

    func testVersionTwoRidesDecodeWithNoHeadwayAndVersionThreeKeepsIt() throws {
        var random = SeededRandom(seed: 45)
        let ride = TransitRide(lineName: "7", vehicle: "bus", tripID: "F@08:10:00", headwaySeconds: 86_400,
                               boarding: RandomPlans.stopCall(&random), alighting: RandomPlans.stopCall(&random))
        var three = BlobWriter(kind: .rides, version: 3)
        three.rides([ride])
        three.walks([], walkingIsNoSlower: false)
        XCTAssertEqual(try LegBlob.decodeRides(three.bytes).rides, [ride])
        var old = BlobWriter(kind: .rides, version: 2)
        old.rides([ride])
        old.walks([], walkingIsNoSlower: false)
        var expected = ride
        expected.headwaySeconds = nil
        XCTAssertEqual(try LegBlob.decodeRides(old.bytes).rides, [expected])
    }

    func testLiveTimesCancellationAndAlertsRoundTripAndVersionThreeRidesDecodeWithoutThem() throws {
        var random = SeededRandom(seed: 46)
        var boarding = RandomPlans.stopCall(&random)
        boarding.scheduledTime = boarding.time.addingTimeInterval(-360)
        let alert = ServiceAlert(id: "a1", header: "Stop closed", description: "Roadworks", language: "en",
                                 url: "https://example.org/a1", effect: "no_service", cause: "construction",
                                 activeFrom: boarding.time, activeUntil: nil)
        let ride = TransitRide(lineName: "3", vehicle: "bus", tripID: "t1", boarding: boarding,
                               alighting: RandomPlans.stopCall(&random), cancelled: true, alerts: [alert])
        let current = LegBlob.encode(rides: [ride], walks: [], walkingIsNoSlower: false)
        XCTAssertEqual(current[1], LegBlob.formatVersion)
        XCTAssertEqual(try LegBlob.decodeRides(current).rides, [ride])
        XCTAssertEqual(try LegBlob.decodeRides(current).rides.first?.boarding.delaySeconds, 360)
        var old = BlobWriter(kind: .rides, version: 3)
        old.rides([ride])
        old.walks([], walkingIsNoSlower: false)
        let decoded = try XCTUnwrap(LegBlob.decodeRides(old.bytes).rides.first)
        XCTAssertNil(decoded.boarding.scheduledTime)
        XCTAssertFalse(decoded.cancelled)
        XCTAssertEqual(decoded.alerts, [])
    }

    /// Issue 24: a leg's fare, a car estimate and an unknown price with its note are stored; a
    /// version 4 blob reads with no price.
    func testLegPricesRoundTripAndVersionFourLegsDecodeWithoutOne() throws {
        for quote in [PriceQuote(price: Money(amount: Decimal(string: "3.5")!, currency: "EUR")),
                      PriceQuote(price: Money(amount: Decimal(string: "2.41")!, currency: "EUR"), note: "estimate: 0.25 EUR/km",
                                 isEstimate: true),
                      PriceQuote.unknown("price unknown (the feed has no fares)")] {
            XCTAssertEqual(try LegBlob.decodeRides(LegBlob.encode(rides: [], walks: [], walkingIsNoSlower: false, price: quote)).price,
                           quote)
            let leg = RouteLeg(mode: .car, expectedTravelTime: 600, distance: 9640, price: quote)
            XCTAssertEqual(try LegBlob.decodeLeg(LegBlob.encode(leg: leg)), leg)
        }
        var old = BlobWriter(kind: .rides, version: 4)
        old.rides([])
        old.walks([], walkingIsNoSlower: false)
        XCTAssertNil(try LegBlob.decodeRides(old.bytes).price)
    }

    /// Issue 24: a leg's accessibility is stored; a version 5 blob reads with none.
    func testLegAccessibilityRoundTripsAndVersionFiveLegsDecodeWithoutOne() throws {
        for accessibility in LegAccessibility.allCases + [nil] {
            XCTAssertEqual(try LegBlob.decodeRides(LegBlob.encode(rides: [], walks: [], walkingIsNoSlower: false,
                                                                  accessibility: accessibility)).accessibility, accessibility)
            let leg = RouteLeg(mode: .walk, expectedTravelTime: 600, distance: 700, accessibility: accessibility)
            XCTAssertEqual(try LegBlob.decodeLeg(LegBlob.encode(leg: leg)), leg)
        }
        var old = BlobWriter(kind: .rides, version: 5)
        old.rides([])
        old.walks([], walkingIsNoSlower: false)
        old.price(nil)
        XCTAssertNil(try LegBlob.decodeRides(old.bytes).accessibility)
        var oldLeg = BlobWriter(kind: .leg, version: 5)
        oldLeg.string("walk")
        oldLeg.double(60)
        for _ in 0..<3 { oldLeg.optional(Optional<Double>.none) { $0.double($1) } }
        oldLeg.coordinates([])
        oldLeg.rides([])
        oldLeg.walks([], walkingIsNoSlower: false)
        oldLeg.price(nil)
        XCTAssertNil(try LegBlob.decodeLeg(oldLeg.bytes).accessibility)
    }

    func testTransitLegWalksAndWalkingNoteRoundTripInTheRidesBlob() throws {
        let start = Date(timeIntervalSinceReferenceDate: 663_660_000)
        let walks = [
            TransitWalkStep(kind: .access, fromName: "origin", from: Coordinate(latitude: 61.49, longitude: 23.76),
                            toName: "Keskustori D", to: Coordinate(latitude: 61.498, longitude: 23.761),
                            start: start, duration: 245, distance: 290.5),
            TransitWalkStep(kind: .egress, fromName: "Hervanta", from: Coordinate(latitude: 61.45, longitude: 23.85),
                            toName: "destination", to: Coordinate(latitude: 61.451, longitude: 23.852),
                            start: start + 1500, duration: 120, distance: 140),
        ]
        let bytes = LegBlob.encode(rides: [], walks: walks, walkingIsNoSlower: true)
        XCTAssertEqual(bytes[1], LegBlob.formatVersion)
        let decoded = try LegBlob.decodeRides(bytes)
        XCTAssertEqual(decoded.walks, walks)
        XCTAssertTrue(decoded.walkingIsNoSlower)
        var damaged = bytes
        damaged[damaged.count - 1] = 7
        XCTAssertThrowsError(try LegBlob.decodeRides(damaged)) { XCTAssertTrue("\($0)".contains("flag 7"), "\($0)") }
    }

    func testHugeCountInADamagedBlobIsRefusedWithoutAllocatingIt() {
        let bytes: [UInt8] = [LegBlob.Kind.geometry.rawValue, LegBlob.formatVersion, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]
        XCTAssertThrowsError(try LegBlob.decodeGeometry(bytes)) { XCTAssertEqual(($0 as? StoreError)?.code, "corrupt_record") }
    }
}
