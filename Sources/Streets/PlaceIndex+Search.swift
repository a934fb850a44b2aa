import Foundation
import Planner
import SQLite

extension PlaceIndex {
    // MARK: - Search

    /// Places for `text`: addresses ("Hämeenkatu 10", "10 Downing Street", "Avenida Paulista,
    /// 1000"), categories ("pharmacy", "cafe Hämeenkatu"), names by whole words and prefixes,
    /// and, when nothing matches so, names within one or two typos; when nothing matches at all,
    /// the names of all the words but one (`namesLeavingOutAWord`). Ranked by `PlaceRanking`.
    ///
    /// Text without letters or digits finds nothing (an empty answer, not an error).
    /// - parameter near: distances and nearness are measured from here.
    /// - parameter within: only results inside this box.
    /// - parameter languages: the region's languages (`RegionManifest.languages`): only category
    ///   words of these count; nil: every word of the table.
    /// - throws: `StreetsError.invalidQuery` for text over `maxQueryLength` characters or a limit below 1.
    public func search(_ text: String, near: Coordinate? = nil, kinds: Set<PlaceSearchKind>? = nil,
                       within: RegionBoundingBox? = nil, limit: Int = 10, languages: Set<String>? = nil) throws -> [PlaceSearchResult] {
        guard let words = try Self.checkedWords(text, limit: limit), kinds?.isEmpty != true else { return [] }
        let folded = words.joined(separator: " ")
        var found: [PlaceSearchResult] = []
        if hasSearchTables, kinds?.contains(.address) ?? true,
           let address = AddressQuery(folded: Self.fold(text))?.reading(postcodes: knownPostcodes) {
            found += try addresses(address, near: near)
        }
        if hasSearchTables, kinds?.contains(.address) ?? true, let area = try postcodeArea(words, near: near) {
            found.append(area)
        }
        if hasSearchTables, kinds?.contains(.poi) ?? true, let asked = PlaceCategory.named(in: words, languages: languages) {
            found += try places(of: asked.category, named: asked.rest, near: near, within: within)
        }
        found += try names(words, near: near, kinds: kinds, candidates: Self.candidateLimit)
        if !found.contains(where: { $0.match < .fuzzy }) {
            found += try fuzzyNames(folded, near: near, kinds: kinds)
            if hasSearchTables, kinds?.contains(.poi) ?? true, PlaceCategory.named(in: words) == nil,
               let misspelt = PlaceCategory.closest(in: words, languages: languages) {
                // "pharmcy": the pharmacies, as typos of the word (did you mean "pharmacy"?).
                found += try places(of: misspelt.category, named: misspelt.rest, near: near, within: within).map { place in
                    var result = place
                    result.match = .fuzzy
                    result.typoRank = misspelt.edits * 200 + 99  // after names as many typos away
                    result.typoOf = misspelt.word
                    return result
                }
            }
        }
        var answer = Self.ranked(found, kinds: kinds, within: within, limit: limit)
        if answer.isEmpty {
            // "Tampereen rautatieasema": the names of all its words but one, as a guess.
            let guesses = try namesLeavingOutAWord(words, typed: Self.words(text), near: near, kinds: kinds)
            answer = Self.ranked(guesses, kinds: kinds, within: within, limit: limit)
        }
        return try answer.map(described)
    }

    /// Up to `limit` completions of text as it is typed: names and addresses whose words start
    /// with the words typed (the last one a prefix), else names within a typo. One result per
    /// name. Cheaper than `search`: no categories, fewer candidates.
    public func complete(_ text: String, near: Coordinate? = nil, kinds: Set<PlaceSearchKind>? = nil,
                         within: RegionBoundingBox? = nil, limit: Int = 10) throws -> [PlaceSearchResult] {
        guard let words = try Self.checkedWords(text, limit: limit), kinds?.isEmpty != true else { return [] }
        var found = try names(words, near: near, kinds: kinds, candidates: 400)
        if found.isEmpty { found = try fuzzyNames(words.joined(separator: " "), near: near, kinds: kinds) }
        var seen = Set<String>()
        let ranked = Self.ranked(found, kinds: kinds, within: within, limit: .max)
        return ranked.filter { seen.insert(Self.fold($0.name)).inserted }.prefix(limit).map { $0 }
    }

