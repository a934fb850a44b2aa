/// "Did you mean": the command a mistyped one was most likely meant to be (`plan shwo` →
/// `plan show`), when it is near enough to be a typo.
enum CommandSuggestion {
    /// The path among `paths` nearest to the first words of `words`, counting a swap of two
    /// neighbouring letters as one edit; nil when none is within a typo's reach (at most 2
    /// edits, and fewer than a third of the name).
    static func nearest(to words: [String], among paths: [[String]]) -> [String]? {
        var best: (path: [String], distance: Int)?
        for path in paths where words.count >= path.count {
            let name = path.joinedPlainly(separator: " ")
            let distance = editDistance(Array(words.prefix(path.count)).joinedPlainly(separator: " "), name)
            guard distance > 0, distance <= 2, distance * 3 < name.count else { continue }
            if best == nil || distance < best!.distance { best = (path, distance) }
        }
        return best?.path
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
    /// neighbours each count 1. One flat table (a row per character of `a`), not an array per row.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        let width = b.count + 1
        var table = [Int](repeating: 0, count: (a.count + 1) * width)
        for i in 0...a.count { table[i * width] = i }
        for j in 0...b.count { table[j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var best = min(table[(i - 1) * width + j] + 1, table[i * width + j - 1] + 1, table[(i - 1) * width + j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = min(best, table[(i - 2) * width + j - 2] + 1)
                }
                table[i * width + j] = best
            }
        }
        return table[a.count * width + b.count]
    }
}
