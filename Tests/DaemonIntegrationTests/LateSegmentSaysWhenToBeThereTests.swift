import Foundation
import WireProtocol
import XCTest

/// Trial 52 (issue 39): a segment arriving late in an arrive-by plan said "you must be at X by
/// T" with T the end node's shown time, which is when the late leg gets there, not when the
/// traveller must be there ("must be at TAYS A by 09:55, 30 min too late" in a plan due at
/// 10:00; "by 10:41:07, 0 s too late" before a leg leaving 10:39). And the plan's total read
/// "none (it arrives too late)" under node times that arrive in time, following the proposal.
final class LateSegmentSaysWhenToBeThereTests: SharedTampereDaemonTestCase {
    /// `plan new Keskustori Hervanta TAYS --mode transit --arrive-by 10:00`, `plan pin ID 2
    /// 09:20`, `plan pin ID 3 09:50`: each late segment's `due` is when the traveller must be at
    /// its end to make what follows (the plan's 10:00 at the destination, else the next leg's
    /// departure as followed), and `plan show` names that time.
    func testALateSegmentNamesWhenTheTravellerMustBeAtItsEnd() throws {
        let harness = try harness
        let plan = try planToTAYSArrivingBy10(harness).id
        XCTAssertEqual(try harness.umctl(["plan", "pin", plan, "2", "09:20"]).status, 0)
        let pinned = try harness.json(["plan", "pin", plan, "3", "09:50"])
        let segments = segments(pinned), nodes = nodes(pinned)
        let late = segments.indices.filter { segments[$0]["missed_connection"] == .bool(true) }
        XCTAssertFalse(late.isEmpty, "a pin makes the arrival late: \(pinned)")
        let deadline = try XCTUnwrap(WireTime.date(from: "2022-01-12T10:00:00+02:00"))
        let text = try harness.umctl(["plan", "show", plan]).stdout
        let lateLines = text.split(separator: "\n").filter { $0.contains("late: it arrives") }
        XCTAssertEqual(lateLines.count, late.count, "one late line for each late segment: \(text)")
        for (index, lateLine) in zip(late, lateLines) {
            let due = try XCTUnwrap(date(segments[index]["due"]), "segment \(index + 1) says when to be at its end: \(segments[index])")
            let arrives = try XCTUnwrap(date(segments[index]["leg"]?["arrival"]), "\(segments[index])")
            XCTAssertGreaterThan(arrives, due, "segment \(index + 1) is late for its due time: \(segments[index])")
            if index == segments.count - 1 {
                XCTAssertEqual(due, deadline, "the destination is due at the plan's arrive-by: \(segments[index])")
            } else {
                // Before the next leg leaves (as followed: the proposal of a late pin after it).
                let next = segments[index + 1]
                let proposal = (pinned["pending"]?.arrayValue ?? []).first { $0["segment"] == .number(Double(index + 2)) }?["latest"]
                let leaves = try XCTUnwrap(date(proposal?["departure"]) ?? date(next["leg"]?["departure"]), "\(next)")
                XCTAssertLessThanOrEqual(due, leaves.addingTimeInterval(1), "due by when the next leg leaves: \(pinned)")
                if next["leg"]?["rides"]?.arrayValue?.isEmpty == false || proposal != nil {
                    XCTAssertEqual(due.timeIntervalSince1970, leaves.timeIntervalSince1970, accuracy: 1,
                                   "due when the ride after it leaves (no stay there): \(pinned)")
                }
            }
            // The words name the end and that time, not when the late leg gets there.
            let name = try XCTUnwrap(nodes[index + 1]["name"]?.stringValue)
            let dueClock = try XCTUnwrap(segments[index]["due"]?.stringValue).dropFirst(11).prefix(5)
            XCTAssertTrue(lateLine.contains("you must be at \(name) by \(dueClock)"), "\(lateLine) in \(text)")
            XCTAssertFalse(lateLine.contains(" 0 s too late"), "\(lateLine)")
        }
    }

