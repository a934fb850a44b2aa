import Foundation
@testable import Streets
import XCTest

/// `street-components.bin` is read at every start: a damaged file is ignored (routing asks
/// Routino as before), never trusted into arithmetic that traps.
final class StreetComponentsFileTests: XCTestCase {
    func testAFileWhoseCellSideIsImplausibleIsIgnoredAndAGoodOneReadsBack() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("components-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = StreetComponents(cellLatitudeDegrees: 0.0045, cellLongitudeDegrees: 0.009, componentCount: 1,
                                    cells: [StreetComponents.key(row: 1, column: 2)], components: [0])
        try good.write(regionDirectory: directory)
        let read = try XCTUnwrap(StreetComponents.read(regionDirectory: directory))
        XCTAssertEqual(read.cells, good.cells)
        for side in [1e-300, 0, -1, 50, Double.infinity, Double.nan] {
            let damaged = StreetComponents(cellLatitudeDegrees: side, cellLongitudeDegrees: 0.009, componentCount: 1,
                                           cells: good.cells, components: [0])
            try damaged.write(regionDirectory: directory)
            XCTAssertNil(StreetComponents.read(regionDirectory: directory), "a cell side of \(side)°")
        }
    }
}
