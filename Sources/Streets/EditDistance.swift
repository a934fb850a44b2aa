/// How many letters differ between two strings: insertions, deletions, substitutions and
/// swaps of two neighbours each count one (optimal string alignment distance).
///
/// ```swift
/// EditDistance.between("keskstori", "keskustori", atMost: 2)   // 1
/// EditDistance.between("hervanta", "tampere", atMost: 2)       // nil: more than 2
/// ```
enum EditDistance {
    /// The distance, or nil when it is more than `limit` (the search stops early then).
    static func between(_ a: [Character], _ b: [Character], atMost limit: Int) -> Int? {
        if abs(a.count - b.count) > limit { return nil }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) <= limit ? max(a.count, b.count) : nil }
        let width = b.count + 1
        var twoBack = [Int](repeating: 0, count: width)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: width)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, twoBack[j - 2] + 1)
                }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return nil }
            (twoBack, previous, current) = (previous, current, twoBack)
        }
        let distance = previous[b.count]
        return distance <= limit ? distance : nil
    }

    static func between(_ a: String, _ b: String, atMost limit: Int) -> Int? {
        between(Array(a), Array(b), atMost: limit)
    }

    /// The edits a query of this many letters may carry and still match: none below 4
    /// letters, one up to 5, two from 6 ("Hämenkatu" and "Keskstori" are typos; "ab" is not).
    static func allowed(forLength length: Int) -> Int {
        switch length {
        case ..<4: 0
        case 4...5: 1
        default: 2
        }
    }
}
