import Foundation
import WireProtocol
import XCTest

/// Search as a map app's, through umctl against the real daemon on Tampere: addresses,
/// categories, typos, completion, "where is this", boxes and odd input.
final class PlaceSearchTests: SharedTampereDaemonTestCase {
    func testAnAddressSearchShowsTheFullAddressAndANumberLeftOutSaysApproximate() throws {
        let exact = try harness.umctl(["search", "Kyttälänkatu 12"])
        XCTAssertEqual(exact.status, 0, exact.stderr)
        let first = exact.stdout.split(separator: "\n").dropFirst().first.map(String.init) ?? ""
        XCTAssertTrue(first.hasPrefix("Kyttälänkatu 12, 33100 Tampere") && first.contains("address"), exact.stdout)

        let json = try harness.json(["search", "10 Kyttälänkatu"])
        let result = try XCTUnwrap(json["results"]?.arrayValue?.first)
        XCTAssertEqual(result["kind"]?.stringValue, "address")
        XCTAssertTrue(result["name"]?.stringValue?.hasPrefix("Kyttälänkatu ") == true, "never another street: \(result)")
        XCTAssertTrue(result["approximate"]?.stringValue?.contains("Kyttälänkatu 10") == true, "\(result)")
        XCTAssertTrue(try harness.umctl(["search", "10 Kyttälänkatu"]).stdout.contains("approximate: no Kyttälänkatu 10"))
    }

    /// Issue 39 F17: `compare Vuores Hervantakeskus` took Vuorentaustantie (a letter wrong,
    /// 15 km away) over Vuoreksen puistokatu in Vuores, whose first word is the district's name
    /// inflected. The stem wins, and the note still says the name was not matched exactly.
    func testADistrictTypedAsItsStemResolvesToTheStreetNamedAfterIt() throws {
        let compared = try harness.json(["compare", "Vuores", "Hervantakeskus", "--at", "2022-01-12T07:18"])
        XCTAssertEqual(compared["from"]?["name"]?.stringValue, "Vuoreksen puistokatu", "\(compared)")
        XCTAssertTrue(compared["from"]?["match_note"]?.stringValue?.contains("matches no name exactly") == true,
                      "never a silent swap: \(compared)")
    }