    /// The same plan's total is that of the times it shows, following the proposals, and says
    /// that as pinned it arrives too late; not "none (it arrives too late)".
    func testAnArriveByPlanFollowingALatePinsProposalHasTheTotalOfTheTimesItShows() throws {
        let harness = try harness
        let (plan, created) = try planToTAYSArrivingBy10(harness)
        let ride = try XCTUnwrap(transitSegments(created).first, "\(created)")
        let pinned = try harness.json(["plan", "pin", plan, String(ride + 1), "09:40"])
        XCTAssertEqual(segments(pinned)[ride]["missed_connection"], .bool(true), "the pin makes the arrival late: \(pinned)")
        XCTAssertEqual(pinned["total_duration_s"], .null, "as pinned, no total: \(pinned)")
        let times = nodes(pinned).map { date($0["time"]) }
        let first = try XCTUnwrap(times.first ?? nil), last = try XCTUnwrap(times.last ?? nil)
        let total = try XCTUnwrap(pinned["total_following_proposals_s"]?.numberValue, "the total following the proposal: \(pinned)")
        XCTAssertEqual(total, last.timeIntervalSince(first), accuracy: 1, "the total spans the node times shown: \(pinned)")
        let text = try harness.umctl(["plan", "show", plan]).stdout
        XCTAssertFalse(text.contains("total: none"), text)
        // The late pin is not the last leg: as pinned, it arrives when that leg does (trial 53:
        // "as pinned it arrives too late", no time).
        let pinArrives = try XCTUnwrap(segments(pinned)[ride]["leg"]?["arrival"]?.stringValue).dropFirst(11).prefix(5)
        XCTAssertTrue(text.contains(" following the proposal (as pinned segment \(ride + 1) arrives \(pinArrives), too late)"), text)
        // Accepting the proposal gives the plan those times, and that total.
        let accepted = try harness.json(["plan", "accept", plan, String(ride + 1)])
        XCTAssertEqual(try XCTUnwrap(accepted["total_duration_s"]?.numberValue), total, accuracy: 1, "\(accepted)")
        // When the last leg is the late one, as pinned the plan arrives when it does.
        let late = try harness.json(["plan", "pin", plan, String(segments(accepted).count), "09:50"])
        let lastSegment = try XCTUnwrap(segments(late).last)
        XCTAssertEqual(lastSegment["missed_connection"], .bool(true), "the last ride pinned late: \(late)")
        let lastArrives = try XCTUnwrap(lastSegment["leg"]?["arrival"]?.stringValue).dropFirst(11).prefix(5)
        let lateText = try harness.umctl(["plan", "show", plan]).stdout
        XCTAssertTrue(lateText.contains(" following the proposal (as pinned it arrives \(lastArrives), too late)"), lateText)
    }