    /// When `text` asks for a category by a word of none of `languages`: the note saying so
    /// (`PlaceCategory.languageNote`).
    public static func categoryLanguageNote(for text: String, languages: Set<String>, regionName: String) -> String? {
        PlaceCategory.languageNote(for: words(fold(text)), languages: languages, regionName: regionName)
    }

    /// The folded words of `text`, nil when it has none.
    static func checkedWords(_ text: String, limit: Int) throws -> [String]? {
        guard limit >= 1 else { throw StreetsError.invalidQuery("limit must be at least 1, got \(limit)") }
        guard text.count <= maxQueryLength else {
            throw StreetsError.invalidQuery("search text is \(text.count) characters long; the limit is \(maxQueryLength)")
        }
        let words = Self.words(fold(text))
        return words.isEmpty ? nil : words
    }

    /// Filters, removes repeats (the better match of one place stays) and orders.
    static func ranked(_ found: [PlaceSearchResult], kinds: Set<PlaceSearchKind>?, within: RegionBoundingBox?,
                       limit: Int) -> [PlaceSearchResult] {
        struct Key: Hashable { var kind: PlaceSearchKind, name: String, latitude: Double, longitude: Double }
        var seen = Set<Key>()
        return found
            .filter { kinds?.contains($0.kind) ?? true }
            .filter { within?.contains($0.coordinate, margin: 0) ?? true }
            .sorted(by: PlaceRanking.precedes)
            .filter { seen.insert(Key(kind: $0.kind, name: $0.name, latitude: $0.coordinate.latitude,
                                      longitude: $0.coordinate.longitude)).inserted }
            .prefix(limit).map { $0 }
    }

    // MARK: - Names

    /// Places whose name holds every word as a word prefix, with how well the name matches.
    func names(_ words: [String], near: Coordinate?, kinds: Set<PlaceSearchKind>?, candidates: Int) throws -> [PlaceSearchResult] {
        let match = words.map { "\"\($0)\"*" }.joined(separator: " ")
        var sql = """
            SELECT \(selectColumns) FROM place_text JOIN place p ON p.id = place_text.rowid \(addressJoin)
            WHERE place_text MATCH ?
            """
        var bindings: [SQLiteValue] = [.text(match)]
        if let kinds {
            sql += " AND p.kind IN (\(kinds.map { _ in "?" }.joined(separator: ",")))"
            bindings += kinds.sorted { $0.rawValue < $1.rawValue }.map { .text($0.rawValue) }
        }
        sql += " ORDER BY rank LIMIT \(candidates)"
        let query = words.joined(separator: " ")
        return try locked {
            try database.query(sql, bindings) { row in
                let name = Self.words(row.string(7)).joined(separator: " ")
                let match: PlaceMatch = name == query ? .exact : name.hasPrefix(query + " ") ? .leading
                    : " \(name) ".contains(" \(query) ") ? .wholeWords : name.hasPrefix(query) ? .prefix : .words
                return self.result(from: row, near: near, match: match)
            }
        }
    }

    // MARK: - Typos

    /// Longest text looked up with typos (longer text is a sentence, not a name).
    static let fuzzyLengthLimit = 60

