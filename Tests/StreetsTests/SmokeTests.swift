import Foundation
import Planner
@testable import Streets
import XCTest

final class SmokeTests: XCTestCase {
    func testSmoke() async throws {
        let start = Date()
        let fixture = try TampereFixture.shared()
        print("import took", Date().timeIntervalSince(start), fixture.manifest)
        let router = try fixture.router()
        let leg = try await router.leg(from: TampereFixture.keskustori, to: TampereFixture.railwayStation, mode: .walk)
        print(leg.distance ?? -1, leg.expectedTravelTime, leg.geometry.count)
        let index = try PlaceIndex(regionDirectory: fixture.regionDirectory)
        for q in ["keskus", "hameenkatu", "Tampere"] {
            print(q, try index.search(q, near: TampereFixture.keskustori, kinds: nil, limit: 8).map { "\($0.name) \($0.kind) \($0.category ?? "") \(Int($0.distance ?? 0))" })
        }
        print(try index.counts())
        print(try FileManager.default.contentsOfDirectory(atPath: fixture.dataDirectory.appendingPathComponent("regions").path))
    }
}
