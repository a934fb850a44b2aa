/// "Did you mean": the command a mistyped one was most likely meant to be (`plan shwo` →
/// `plan show`), when it is near enough to be a typo.
enum CommandSuggestion {
    /// The path among `paths` nearest to the first words of `words`, counting a swap of two
    /// neighbouring letters as one edit; nil when none is within a typo's reach (at most 2
    /// edits, and fewer than a third of the name).
    static func nearest(to words: [String], among paths: [[String]]) -> [String]? {
        var best: (path: [String], distance: Int)?
        for path in paths where words.count >= path.count {
            let name = path.joined(separator: " ")
            let distance = editDistance(words.prefix(path.count).joined(separator: " "), name)
            guard distance > 0, distance <= 2, distance * 3 < name.count else { continue }
            if best == nil || distance < best!.distance { best = (path, distance) }
        }
        return best?.path
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
    /// neighbours each count 1.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
