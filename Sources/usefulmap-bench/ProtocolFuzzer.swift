import Foundation
import WireProtocol

/// Seeded hostile request lines for the daemon: valid requests of every method, mutated by
/// truncation, random bytes, deep nesting, huge numbers, bad UTF-8, odd escapes, wrong types
/// and batches. The same seed gives the same inputs, so a failing input can be replayed.
///
/// ```swift
/// var fuzzer = ProtocolFuzzer(seed: 1)
/// let line = fuzzer.next() // bytes without the final newline
/// ```
struct ProtocolFuzzer {
    /// Valid requests, one per method and shape. `watch` is left out (it answers only when the
    /// connection ends), and `region.remove` names a region that does not exist.
    static let seeds: [[UInt8]] = [
        #"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocol_version":2,"client":"fuzz"}}"#,
        #"{"jsonrpc":"2.0","id":2,"method":"status"}"#,
        #"{"jsonrpc":"2.0","id":3,"method":"region.list","params":{}}"#,
        #"{"jsonrpc":"2.0","id":4,"method":"region.remove","params":{"name":"nowhere"}}"#,
        #"{"jsonrpc":"2.0","id":5,"method":"region.set","params":{"name":"tampere","time_zone":"Europe/Helsinki"}}"#,
        #"{"jsonrpc":"2.0","id":6,"method":"region.import","params":{"name":"fuzz","osm":"/nonexistent/fuzz.osm.pbf","gtfs":["/nonexistent/g.zip"]}}"#,
        #"{"jsonrpc":"2.0","id":7,"method":"search","params":{"text":"Keskustori","kind":"stop","limit":5}}"#,
        #"{"jsonrpc":"2.0","id":8,"method":"search","params":{"text":"Hämeenkatu","near":"61.4978,23.7610"}}"#,
        #"{"jsonrpc":"2.0","id":9,"method":"place.save","params":{"name":"koti","place":"61.4978,23.7610","note":"ovi"}}"#,
        #"{"jsonrpc":"2.0","id":10,"method":"place.list"}"#,
        #"{"jsonrpc":"2.0","id":11,"method":"place.rename","params":{"old":"koti","new":"työ"}}"#,
        #"{"jsonrpc":"2.0","id":12,"method":"place.remove","params":{"name":"työ"}}"#,
        #"{"jsonrpc":"2.0","id":13,"method":"location.set","params":{"lat":61.4978,"lon":23.761,"accuracy_m":12.5}}"#,
        #"{"jsonrpc":"2.0","id":14,"method":"location.show"}"#,
        #"{"jsonrpc":"2.0","id":15,"method":"compare","params":{"from":"61.4978,23.7610","to":"61.4502,23.8510","at":"2022-01-12T08:00"}}"#,
        #"{"jsonrpc":"2.0","id":16,"method":"plan.new","params":{"from":"61.4978,23.7610","to":"61.4502,23.8510","mode":"walk","at":"2022-01-12T08:00","pace":"fast","title":"fuzz"}}"#,
        #"{"jsonrpc":"2.0","id":17,"method":"plan.list"}"#,
        #"{"jsonrpc":"2.0","id":18,"method":"plan.show","params":{"id":1}}"#,
        #"{"jsonrpc":"2.0","id":19,"method":"plan.insert","params":{"id":1,"after":1,"place":"61.4700,23.7900","mode":"walk"}}"#,
        #"{"jsonrpc":"2.0","id":20,"method":"plan.remove","params":{"id":1,"node":2}}"#,
        #"{"jsonrpc":"2.0","id":21,"method":"plan.mode","params":{"id":1,"segment":1,"mode":"car"}}"#,
        #"{"jsonrpc":"2.0","id":22,"method":"plan.swap","params":{"id":1}}"#,
        #"{"jsonrpc":"2.0","id":23,"method":"plan.preset","params":{"id":1,"preset":"fastest"}}"#,
        #"{"jsonrpc":"2.0","id":24,"method":"plan.rebuild","params":{"id":1,"preset":"transit"}}"#,
        #"{"jsonrpc":"2.0","id":25,"method":"plan.pin","params":{"id":1,"segment":1,"time":"2022-01-12T08:30"}}"#,
        #"{"jsonrpc":"2.0","id":26,"method":"plan.unpin","params":{"id":1,"segment":1}}"#,
        #"{"jsonrpc":"2.0","id":27,"method":"plan.pace","params":{"id":1,"pace":"slow"}}"#,
        #"{"jsonrpc":"2.0","id":28,"method":"plan.time","params":{"id":1,"arrive_by":"2022-01-12T09:00"}}"#,
        #"{"jsonrpc":"2.0","id":29,"method":"plan.refine","params":{"id":1}}"#,
        #"{"jsonrpc":"2.0","id":30,"method":"plan.accept","params":{"id":1,"segment":1}}"#,
        #"{"jsonrpc":"2.0","id":31,"method":"plan.dismiss","params":{"id":1,"segment":1}}"#,
        #"{"jsonrpc":"2.0","id":32,"method":"plan.refresh","params":{"id":1}}"#,
        #"{"jsonrpc":"2.0","id":33,"method":"plan.link","params":{"id":1,"segment":1}}"#,
        #"{"jsonrpc":"2.0","id":34,"method":"plan.delete","params":{"id":2}}"#,
        #"{"jsonrpc":"2.0","id":35,"method":"history.searches","params":{"limit":3}}"#,
        #"{"jsonrpc":"2.0","id":36,"method":"history.routes","params":{"limit":1}}"#,
        #"{"jsonrpc":"2.0","id":"s-37","method":"history.clear","params":{"which":"searches"}}"#,
        #"{"jsonrpc":"2.0","id":40,"method":"search","params":{"text":"Hämeenkatu 10 B, 33100 Tampere","kind":"address"}}"#,
        #"{"jsonrpc":"2.0","id":41,"method":"search","params":{"text":"cafe Hämeenkatu","near":"Keskustori","within":{"min_lat":61.4,"min_lon":23.6,"max_lat":61.6,"max_lon":23.9}}}"#,
        #"{"jsonrpc":"2.0","id":42,"method":"search.complete","params":{"text":"Hämeenk","limit":10}}"#,
        #"{"jsonrpc":"2.0","id":43,"method":"where","params":{"place":"61.4978,23.7610"}}"#,
        #"{"jsonrpc":"2.0","method":"status"}"#,
        #"[{"jsonrpc":"2.0","id":38,"method":"status"},{"jsonrpc":"2.0","id":39,"method":"place.list"}]"#,
    ].map { (text: String) in Array(text.utf8) } + oddSearchTexts.map { text in
        Array(#"{"jsonrpc":"2.0","id":44,"method":"search","params":{"text":"#.utf8) + ((try? JSONEncoder().encode(text)).map { Array($0) } ?? []) + Array("}}".utf8)
    }

    /// Search text that must never reach SQLite as FTS syntax nor raise a database error.
    static let oddSearchTexts = ["\"", "*", "keskus*", "NEAR(", "NEAR(a b, 2)", "a AND b", "OR", "NOT keskustori", "-", "^a",
                                 "col:val", "{a b}", "😀", "🚌 Keskustori", "\u{0}\u{7}", "", "   ", "'; DROP TABLE place; --",
                                 String(repeating: "ä", count: 10_000)]

    static let hugeNumbers = ["1e999999", "-1e999999", "99999999999999999999999999999999", "-9223372036854775809",
                              "9223372036854775808", "1.7976931348623157e309", "4.9e-325", "-0", "0.0000000000000000000001",
                              "1" + String(repeating: "0", count: 5000), "NaN", "Infinity", "0x10", "01", "1.", ".5", "1e"]
    static let strangeValues = ["null", "true", "false", "[]", "{}", "\"\"", "-1", "0", "2147483648", "[[[]]]",
                                #"{"id":1}"#, #""\u0000""#, #""\ud800""#, #""\udfff\ud800""#, #""\u001b[2J""#,
                                #""\\""#, #""a\"b""#, "\"" + String(repeating: "ä", count: 3000) + "\""]
    static let badUTF8: [[UInt8]] = [[0xC3, 0x28], [0xFF], [0xFE, 0xFF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
                                     [0xC0, 0xAF], [0xE2, 0x82], [0x80], [0xF0, 0x9F, 0x98]]

    private var random: SeededGenerator

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    /// The next input line (it may contain newlines of its own, which split it into several).
    mutating func next() -> [UInt8] {
        // Rarely a line over the daemon's limit: it answers `line_too_long` and closes.
        if Int.random(in: 0..<500, using: &random) == 0 {
            return Array(#"{"jsonrpc":"2.0","id":1,"method":"search","params":{"text":""#.utf8)
                + Array(repeating: UInt8(ascii: "x"), count: WireLimits.maximumLineBytes) + Array(#""}}"#.utf8)
        }
        var line = pick(Self.seeds)
        let mutations = Int.random(in: 0...3, using: &random)
        for _ in 0..<mutations { line = mutate(line) }
        return line
    }

    /// `small` leaves out the mutations that make long lines or batches (for batch members).
    private mutating func mutate(_ line: [UInt8], small: Bool = false) -> [UInt8] {
        let choices = small ? [0, 1, 2, 4, 5, 7, 9, 10] : Array(0..<12)
        switch pick(choices) {
        case 0: return truncate(line)
        case 1: return overwrite(line)
        case 2: return insertRandomBytes(line)
        case 3: return deeplyNested(line)
        case 4: return replaceValue(line, with: Array(pick(Self.hugeNumbers).utf8))
        case 5: return insertIntoString(line, pick(Self.badUTF8))
        case 6: return batch()
        case 7: return replaceValue(line, with: Array(pick(Self.strangeValues).utf8))
        case 8: return longString(line)
        case 9: return insertIntoString(line, Array(pick([#"\u0000"#, #"\ud800"#, #"\"#, #"\uZZZZ"#, "\u{1B}[2J", "\r", "\t"]).utf8))
        case 10: return duplicateKey(line)
        default: return Array(pick(["", " ", "[]", "[1,2,3]", "{}", "null", "\"text\"", "42", "[[]]", "{\"jsonrpc\":\"2.0\"}",
                                     "\u{FEFF}{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"status\"}"]).utf8)
        }
    }

    // MARK: - Mutations

    private mutating func truncate(_ line: [UInt8]) -> [UInt8] {
        guard !line.isEmpty else { return line }
        return Array(line.prefix(Int.random(in: 0..<line.count, using: &random)))
    }

    private mutating func overwrite(_ line: [UInt8]) -> [UInt8] {
        guard !line.isEmpty else { return randomBytes(8) }
        var result = line
        let start = Int.random(in: 0..<line.count, using: &random)
        let end = min(line.count, start + Int.random(in: 1...8, using: &random))
        for index in start..<end { result[index] = UInt8.random(in: 0...255, using: &random) }
        return result
    }

    private mutating func insertRandomBytes(_ line: [UInt8]) -> [UInt8] {
        var result = line
        result.insert(contentsOf: randomBytes(Int.random(in: 1...16, using: &random)),
                      at: Int.random(in: 0...line.count, using: &random))
        return result
    }

    /// Params nested thousands deep, closed or not.
    private mutating func deeplyNested(_ line: [UInt8]) -> [UInt8] {
        let depth = pick([64, 500, 5_000, 50_000, 150_000])
        let open: [UInt8] = Bool.random(using: &random) ? Array("[".utf8) : Array(#"{"a":"#.utf8)
        let close: [UInt8] = open.count == 1 ? Array("]".utf8) : Array("}".utf8)
        var nested = Array(repeating: open, count: depth).flatMap { $0 } + Array("1".utf8)
        if Bool.random(using: &random) { nested += Array(repeating: close, count: depth).flatMap { $0 } }
        return Array(#"{"jsonrpc":"2.0","id":1,"method":"search","params":"#.utf8) + nested + Array("}".utf8)
            + (Bool.random(using: &random) ? [] : line)
    }

    /// Replaces the value after a random `":` (up to the next `,` or `}`) with `value`.
    private mutating func replaceValue(_ line: [UInt8], with value: [UInt8]) -> [UInt8] {
        let colons = line.indices.filter { line[$0] == UInt8(ascii: ":") }
        guard let colon = colons.randomElement(using: &random) else { return line + value }
        var end = colon + 1
        var depth = 0
        while end < line.count {
            let byte = line[end]
            if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") { depth += 1 }
            if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
                if depth == 0 { break }
                depth -= 1
            }
            if byte == UInt8(ascii: ","), depth == 0 { break }
            end += 1
        }
        return Array(line[...colon]) + value + Array(line[end...])
    }

    /// Puts `bytes` just after a random double quote (inside a key or a string value).
    private mutating func insertIntoString(_ line: [UInt8], _ bytes: [UInt8]) -> [UInt8] {
        let quotes = line.indices.filter { line[$0] == UInt8(ascii: "\"") }
        guard let quote = quotes.randomElement(using: &random) else { return line + bytes }
        var result = line
        result.insert(contentsOf: bytes, at: quote + 1)
        return result
    }

    private mutating func longString(_ line: [UInt8]) -> [UInt8] {
        let length = pick([1_000, 70_000, 400_000])
        let filler = pick(["a", "ä", "\\n", " "])
        var text = Array("\"".utf8)
        text += Array(String(repeating: filler, count: length / filler.utf8.count).utf8)
        text += Array("\"".utf8)
        return replaceValue(line, with: text)
    }

    private mutating func duplicateKey(_ line: [UInt8]) -> [UInt8] {
        guard line.first == UInt8(ascii: "{") else { return line }
        let extra = pick([#""id":null,"#, #""id":[1],"#, #""method":"plan.delete","#, #""jsonrpc":"1.0","#,
                          #""params":[1,2],"#, #""id":1.5,"#, #""unknown":{"deep":[1,{}]},"#, #""id":{"a":1},"#])
        return [line[0]] + Array(extra.utf8) + Array(line.dropFirst())
    }

    private mutating func batch() -> [UInt8] {
        let count = pick([0, 1, 2, 10, 100])
        var parts: [[UInt8]] = []
        for _ in 0..<count {
            var member = pick(Self.seeds)
            if Bool.random(using: &random) { member = mutate(member, small: true) }
            parts.append(member.filter { $0 != 0x0A })
        }
        return Array("[".utf8) + Array(parts.joined(separator: Array(",".utf8))) + Array("]".utf8)
    }

    // MARK: - Helpers

    private mutating func randomBytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    private mutating func pick<T>(_ values: [T]) -> T {
        values[Int.random(in: 0..<values.count, using: &random)]
    }
}
