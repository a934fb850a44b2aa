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
        let header = try XCTUnwrap(section.split(separator: "\n").first { $0.hasPrefix("| category") })
        XCTAssertEqual(header, "| category | " + PlaceLanguage.all.map(\.code).joined(separator: " | ") + " | OSM tags |")
        for (row, category) in zip(documented, PlaceCategory.all) {
            for (column, language) in PlaceLanguage.all.enumerated() {
                XCTAssertEqual(row[1 + column], (category.wordsByLanguage[language.code] ?? []).joined(separator: ", "),
                               "\(category.id), \(language.name)")
            }
            let tags = category.tags.isEmpty ? "`office=*`" : category.tags.map { "`\($0)`" }.joined(separator: ", ")
            XCTAssertEqual(row[1 + PlaceLanguage.all.count], tags, category.id)
        }
        XCTAssertEqual(Set(PlaceCategory.all.flatMap(\.wordsByLanguage.keys)), Set(PlaceLanguage.all.map(\.code)))
    }

    /// A word asks for its category only in a region of its language (and English everywhere).
    func testAWordCountsOnlyInTheLanguagesGiven() {
        XCTAssertEqual(PlaceCategory.named(in: ["apteekki"], languages: ["en", "fi"])?.category.id, "pharmacy")
        XCTAssertNil(PlaceCategory.named(in: ["apteekki"], languages: ["en", "pt"]))
        XCTAssertEqual(PlaceCategory.named(in: ["farmacia"], languages: ["en", "pt"])?.category.id, "pharmacy")
        XCTAssertEqual(PlaceCategory.named(in: ["pharmacy"], languages: ["en", "pt"])?.category.id, "pharmacy")
        XCTAssertEqual(PlaceCategory.named(in: ["apteekki"])?.category.id, "pharmacy", "no languages given: every word")
        XCTAssertEqual(PlaceCategory.closest(in: ["farmacya"], languages: ["en", "pt"])?.word, "farmacia")
        XCTAssertNil(PlaceCategory.closest(in: ["apteeki"], languages: ["en", "pt"]), "a Finnish word's typo is no Portuguese word")
    }

    func testAWordOfAnotherLanguageSaysWhatItIsAndWhatWorksInTheRegion() {
        XCTAssertEqual(PlaceCategory.languageNote(for: ["apteekki"], languages: ["en", "pt"], regionName: "saopaulo"),
                       "apteekki is Finnish; in saopaulo: farmacia / pharmacy")
        XCTAssertEqual(PlaceCategory.languageNote(for: ["apotek", "centrum"], languages: ["en", "fi"], regionName: "tampere"),
                       "apotek is Swedish; in tampere: apteekki / pharmacy")
        XCTAssertNil(PlaceCategory.languageNote(for: ["apteekki"], languages: ["en", "fi"], regionName: "tampere"))
        XCTAssertNil(PlaceCategory.languageNote(for: ["keskustori"], languages: ["en"], regionName: "tampere"))
    }

    func testLanguageCodesAreReadFromOSMKeysAndGTFSTags() {
        XCTAssertEqual(PlaceLanguage.code(of: "pt-BR"), "pt")
        XCTAssertEqual(PlaceLanguage.code(of: "FI"), "fi")
        XCTAssertNil(PlaceLanguage.code(of: "etymology"))
        XCTAssertNil(PlaceLanguage.code(of: ""))
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