    /// Names within the typos `EditDistance.allowed` gives for the text's length: the whole name,
    /// or its start. Candidates share letter triples with the text (the trigram index); when
    /// none of those is close enough (two edits can touch every triple of a short name), every
    /// name of a fitting length is compared.
    func fuzzyNames(_ query: String, near: Coordinate?, kinds: Set<PlaceSearchKind>?) throws -> [PlaceSearchResult] {
        let allowed = EditDistance.allowed(forLength: query.count)
        guard hasSearchTables, allowed > 0, query.count <= Self.fuzzyLengthLimit else { return [] }
        let letters = Array(query)
        let grams = Self.trigrams(letters)
        let match = grams.map { "\"\($0)\"" }.joined(separator: " OR ")
        var seen = Set<String>()
        let candidates = try locked {
            try database.query("SELECT folded FROM name_trigram WHERE name_trigram MATCH ? ORDER BY rank LIMIT 300",
                               [.text(match)]) { $0.string(0) }
        }.filter { seen.insert($0).inserted }
        func scored(_ names: [String]) -> [(name: String, rank: Int)] {
            names.compactMap { name in
                let nameLetters = Array(name)
                guard let score = Self.typoScore(letters, nameLetters, allowed: allowed) else { return nil }
                let shared = Set(Self.trigrams(nameLetters)).intersection(grams).count
                return (name, score * 100 + max(0, 99 - shared))
            }
        }
        var close = scored(candidates)
        if close.isEmpty { close = scored(try namesOfLength(letters.count - allowed...letters.count + allowed)) }
        var results: [PlaceSearchResult] = []
        for (name, rank) in close.sorted(by: { $0.rank < $1.rank }).prefix(20) {
            results += try places(named: name, kinds: kinds, near: near).map { place in
                var result = place
                result.match = .fuzzy
                result.typoRank = rank
                return result
            }
        }
        return results
    }

    /// Every place whose folded name is `folded` (found through the word index, so no index of
    /// whole names is needed).
    func places(named folded: String, kinds: Set<PlaceSearchKind>?, near: Coordinate?) throws -> [PlaceSearchResult] {
        let words = Self.words(folded)
        guard !words.isEmpty else { return [] }
        var sql = """
            SELECT \(selectColumns) FROM place_text JOIN place p ON p.id = place_text.rowid \(addressJoin)
            WHERE place_text MATCH ? AND p.folded = ?
            """
        if let kinds { sql += " AND p.kind IN (\(kinds.map { "'\($0.rawValue)'" }.joined(separator: ",")))" }
        let match = words.map { "\"\($0)\"" }.joined(separator: " ")
        return try locked { try database.query(sql, [.text(match), .text(folded)]) { self.result(from: $0, near: near) } }
    }

    static func trigrams(_ letters: [Character]) -> [String] {
        guard letters.count >= 3 else { return [] }
        var grams: [String] = []
        for start in 0...(letters.count - 3) {
            let gram = String(letters[start..<(start + 3)])
            if !grams.contains(gram) { grams.append(gram) }
        }
        return grams
    }

    /// Every indexed name (folded) whose length is in `lengths`, for the typo scan.
    func namesOfLength(_ lengths: ClosedRange<Int>) throws -> [String] {
        try locked {
            try database.query("SELECT DISTINCT folded FROM place WHERE kind != 'address' AND length(folded) BETWEEN ? AND ?",
                               [.integer(Int64(lengths.lowerBound)), .integer(Int64(lengths.upperBound))]) { $0.string(0) }
        }
    }

    /// Twice the edits between the text and the whole name, or plus one between the text and
    /// the name's start (one edit at most), or minus one for a stem (`stemInsertions`: "Vuores", the district, is
    /// the start of Vuoreksen puistokatu with one letter put in, and beats Vuorentaustantie, one
    /// letter wrong); nil beyond `allowed` edits.
    static func typoScore(_ query: [Character], _ name: [Character], allowed: Int) -> Int? {
        var best = EditDistance.between(query, name, atMost: allowed).map { $0 * 2 }
        if let inserted = stemInsertions(query, name, atMost: allowed), inserted * 2 - 1 < (best ?? .max) {
            best = inserted * 2 - 1
        }
        // A name's start is a typo away with one edit at most: two wrong letters and the rest of
        // a longer name left over is another name ("Kauppahalli" is not Kärppäkalliontie).
        let startEdits = min(allowed, 1)
        let shortest = max(1, query.count - startEdits), longest = min(name.count - 1, query.count + startEdits)
        if shortest <= longest {
            for length in shortest...longest {
                if let distance = EditDistance.between(query, Array(name[..<length]), atMost: startEdits),
                   distance * 2 + 1 < (best ?? .max) {
                    best = distance * 2 + 1
                }
            }
        }
        return best
    }

