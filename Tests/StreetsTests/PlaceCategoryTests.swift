import Foundation
@testable import Streets
import XCTest

/// The category words are one documented list: docs/streets.md shows exactly `PlaceCategory.all`.
final class PlaceCategoryTests: XCTestCase {
    func testTheDocumentedListIsTheListTheSearchUses() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/streets.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let section = try XCTUnwrap(text.components(separatedBy: "### Category words").last)
        let rows = section.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| category") }
        let documented = rows.map { row in row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
        XCTAssertEqual(documented.map { $0[0] }, PlaceCategory.all.map(\.id))
        for (row, category) in zip(documented, PlaceCategory.all) {
            XCTAssertEqual(row[1], category.words.joined(separator: ", "), category.id)
            let tags = category.tags.isEmpty ? "`office=*`" : category.tags.map { "`\($0)`" }.joined(separator: ", ")
            XCTAssertEqual(row[2], tags, category.id)
        }
    }

    func testNoWordAsksForTwoCategories() {
        var owner: [String: String] = [:]
        for category in PlaceCategory.all {
            for word in category.words {
                XCTAssertNil(owner[word], "\(word): \(owner[word] ?? "") and \(category.id)")
                owner[word] = category.id
                XCTAssertEqual(word, PlaceIndex.words(PlaceIndex.fold(word)).joined(separator: " "), "words are stored folded")
            }
        }
    }

    func testTheLongestPhraseInTheTextWins() {
        XCTAssertEqual(PlaceCategory.named(in: ["bus", "station", "keskustori"])?.category.id, "bus_station")
        XCTAssertEqual(PlaceCategory.named(in: ["bus", "station", "keskustori"])?.rest, ["keskustori"])
        XCTAssertEqual(PlaceCategory.named(in: ["cafe", "hameenkatu"])?.category.id, "cafe")
        XCTAssertNil(PlaceCategory.named(in: ["keskustori"]))
        XCTAssertEqual(PlaceCategory.of(["healthcare": "pharmacy"])?.category.id, "pharmacy")
        XCTAssertEqual(PlaceCategory.of(["office": "lawyer"])?.category.id, "office")
    }
}
