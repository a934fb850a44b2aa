import Foundation
import Planner
import SQLite
import Streets

/// `usefulmap-bench search`: the place index on Tampere. What indexing costs in the import
/// (time, size), then 1,000 seeded mixed searches (names and prefixes, addresses both ways,
/// categories, typos of one and two letters), 1,000 completions and 1,000 reverse geocodes.
func runSearchSuite() async throws -> SuiteReport {
    var report = SuiteReport(suite: "search")
    let dataDirectory = try benchDataDirectory("search")
    defer { try? FileManager.default.removeItem(at: dataDirectory) }

    let result = try importTampereStreets(into: dataDirectory, report: &report)
    let directory = RegionCatalog(dataDirectory: dataDirectory).directory(of: "tampere")
    let indexFile = directory.appendingPathComponent("places.sqlite").path
    let bytes = (try FileManager.default.attributesOfItem(atPath: indexFile)[.size] as? Int) ?? 0
    report.add("place index size", Double(bytes) / 1024, unit: "KiB")
    let counts = result.manifest.counts
    report.notes["places"] = ["streets", "pois", "addresses"].map { "\(counts[$0] ?? 0) \($0)" }.joined(separator: ", ")

    // The query mix, from the index's own rows (seeded).
    let database = try Database(path: indexFile, mode: .readOnly)
    let names = try database.query("SELECT name FROM place WHERE kind IN ('street', 'poi') ORDER BY id") { $0.string(0) }
    let addresses = try database.query("SELECT street, housenumber FROM address ORDER BY place_id") { ($0.string(0), $0.string(1)) }
    let points = try database.query("SELECT latitude, longitude FROM place WHERE kind = 'street' ORDER BY id") {
        Coordinate(latitude: $0.double(0), longitude: $0.double(1))
    }
    database.close()
    var generator = SeededGenerator(seed: 20)
    func typo(_ word: String, edits: Int) -> String {
        var letters = Array(word)
        for _ in 0..<edits where letters.count > 2 {
            let at = Int.random(in: 0..<(letters.count - 1), using: &generator)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: letters.remove(at: at)
            case 1: letters.swapAt(at, at + 1)
            default: letters[at] = "x"
            }
        }
        return String(letters)
    }
    let categories = ["pharmacy", "supermarket", "cafe", "parking", "dentist", "hospital", "atm", "hotel"]
    var queries: [String] = []
    for index in 0..<1_000 {
        let name = names.randomElement(using: &generator) ?? "Hämeenkatu"
        switch index % 5 {
        case 0: queries.append(name)
        case 1: queries.append(String(name.prefix(Int.random(in: min(3, name.count)...name.count, using: &generator))))
        case 2:
            let (street, number) = addresses.randomElement(using: &generator) ?? ("Hämeenkatu", "10")
            queries.append(Bool.random(using: &generator) ? "\(street) \(number)" : "\(number) \(street)")
        case 3: queries.append(categories.randomElement(using: &generator) ?? "cafe")
        default: queries.append(typo(name, edits: Int.random(in: 1...2, using: &generator)))
        }
    }
    let index = try PlaceIndex(regionDirectory: directory)
    let centre = Coordinate(latitude: 61.4978, longitude: 23.7610)
    _ = try index.search("warm up", near: centre)
    var searchLatencies: [Double] = []
    for query in queries {
        let (_, seconds) = time { try? index.search(query, near: centre, limit: 10) }
        searchLatencies.append(seconds)
    }
    report.addLatencies("search (mixed)", searchLatencies)
    var completionLatencies: [Double] = []
    for _ in 0..<1_000 {
        let name = names.randomElement(using: &generator) ?? "Hämeenkatu"
        let typed = String(name.prefix(Int.random(in: 1...max(1, name.count), using: &generator)))
        let (_, seconds) = time { try? index.complete(typed, near: centre, limit: 10) }
        completionLatencies.append(seconds)
    }
    report.addLatencies("completion", completionLatencies)
    var reverseLatencies: [Double] = []
    for _ in 0..<1_000 {
        let anchor = points.randomElement(using: &generator) ?? centre
        let point = Coordinate(latitude: anchor.latitude + Double.random(in: -0.002...0.002, using: &generator),
                               longitude: anchor.longitude + Double.random(in: -0.004...0.004, using: &generator))
        let (_, seconds) = time { try? index.reverse(point) }
        reverseLatencies.append(seconds)
    }
    report.addLatencies("where", reverseLatencies)
    report.add("peak memory (this process)", peakMemoryMiB(), unit: "MiB")
    return report
}