    /// A word typed as its stem, inflected in the name (Finnish "Vuores" → "Vuoreksen"): the text
    /// but its last letter starts the name, and that letter follows after 1 to `allowed` more
    /// letters of the same word, which goes on after it. The letters put in; nil when it is no
    /// such stem (five letters of text at least: a shorter stem matches too much).
    static func stemInsertions(_ query: [Character], _ name: [Character], atMost allowed: Int) -> Int? {
        guard query.count >= 5, let last = query.last, name.count > query.count,
              Array(name[..<(query.count - 1)]) == Array(query.dropLast()) else { return nil }
        for inserted in 1...max(1, allowed) {
            let at = query.count - 1 + inserted
            guard at + 1 < name.count, name[at - 1].isLetter else { return nil }
            if name[at] == last { return name[at + 1].isLetter ? inserted : nil }
        }
        return nil
    }

    // MARK: - Categories

    /// Points of interest of `category`: with `rest` (more words), those whose name has them,
    /// and those within `categoryRadius` of the place they name ("cafe Hämeenkatu").
    func places(of category: PlaceCategory, named rest: [String], near: Coordinate?,
                within: RegionBoundingBox?) throws -> [PlaceSearchResult] {
        var sql = "SELECT \(selectColumns) FROM place p \(addressJoin) WHERE p.kind = 'poi' AND "
        var bindings: [SQLiteValue] = category.tags.map { .text($0) }
        sql += category.tags.isEmpty ? "p.category LIKE 'office=%'" : "p.category IN (\(category.tags.map { _ in "?" }.joined(separator: ",")))"
        if let within {
            sql += " AND p.latitude BETWEEN ? AND ? AND p.longitude BETWEEN ? AND ?"
            bindings += [.real(within.minLatitude), .real(within.maxLatitude), .real(within.minLongitude), .real(within.maxLongitude)]
        }
        let all = try locked { try database.query(sql, bindings) { self.result(from: $0, near: near, match: .category) } }
        guard !rest.isEmpty else { return all }
        let byName = all.filter { result in
            let nameWords = Self.words(Self.fold(result.name))
            return rest.allSatisfy { word in nameWords.contains { $0.hasPrefix(word) } }
        }
        // Those named so and those near the place the words name, both ("ruokakauppa Hervanta":
        // the shop called "… Hervanta" and the supermarkets around Hervanta).
        guard let anchor = try names(rest, near: near, kinds: [.street, .poi, .stop], candidates: 50)
                .sorted(by: PlaceRanking.precedes).first(where: { candidate in !byName.contains { $0.name == candidate.name && $0.coordinate == candidate.coordinate } })
        else { return byName }
        let lines = anchor.kind == .street ? try streetLines(named: Self.fold(anchor.name), around: anchor.coordinate) : []
        return byName + all.compactMap { result in
            guard !byName.contains(result) else { return nil }
            var result = result
            let distance = lines.isEmpty ? result.coordinate.distance(to: anchor.coordinate)
                : lines.map { LineMeasure.distance(from: result.coordinate, to: $0) }.min() ?? .infinity
            guard distance <= Self.categoryRadius else { return nil }
            result.distance = distance
            return result
        }
    }

    /// How far from the named place a category result may be ("cafe Hämeenkatu").
    static let categoryRadius = 500.0

    /// The lines of the street places named `folded` within 20 km of `around` (one street, not its namesakes in other towns).
    func streetLines(named folded: String, around: Coordinate) throws -> [[Coordinate]] {
        let words = Self.words(folded)
        guard hasSearchTables, !words.isEmpty else { return [] }
        let streets = try locked {
            try database.query("""
                SELECT p.latitude, p.longitude, l.lines
                FROM place_text JOIN place p ON p.id = place_text.rowid JOIN street_line l ON l.place_id = p.id
                WHERE place_text MATCH ? AND p.folded = ? AND p.kind = 'street'
                """, [.text(words.map { "\"\($0)\"" }.joined(separator: " ")), .text(folded)]) {
                (anchor: Coordinate(latitude: $0.double(0), longitude: $0.double(1)), lines: PointsBlob.decode(lines: $0.blob(2)))
            }
        }
        return streets.filter { $0.anchor.distance(to: around) < 20_000 }.flatMap(\.lines)
    }
}
