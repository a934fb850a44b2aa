import Foundation
import Planner
import TestSupport
@testable import Transit
import XCTest

/// Rides drawn along the feed's `shapes.txt` and coloured by `route_color`, stored at import.
final class RideShapesTests: XCTestCase {
    /// Stops A, B, C 5 km apart going north; trip T1 of route R1 (colour 00985f) follows a shape
    /// that bows 1 km east between them; T2 of route R2 has neither shape nor colour.
    func feed() -> [String: String] {
        var feed = MiniFeed()
        feed.stop("A", km: 0)
        feed.stop("B", km: 5)
        feed.stop("C", km: 10)
        feed.routes = [("R1", "1", 3), ("R2", "2", 3)]
        feed.trip("T1", route: "R1", [("A", "08:00:00"), ("B", "08:10:00"), ("C", "08:20:00")])
        feed.trip("T2", route: "R2", [("A", "09:00:00"), ("C", "09:20:00")])
        feed.routeColors = ["R1": "00985f"]
        feed.tripShapes = ["T1": "S1"]
        for k in (0...20).reversed() {  // every 0.5 km, 1 km east at the middle of each stop-to-stop stretch
            let km = Double(k) / 2
            let east = sin(km / 5 * .pi).magnitude
            let c = MiniFeed.coordinate(km: km, east: east)
            feed.shapePoints.append(("S1", c.latitude, c.longitude, 10 * k))  // written backwards: the sequence orders them
        }
        feed.extraRows["shapes.txt"] = "S1,not-a-number,25.0,999\n"
        return feed.files
    }

    func ride(_ trip: String, from: String, _ fromKM: Double, to: String, _ toKM: Double) -> TransitRide {
        TransitRide(lineName: "1", vehicle: "bus", tripID: trip,
                    boarding: TransitStopCall(stopID: from, name: from, coordinate: MiniFeed.coordinate(km: fromKM), time: Date()),
                    alighting: TransitStopCall(stopID: to, name: to, coordinate: MiniFeed.coordinate(km: toKM), time: Date()))
    }

    func testARideFollowsItsTripsShapeBetweenItsStopsInItsRoutesColour() throws {
        let fixture = try FeedFixture()
        let (_, report) = try fixture.router(feed())
        XCTAssertEqual(report.rowsRead["shapes.txt"], 22)
        XCTAssertEqual(report.skipped["shapes.txt: missing or invalid shape_pt_lat/shape_pt_lon/shape_pt_sequence"], 1)
        let shapes = try RideShapes(regionDirectory: fixture.regionDirectory)

        let shape = try XCTUnwrap(shapes.shape(of: ride("T1", from: "B", 5, to: "C", 10)))
        XCTAssertEqual(shape.color, "00985F")
        XCTAssertEqual(shape.points.first, MiniFeed.coordinate(km: 5), "starts at the boarding stop")
        XCTAssertEqual(shape.points.last, MiniFeed.coordinate(km: 10), "ends at the alighting stop")
        XCTAssertEqual(shape.points.count, 13, "the stops and the shape's 11 points from km 5 to km 10")
        let eastmost = try XCTUnwrap(shape.points.map(\.longitude).max())
        XCTAssertEqual(eastmost, MiniFeed.coordinate(km: 7.5, east: 1).longitude, accuracy: 1e-5, "the bow between B and C")
        XCTAssertTrue(shape.points.allSatisfy { $0.latitude >= MiniFeed.coordinate(km: 4.9).latitude }, "nothing before B")

        XCTAssertEqual(shapes.shape(of: ride("T1@08:30:00", from: "A", 0, to: "B", 5))?.points.count, 13,
                       "a frequency run uses its trip's shape")
        XCTAssertNil(shapes.shape(of: ride("T2", from: "A", 0, to: "C", 10)), "no shape and no colour: drawn through its stops")
        XCTAssertNil(shapes.shape(of: ride("unknown", from: "A", 0, to: "C", 10)))
    }

