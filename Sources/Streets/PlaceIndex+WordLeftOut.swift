import Planner

extension PlaceIndex {
    /// Text of more words than this is not guessed at a word left out (each word is one more
    /// name query, and a sentence is no name).
    static let wordsLeftOutAtMost = 4

    /// When nothing else answers text of several words (no name, address, category or typo):
    /// the places named all of its words but one, exactly or followed by more words. "Tampereen
    /// rautatieasema" (the town's name before the station's, as people say it) finds the stops
    /// "Rautatieasema A" …, where it found nothing. A guess: each result is a fuzzy match (so
    /// "did you mean" offers it and a place taken from it carries a note) that names the word
    /// it left out (`leftOutWord`, as typed), ranked after every typo: whole names first, then
    /// the shorter word left out. A name that merely holds the other words somewhere, or starts with part of one, is
    /// no answer; text with a number (an address, a postcode) is not guessed at.
    /// - parameter typed: the text's words as typed (unfolded), for the note; `words` folded.
    func namesLeavingOutAWord(_ words: [String], typed: [String], near: Coordinate?,
                              kinds: Set<PlaceSearchKind>?) throws -> [PlaceSearchResult] {
        // An address's numbers and postcode rule places out; only names are guessed at.
        guard (2...Self.wordsLeftOutAtMost).contains(words.count),
              !words.contains(where: { $0.contains(where: \.isNumber) }) else { return [] }
        var found: [PlaceSearchResult] = []
        for index in words.indices {
            var rest = words
            rest.remove(at: index)
            let left = typed.count == words.count ? typed[index] : words[index]
            found += try names(rest, near: near, kinds: kinds, candidates: Self.candidateLimit).compactMap { place in
                guard place.match == .exact || place.match == .leading else { return nil }
                var result = place
                // A whole name first ("Kauppakeskus Koskikeskus": Koskikeskus, not "Kauppakeskus
                // Ratina"), then most of the text kept ("Tampereen rautatieasema": the stops
                // "Rautatieasema A" …, not the streets "Tampereen …").
                result.typoRank = Self.leftOutWordRank + (place.match == .exact ? 0 : 1_000) + words[index].count
                result.match = .fuzzy
                result.leftOutWord = left
                return result
            }
        }
        return found
    }

    /// Past every typo's rank (`typoScore` and a misspelt category's stay far below it).
    static let leftOutWordRank = 100_000
}