    func testPharmaciesNearAPlaceAreListedByDistanceAndKindNarrowsTheResults() throws {
        let json = try harness.json(["search", "pharmacy", "--near", "Keskustori", "--limit", "20"])
        let results = json["results"]?.arrayValue ?? []
        XCTAssertGreaterThan(results.count, 5)
        XCTAssertTrue(results.allSatisfy { ["amenity=pharmacy", "healthcare=pharmacy"].contains($0["category"]?.stringValue ?? "") },
                      "\(results)")
        let distances = results.compactMap { $0["distance_m"]?.numberValue }
        XCTAssertEqual(distances, distances.sorted())
        let stops = try harness.json(["search", "Keskustori", "--kind", "stop"])["results"]?.arrayValue ?? []
        XCTAssertFalse(stops.isEmpty)
        XCTAssertTrue(stops.allSatisfy { $0["kind"]?.stringValue == "stop" })
        let refused = try harness.umctl(["search", "Keskustori", "--kind", "shop"])
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.stderr.contains("address, street, poi, stop"), refused.stderr)
    }

    func testATypoAnswersWithDidYouMeanInTheTableAndTheJSON() throws {
        let shown = try harness.umctl(["search", "Keskstori"])
        XCTAssertTrue(shown.stdout.hasPrefix("did you mean \"Keskustori\"?"), shown.stdout)
        XCTAssertEqual(try harness.json(["search", "Keskstori"])["did_you_mean"]?.stringValue, "Keskustori")
        XCTAssertEqual(try harness.json(["search", "Keskustori"])["did_you_mean"], .null, "exact matches need no guess")
    }

    func testCompletionListsNamesAsTheyAreTypedAndRecordsNoSearch() throws {
        let before = try harness.json(["history", "searches"])["entries"]?.arrayValue?.count ?? 0
        let typed = try harness.umctl(["search", "--complete", "Hämeenk"])
        XCTAssertEqual(typed.status, 0, typed.stderr)
        let lines = typed.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("Hämeenkatu"), typed.stdout)
        XCTAssertLessThanOrEqual(lines.count, 10)
        XCTAssertEqual(Set(lines).count, lines.count, "one line a name")
        let address = try harness.umctl(["search", "--complete", "Kyttälänkatu 1"]).stdout
        XCTAssertTrue(address.contains("Kyttälänkatu 12"), address)
        XCTAssertEqual(try harness.json(["history", "searches"])["entries"]?.arrayValue?.count ?? 0, before)
    }

    func testWhereNamesTheNearestAddressPlaceAndStreetWithTheirDistances() throws {
        // Stockmann's car park entrance: Kyttälänkatu 12.
        let shown = try harness.umctl(["where", "61.49937,23.77045"])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.hasPrefix("61.49937,23.77045: near Kyttälänkatu 12"), shown.stdout)
        let json = try harness.json(["where", "61.49937,23.77045"])
        XCTAssertEqual(json["region"]?.stringValue, "tampere")
        XCTAssertLessThan(json["address"]?["distance_m"]?.numberValue ?? 999, 10)
        XCTAssertNotEqual(json["street"], .null)
        let outside = try harness.umctl(["where", "10,10"])
        XCTAssertEqual(outside.status, 0)
        XCTAssertTrue(outside.stdout.contains("outside every imported region"), outside.stdout)
    }

    func testCoordinatesAreShownNearWhatIsThereAndLinksKeepTheCoordinates() throws {
        let plan = try harness.json(["plan", "new", "61.49937,23.77045", "Keskustori", "--mode", "walk"])
        XCTAssertEqual(plan["nodes"]?.arrayValue?.first?["name"]?.stringValue, "near Kyttälänkatu 12", "\(plan)")
        let id = String(Int(plan["id"]?.numberValue ?? 0))
        XCTAssertTrue(try harness.umctl(["plan", "show", id]).stdout.contains("near Kyttälänkatu 12"))
        let link = try harness.json(["plan", "link", id, "1"])["url"]?.stringValue ?? ""
        XCTAssertTrue(link.contains("61.49937") && !link.contains("near"), link)
        let routes = try harness.umctl(["history", "routes"]).stdout
        XCTAssertTrue(routes.contains("near Kyttälänkatu 12"), routes)
    }

    func testWithinKeepsOnlyResultsInsideTheBox() throws {
        let all = try harness.json(["search", "pharmacy", "--limit", "100"])["results"]?.arrayValue ?? []
        let box = try harness.json(["search", "pharmacy", "--limit", "100", "--within", "61.49,23.74,61.51,23.79"])["results"]?.arrayValue ?? []
        XCTAssertGreaterThan(all.count, box.count)
        XCTAssertFalse(box.isEmpty)
        for result in box {
            let lat = result["lat"]?.numberValue ?? 0, lon = result["lon"]?.numberValue ?? 0
            XCTAssertTrue((61.49...61.51).contains(lat) && (23.74...23.79).contains(lon), "\(result)")
        }
        let bad = try harness.umctl(["search", "pharmacy", "--within", "61.51,23.74,61.49,23.79"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--within"), bad.stderr)
    }

    /// Odd text never reaches SQLite as FTS syntax and never raises a database error; overlong
    /// text is refused naming the limit; everything else gets results or "(none)".
    func testOddQueriesGetResultsOrNoneAndOverlongTextIsRefusedNamingTheLimit() async throws {
        let client = try harness.client()
        let odd = ["\"", "\"\"\"", "*", "keskus*", "NEAR(", "NEAR(a b)", "a AND b", "OR", "NOT keskustori", "-", "- -",
                   "😀", "🚌 Keskustori", "\u{0}\u{1}\u{7}", "\t\n", "", "   ", "^a", "col:val", "{a b}", "'; DROP TABLE place; --",
                   "Hämeenkatu 999999999999", "0 0", "1,2,3,4", String(repeating: "ä", count: 200)]
        for text in odd {
            let answer = try await client.call(Endpoints.search, Params.Search(text: text))
            XCTAssertNotNil(answer.results, text)
            let completed = try await client.call(Endpoints.searchComplete, Params.Search(text: text))
            XCTAssertLessThanOrEqual(completed.results.count, 10, text)
        }
        XCTAssertEqual(try harness.umctl(["search", "😀"]).stdout, "(none)\n")
        await XCTAssertThrowsErrorAsync(try await client.call(Endpoints.search, Params.Search(text: String(repeating: "a", count: 10_000)))) { error in
            XCTAssertEqual((error as? WireError)?.code, "invalid_params")
            XCTAssertTrue("\(error)".contains("200"), "\(error)")
        }
        XCTAssertTrue(try harness.umctl(["status"]).status == 0, "the daemon is still there")
    }

    /// Completion (the web page's search box, `umctl search --complete`) offers the user's saved
    /// places first, found by the daemon: the page holds no matching rule of its own.
    func testCompletionOffersSavedPlacesFirstUnlessAKindOrRegionNarrowsIt() async throws {
        XCTAssertEqual(try harness.umctl(["place", "save", "Kotipesä Hervanta", "61.4500,23.8500", "--note", "home"]).status, 0)
        let client = try harness.client()
        for text in ["kotipesa", "Kotip", "herv kotipes"] {
            let first = try await client.call(Endpoints.searchComplete, Params.Search(text: text)).results.first
            XCTAssertEqual(first?.name, "Kotipesä Hervanta", text)
            XCTAssertEqual(first?.kind, "saved", text)
            XCTAssertEqual(first?.address, "home", text)
        }
        let narrowed = [Params.Search(text: "kotipesa", kind: "street"), Params.Search(text: "kotipesa", region: "tampere")]
        for params in narrowed {
            let results = try await client.call(Endpoints.searchComplete, params).results
            XCTAssertFalse(results.contains { $0.kind == "saved" }, "\(params): \(results)")
        }
        let other = try await client.call(Endpoints.searchComplete, Params.Search(text: "Keskustori")).results
        XCTAssertFalse(other.contains { $0.kind == "saved" }, "a saved place whose words the text does not start: \(other)")
    }

    /// bash completion (the script `make install` writes) offers saved places where a place goes.
    func testShellCompletionOffersSavedPlaceNamesWherePlacesGo() throws {
        XCTAssertEqual(try harness.umctl(["place", "save", "Mummola Pyynikki", "61.4956,23.7314"]).status, 0)
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = DaemonHarness.binaries.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["USEFULMAP_SOCKET"] = try harness.socketPath
        func completions(_ words: [String]) throws -> [String] {
            let script = """
                source <(umctl __completions bash)
                COMP_WORDS=(\(words.map { "'\($0)'" }.joined(separator: " "))); COMP_CWORD=\(words.count - 1); _umctl
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            let result = try DaemonHarness.run("/bin/bash", ["-c", script], in: try harness.directory, environment: environment)
            return result.stdout.split(separator: "\n").map(String.init)
        }
        XCTAssertEqual(try completions(["umctl", "compare", "Mum"]), ["Mummola Pyynikki"])
        XCTAssertEqual(try completions(["umctl", "search", "--near", "Mummola"]), ["Mummola Pyynikki"])
        XCTAssertTrue(try completions(["umctl", "place", "remove", ""]).contains("Mummola Pyynikki"))
        XCTAssertEqual(try completions(["umctl", "plan", "show", "Mum"]), [], "a plan ID is not a place")
    }
}