    func testAFeedWithoutShapesStillGivesItsRouteColours() throws {
        var files = feed()
        files["shapes.txt"] = nil
        let fixture = try FeedFixture()
        _ = try fixture.router(files)
        let shape = try XCTUnwrap(try RideShapes(regionDirectory: fixture.regionDirectory).shape(of: ride("T1", from: "A", 0, to: "C", 10)))
        XCTAssertEqual(shape.points, [])
        XCTAssertEqual(shape.color, "00985F")
    }
    /// Issue 43: feeds of one region that reuse a `shape_id` (and here a `trip_id`) kept only the
    /// first feed's shape, so in the country every copy's rides were drawn along city 1's. Two
    /// feeds 20 km apart each have stops A, B, trip T1 of route R1 along shape S1 (bowing 1 km
    /// east); the second also has trip U1 on its S1 and colours R1 differently: each ride is
    /// drawn along its own feed's shape, in its own feed's colour.
    func testFeedsThatReuseAShapeIDAndATripIDEachDrawTheirRidesAlongTheirOwnShape() throws {
        func feed(east offset: Double, color: String, extraTrip: Bool) -> [String: String] {
            var feed = MiniFeed()
            feed.stop("A", km: 0, east: offset)
            feed.stop("B", km: 5, east: offset)
            feed.routes = [("R1", "1", 3)]
            feed.trip("T1", route: "R1", [("A", "08:00:00"), ("B", "08:10:00")])
            feed.tripShapes = ["T1": "S1"]
            if extraTrip {
                feed.trip("U1", route: "R1", [("A", "09:00:00"), ("B", "09:10:00")])
                feed.tripShapes["U1"] = "S1"
            }
            feed.routeColors = ["R1": color]
            for k in 0...10 {
                let km = Double(k) / 2
                let c = MiniFeed.coordinate(km: km, east: offset + sin(km / 5 * .pi))
                feed.shapePoints.append(("S1", c.latitude, c.longitude, k))
            }
            return feed.files
        }
        let fixture = try FeedFixture()
        _ = try GTFSImporter().importFeeds([try fixture.zip(feed(east: 0, color: "111111", extraTrip: false), name: "west"),
                                            try fixture.zip(feed(east: 20, color: "222222", extraTrip: true), name: "east")],
                                           intoRegionDirectory: fixture.regionDirectory, walking: StraightLineWalking())
        let shapes = try RideShapes(regionDirectory: fixture.regionDirectory)
        func ride(_ trip: String, east: Double) -> TransitRide {
            TransitRide(lineName: "1", vehicle: "bus", tripID: trip,
                        boarding: TransitStopCall(stopID: "A", name: "A", coordinate: MiniFeed.coordinate(km: 0, east: east), time: Date()),
                        alighting: TransitStopCall(stopID: "B", name: "B", coordinate: MiniFeed.coordinate(km: 5, east: east), time: Date()))
        }
        let bowWest = MiniFeed.coordinate(km: 2.5, east: 1).longitude, bowEast = MiniFeed.coordinate(km: 2.5, east: 21).longitude
        for (trip, east, bow, color) in [("T1", 0.0, bowWest, "111111"), ("T1", 20.0, bowEast, "222222"), ("U1", 20.0, bowEast, "222222")] {
            let shape = try XCTUnwrap(shapes.shape(of: ride(trip, east: east)), "\(trip) in the feed \(east) km east")
            XCTAssertEqual(shape.color, color, "\(trip) in the feed \(east) km east")
            XCTAssertEqual(shape.points.count, 13, "the stops and the shape's 11 points: \(trip) in the feed \(east) km east")
            let eastmost = try XCTUnwrap(shape.points.map(\.longitude).max())
            XCTAssertEqual(eastmost, bow, accuracy: 1e-5, "\(trip) \(east) km east bows along its own feed's S1")
        }
    }
}