    /// Trial 53: a late segment ending at a point named by what is near it read "you must be at
    /// near Tarmonkatu by 10:00". `plan new Keskustori 61.47065,23.72950 --mode walk --arrive-by
    /// 10:00` (the point is "near Nuolialantie"), the walk pinned at 09:50: the node's `at` says
    /// where to be, and both clients say it.
    func testALateSegmentEndingNearAPlaceSaysYouMustBeNearIt() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new", "Keskustori", "61.47065,23.72950", "--mode", "walk",
                                        "--arrive-by", "2022-01-12T10:00"])
        let plan = try id(created)
        let end = try XCTUnwrap(nodes(created).last)
        let name = try XCTUnwrap(end["name"]?.stringValue)
        XCTAssertTrue(name.hasPrefix("near "), "a point named by what is near it: \(end)")
        XCTAssertEqual(end["at"]?.stringValue, name, "\(end)")
        XCTAssertEqual(nodes(created).first?["at"]?.stringValue, "at \(nodes(created).first?["name"]?.stringValue ?? "?")", "\(created)")
        let pinned = try harness.json(["plan", "pin", plan, String(segments(created).count), "09:50"])
        XCTAssertNotNil(segments(pinned).last?["due"]?.stringValue, "the pinned walk arrives late: \(pinned)")
        let text = try harness.umctl(["plan", "show", plan]).stdout
        XCTAssertTrue(text.contains("but you must be \(name) by 10:00"), text)
        XCTAssertFalse(text.contains("be at near "), text)
    }

    /// A pin an arrive-by plan cannot catch because a stay "until" before it ends after it
    /// leaves is not late but missed (it has no `due`): `plan new Lielahti Tampere-talo
    /// Nekalantie --arrive-by 11:00`, `plan pin ID 2 10:42`, `plan stay ID 2 --until 10:50`. It
    /// read "late: it arrives … but you must be at Nekalantie by" the destination's shown time.
    func testAPinAStayUntilMakesUncatchableInAnArriveByPlanIsSaidMissedNotLate() throws {
        let harness = try harness
        let created = try lielahtiTampereTaloNekalantie(harness, mode: "transit", "--arrive-by", "11:00")
        let plan = try id(created)
        XCTAssertEqual(Array(transitSegments(created).prefix(2)), [0, 1], "two rides: \(created)")
        XCTAssertEqual(try harness.umctl(["plan", "pin", plan, "2", "10:42"]).status, 0)
        let stayed = try harness.json(["plan", "stay", plan, "2", "--until", "10:50"])
        let segment = segments(stayed)[1]
        XCTAssertEqual(segment["missed_connection"], .bool(true), "the stay ends after the pin leaves: \(stayed)")
        XCTAssertNil(segment["due"], "not late: missed \(segment)")
        let text = try harness.umctl(["plan", "show", plan]).stdout
        XCTAssertFalse(text.contains("late: it arrives"), text)
        XCTAssertTrue(text.contains("[locked, pinned, missed]"), text)
        XCTAssertTrue(text.contains("missed: it leaves 10:42 but you can leave at 10:50"), text)
        // The price note and the proposal's line say "missed" too, never "late" (review, session 52).
        XCTAssertFalse(text.contains("the late ride"), text)
        XCTAssertFalse(text.contains("instead of the late"), text)
    }

    /// Late or missed was judged three times (the daemon's price, umctl's mark and gives-way
    /// sentence, the web page's tag), each from `due` and the plan's kind, free to disagree.
    /// The daemon says it once, `missed_as`, and umctl prints that word: late for an arrive-by
    /// pin arriving after it is due, missed for one a stay "until" makes uncatchable.
    func testEachMissedSegmentSaysOnTheWireWhetherItIsLateOrMissed() throws {
        let harness = try harness
        let late = try planToTAYSArrivingBy10(harness).id
        XCTAssertEqual(try harness.umctl(["plan", "pin", late, "2", "09:20"]).status, 0)
        let pinned = try harness.json(["plan", "pin", late, "3", "09:50"])
        let created = try lielahtiTampereTaloNekalantie(harness, mode: "transit", "--arrive-by", "11:00")
        let missed = try id(created)
        XCTAssertEqual(try harness.umctl(["plan", "pin", missed, "2", "10:42"]).status, 0)
        let stayed = try harness.json(["plan", "stay", missed, "2", "--until", "10:50"])
        for (plan, document, word) in [(late, pinned, "late"), (missed, stayed, "missed")] {
            let segments = segments(document)
            let broken = segments.indices.filter { segments[$0]["missed_connection"] == .bool(true) }
            XCTAssertFalse(broken.isEmpty, "plan \(plan) has a \(word) pin: \(document)")
            let lines = try harness.umctl(["plan", "show", plan]).stdout.split(separator: "\n").map(String.init)
            for index in segments.indices {
                let said = segments[index]["missed_as"]?.stringValue
                XCTAssertEqual(said, broken.contains(index) ? word : nil, "plan \(plan) segment \(index + 1): \(segments[index])")
                let header = try XCTUnwrap(lines.first { $0.hasPrefix("        seg \(index + 1): ") }, "\(lines)")
                XCTAssertEqual(header.hasSuffix(", \(word)]"), said != nil, "umctl marks the daemon's word: \(header)")
            }
            for sentence in lines.filter({ $0.contains(" so the pin on segment ") }) {
                XCTAssertTrue(sentence.hasSuffix(" is \(word)"), "the pin that gives way is \(word): \(sentence)")
            }
        }
    }
}
