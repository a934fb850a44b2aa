import Foundation
import XCTest
@testable import Planner

/// GeoJSON and GPX text: the structure other programs rely on, and names that cannot break it.
/// (`ogrinfo` reads the real files in the daemon's integration tests.)
final class PlanExportTests: XCTestCase {
    let helsinki = TimeZone(identifier: "Europe/Helsinki")!

    func geometry() throws -> PlanGeometry {
        let home = Fixture.place("Home \"quoted\" <&>\u{1B}[2J", east: 0), office = Fixture.place("Office", east: 1_000)
        var walk = Fixture.walk(12, metres: 1_000)
        walk.geometry = [home.coordinate, Fixture.place("", east: 500, north: 40).coordinate, office.coordinate]
        let plan = try RoutePlan(restoring: [PlanNode(place: home), PlanNode(place: office)], modes: [.walk], legs: [walk],
                                 timePreference: .departAt(Fixture.at(0)), pace: .normal, locks: [:], pinned: nil, pending: [:])
        return PlanGeometry(plan: plan, times: plan.schedule(), toleranceMetres: 0)
    }

    func testGeoJSONIsAFeatureCollectionOfLinesThenNodesWithLongitudeFirst() throws {
        let text = PlanExport.geoJSON(try geometry(), title: "Home → Office", timeZone: helsinki)
        XCTAssertFalse(text.unicodeScalars.contains { $0.value < 0x20 }, "no control characters at all")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        XCTAssertEqual(object["type"] as? String, "FeatureCollection")
        let features = try XCTUnwrap(object["features"] as? [[String: Any]])
        XCTAssertEqual(features.count, 3)
        let line = try XCTUnwrap(features[0]["geometry"] as? [String: Any])
        XCTAssertEqual(line["type"] as? String, "LineString")
        let first = try XCTUnwrap((line["coordinates"] as? [[Double]])?.first)
        XCTAssertEqual(first[0], 23.761, accuracy: 1e-6, "longitude first (RFC 7946 §3.1.1)")
        XCTAssertEqual(first[1], 61.4981, accuracy: 1e-6)
        let properties = try XCTUnwrap(features[0]["properties"] as? [String: Any])
        XCTAssertEqual(properties["mode"] as? String, "walk")
        XCTAssertEqual(properties["departure"] as? String, "2022-01-12T10:00:00+02:00")
        XCTAssertEqual(properties["arrival"] as? String, "2022-01-12T10:12:00+02:00")
        XCTAssertEqual(properties["duration_s"] as? Double, 720)
        XCTAssertEqual(properties["distance_m"] as? Double, 1_000)
        let node = try XCTUnwrap(features[1]["properties"] as? [String: Any])
        XCTAssertEqual(node["name"] as? String, "Home \"quoted\" <&>\u{1B}[2J", "the name survives escaping")
        XCTAssertEqual((features[2]["geometry"] as? [String: Any])?["type"] as? String, "Point")
    }

    func testGPXHasARouteThroughTheNodesAndATrackPerLineWithUTCTimes() throws {
        let text = PlanExport.gpx(try geometry(), title: "Home → Office")
        XCTAssertFalse(text.unicodeScalars.contains { $0.value < 0x20 })
        func count(_ tag: String) -> Int { text.components(separatedBy: "<\(tag)").count - 1 }
        XCTAssertTrue(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?><gpx version=\"1.1\""))
        XCTAssertTrue(text.contains("xmlns=\"http://www.topografix.com/GPX/1/1\""))
        XCTAssertEqual(count("rte>"), 1)
        XCTAssertEqual(count("rtept "), 2)
        XCTAssertEqual(count("trk>"), 1)
        XCTAssertEqual(count("trkpt "), 3)
        XCTAssertTrue(text.contains("<time>2022-01-12T08:00:00Z</time><name>Home &quot;quoted&quot; &lt;&amp;&gt;[2J</name>"),
                      "UTC times; the name escaped and its control character dropped: \(text)")
        XCTAssertTrue(text.contains("<time>2022-01-12T08:12:00Z</time><name>Office</name>"))
        XCTAssertEqual(count("/gpx>"), 1)
    }
}
