import Foundation
import TestSupport
import WireProtocol
import XCTest

/// What the mode-note figure tests read: a plan's noted segments with their times, the minutes
/// a note's words give, and what `compare` says of a stretch at a moment.
extension XCTestCase {
    /// A segment of `plan show --json` that says why it has its mode.
    struct NotedSegment {
        var number: Int, note: String, header: String
        /// The minutes its header shows ("transit 22 min").
        var duration: Int
        var departure: Date, arrival: Date
        var from: String, to: String
    }

    /// Plan `id`'s noted segments: the words and header of `plan show`, the times and ends of its JSON.
    func notedSegments(ofPlan id: String, _ harness: DaemonHarness) throws -> [NotedSegment] {
        let json = try harness.json(["plan", "show", id])
        let nodes = json["nodes"]?.arrayValue ?? []
        let shown = notedSegments(try harness.umctl(["plan", "show", id]).stdout)
        return try segments(json).indices.compactMap { index -> NotedSegment? in
            let segment = segments(json)[index]
            guard let note = segment["mode_note"]?.stringValue else { return nil }
            let header = try XCTUnwrap(shown.first { $0.header.hasPrefix("seg \(index + 1): ") }, "segment \(index + 1): \(shown)")
            XCTAssertEqual(header.note, note, "plan show says what the JSON says")
            func time(_ key: String) throws -> Date { try XCTUnwrap(segment["leg"]?[key]?.stringValue.flatMap(Self.instant), "\(segment)") }
            func place(_ node: JSONValue) -> String {
                "\(node["lat"]?.numberValue ?? 0),\(node["lon"]?.numberValue ?? 0)"
            }
            return NotedSegment(number: index + 1, note: note, header: header.header,
                                duration: try XCTUnwrap(Self.minutes(in: header.duration), header.header),
                                departure: try time("departure"), arrival: try time("arrival"),
                                from: place(nodes[index]), to: place(nodes[index + 1]))
        }
    }

    /// Every "by transit: N door to door from … where walking takes M" of plan `plan`: N is the
    /// difference of the shown times of the ground it names (a segment "from its departure",
    /// else "from A to B"), M is `compare`'s walk of that same ground, and N < M. Returns the
    /// grounds named.
    @discardableResult
    func assertRideNotesCoverOneGround(ofPlan plan: String, _ harness: DaemonHarness,
                                       file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let json = try harness.json(["plan", "show", plan])
        let nodes = json["nodes"]?.arrayValue ?? [], all = segments(json)
        let names = nodes.map { $0["name"]?.stringValue ?? "" }
        let pattern = try NSRegularExpression(pattern: #"^by transit: (.+) door to door from (.+) \(walks and waits included\) where walking takes (.+)$"#)
        var grounds: [String] = []
        for (index, segment) in all.enumerated() {
            guard let note = segment["mode_note"]?.stringValue,
                  let match = pattern.firstMatch(in: note, range: NSRange(note.startIndex..., in: note)),
                  let groundRange = Range(match.range(at: 2), in: note) else { continue }
            let ground = String(note[groundRange])
            grounds.append(ground)
            let ends: (from: Int, to: Int)? = ground == "its departure" ? (index, index + 1)
                : (0...index).reversed().lazy.compactMap { from in
                    ((index + 1)..<nodes.count).first { ground == "\(names[from]) to \(names[$0])" }.map { (from, $0) }
                }.first
            let (from, to) = try XCTUnwrap(ends, "the ground \"\(ground)\" is two places of the plan around segment \(index + 1)",
                                           file: file, line: line)
            let leaving = try XCTUnwrap(all[from]["leg"]?["departure"]?.stringValue.flatMap(Self.instant), "\(all[from])")
            let arriving = try XCTUnwrap(nodes[to]["time"]?.stringValue.flatMap(Self.instant), "\(nodes[to])")
            let figures = Self.figures(in: note), said = "segment \(index + 1): \(note)"
            func place(_ node: JSONValue) -> String { "\(node["lat"]?.numberValue ?? 0),\(node["lon"]?.numberValue ?? 0)" }
            XCTAssertEqual(figures.first, Self.minutes(from: leaving, to: arriving),
                           "door to door as the ground's shown times give it: \(said)", file: file, line: line)
            XCTAssertEqual(figures.dropFirst().first, try comparedWalk(from: place(nodes[from]), to: place(nodes[to]), at: leaving, harness),
                           "compare's walk of the same ground: \(said)", file: file, line: line)
            XCTAssertLessThan(figures.first ?? .max, figures.dropFirst().first ?? 0, "the ride is faster: \(said)", file: file, line: line)
        }
        return grounds
    }

    /// When `compare FROM TO --at MOMENT` (to the second) has the `mode` option leave and arrive.
    func compared(_ mode: String, from: String, to: String, at moment: Date, _ harness: DaemonHarness) throws
        -> (departure: Date, arrival: Date) {
        let compared = try harness.json(["compare", from, to, "--at", Self.atArgument(moment)])
        let option = try XCTUnwrap(compared["options"]?.arrayValue?.first { $0["mode"]?.stringValue == mode }, "\(compared)")
        return (try XCTUnwrap(option["departure"]?.stringValue.flatMap(Self.instant), "\(option)"),
                try XCTUnwrap(option["arrival"]?.stringValue.flatMap(Self.instant), "\(option)"))
    }

    /// The minutes `compare` shows for walking a stretch asked at a whole minute.
    func comparedWalk(from: String, to: String, at moment: Date, _ harness: DaemonHarness) throws -> Int {
        let minute = Date(timeIntervalSince1970: (moment.timeIntervalSince1970 / 60).rounded(.down) * 60)
        let walk = try compared("walk", from: from, to: to, at: minute, harness)
        return Self.minutes(from: walk.departure, to: walk.arrival)
    }

    /// The figures of a note's words, in order: "walking (1 h 20 min) … (23 min …)" is [80, 23].
    static func figures(in note: String) -> [Int] {
        let pattern = try! NSRegularExpression(pattern: #"(?:(\d+) h )?(\d+) min"#)
        return pattern.matches(in: note, range: NSRange(note.startIndex..., in: note)).map { match in
            let hours = Range(match.range(at: 1), in: note).flatMap { Int(note[$0]) } ?? 0
            return hours * 60 + (Range(match.range(at: 2), in: note).flatMap { Int(note[$0]) } ?? 0)
        }
    }

    /// "22 min", "1 h 07 min" in minutes.
    static func minutes(in words: String) -> Int? { figures(in: words).first }

    /// Minutes between two instants as their shown times (floored to the minute) give them.
    static func minutes(from start: Date, to end: Date) -> Int {
        Int((end.timeIntervalSince1970 / 60).rounded(.down)) - Int((start.timeIntervalSince1970 / 60).rounded(.down))
    }

    static func instant(_ text: String) -> Date? { ISO8601DateFormatter().date(from: text) }

    /// An instant as `--at` reads it, to the second, in Tampere's offset that January.
    static func atArgument(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(secondsFromGMT: 7_200)
        return formatter.string(from: date)
    }
}
