import Foundation
import WireProtocol
import XCTest

/// Issue 39, found from outside on Tampere (trial 48 findings 1, 9 and 4): a walk the planner
/// chose for its time (no ride then, or the first bus hours away) is judged again when an edit
/// moves it in time; a ride after a stay at a stop gets a leg at its new time; a pinned walk
/// says why at its own time. The Tampere feed has no service late at night and from about
/// 11:40 on 2022-01-12, and early buses from about 05:30.
final class PlannersWalksJudgedAgainTests: SharedTampereDaemonTestCase {
    func modes(_ plan: JSONValue) -> [String] { segments(plan).compactMap { $0["mode"]?.stringValue } }
    func note(_ plan: JSONValue, _ segment: Int) -> String? { segments(plan)[segment]["mode_note"]?.stringValue }
    func seconds(_ plan: JSONValue, _ segment: Int) -> Double? { segments(plan)[segment]["leg"]?["duration_s"]?.numberValue }

    static let day = ["Keskustori", "Hervanta", "Tampere-talo", "Kaleva"]

    /// Finding 1: at 23:55 the first hop of a day is walked (the next bus is at 05:54); moved to
    /// 08:10, where bus 6 runs, it kept its 1 h 29 min walk. Judged again at 08:10, it rides.
    func testAWalkChosenForItsTimeIsRiddenWhenAnEditMovesItWhereARideIsFaster() throws {
        let harness = try harness
        let night = try harness.json(["plan", "new"] + Self.day + ["--mode", "transit", "--at", "2022-01-12T23:55"])
        XCTAssertEqual(modes(night).first, "walk", "at night the first hop is walked: \(night)")
        XCTAssertTrue(note(night, 0)?.hasPrefix("walked: ") == true, "the planner's walk says why: \(night)")
        let walking = try XCTUnwrap(seconds(night, 0))

        let morning = try harness.json(["plan", "time", try id(night), "--at", "2022-01-12T08:10"])
        XCTAssertEqual(modes(morning).first, "transit", "judged again at 08:10 the hop rides: \(morning)")
        let riding = try XCTUnwrap(seconds(morning, 0), "the ride has a leg: \(morning)")
        XCTAssertLessThan(riding, walking, "the ride is faster than the walk it replaces: \(morning)")
        XCTAssertTrue(note(morning, 0)?.hasPrefix("by transit: ") == true, "the ride says why: \(morning)")
        XCTAssertEqual(nodes(morning).first?["name"], nodes(night).first?["name"], "\(morning)")
    }

    /// Finding 1 by a pin: the night's walk, timed back to the next hop pinned at 08:00 the next
    /// morning, leaves at about 06:30, when buses run; judged from 23:55 (the next bus hours
    /// away) it stayed a 1 h 30 min walk. Judged when it leaves, it rides, and leaves later.
    /// (At night every hop of the day is walked, each leaving when the traveller gets there,
    /// trial 49 finding 9: the second hop is ridden by the user's choice, to pin its bus.)
    func testAWalkTimedBackToAPinIsJudgedWhenItLeaves() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new"] + Self.day + ["--mode", "transit", "--at", "2022-01-12T23:55"])
        XCTAssertEqual(modes(created).first, "walk", "\(created)")
        let night = try harness.json(["plan", "mode", try id(created), "2", "transit"])
        XCTAssertEqual(modes(night).first, "walk", "\(night)")
        let pinned = try harness.json(["plan", "pin", try id(night), "2", "2022-01-13T08:00"])
        XCTAssertEqual(modes(pinned).first, "transit", "the hop before the pinned one rides: \(pinned)")
        let pin = try XCTUnwrap(pinned["pinned_segments"]?.arrayValue?.first?.numberValue, "\(pinned)")
        let walkLeaves = try XCTUnwrap(date(segments(pinned)[Int(pin) - 1]["leg"]?["departure"]), "\(pinned)")
            .addingTimeInterval(-(try XCTUnwrap(seconds(night, 0))))
        let leaves = try XCTUnwrap(date(nodes(pinned).first?["time"]), "\(pinned)")
        XCTAssertGreaterThan(leaves, walkLeaves, "the ride leaves later than the walk would: \(pinned)")
    }

    /// Trial 49 finding 9: a day plan at 23:55 walked its first hop but timed it to leave at
    /// 04:25, to reach Hervanta just for the 06:02 bus, and rode that bus to TAYS although the
    /// ride said "walking the whole way is no slower": the second hop was judged from when the
    /// timed walk got there, not from when the traveller can (01:24). Judged from then, every
    /// hop before the first buses walks and the plan leaves at its start.
    func testANightDayPlanJudgesEachHopFromWhenTheTravellerCanBeThere() throws {
        let harness = try harness
        let night = try harness.json(["plan", "new", "Keskustori", "Hervanta", "TAYS", "--mode", "transit", "--at", "2022-01-12T23:55"])
        XCTAssertEqual(modes(night), ["walk", "walk"], "walking beats the first buses of the morning: \(night)")
        XCTAssertEqual(nodes(night).first?["time"]?.stringValue, "2022-01-12T23:55:00+02:00", "leaves at its start: \(night)")
        XCTAssertTrue(note(night, 1)?.hasPrefix("walked: walking (") == true, "the second hop says why: \(night)")
    }

    /// Trial 49 ("rides the planner chose are not judged again"): a day made at 08:10 rides;
    /// `plan time` to 23:55 kept its rides, waiting for the 06:10 bus and arriving at 07:02,
    /// where `plan new` at 23:55 walks and arrives hours earlier. Moved in time, the day's rides
    /// are judged as a new day at that time judges them.
    func testADayMovedToTheNightWalksAsANewDayAtThatTimeDoes() throws {
        let harness = try harness
        let places = ["Keskustori", "Hervanta", "TAYS"]
        let morning = try harness.json(["plan", "new"] + places + ["--mode", "transit", "--at", "2022-01-12T08:10"])
        XCTAssertTrue(modes(morning).contains("transit"), "the morning day rides: \(morning)")
        let moved = try harness.json(["plan", "time", try id(morning), "--at", "2022-01-12T23:55"])
        let fresh = try harness.json(["plan", "new"] + places + ["--mode", "transit", "--at", "2022-01-12T23:55"])
        XCTAssertEqual(modes(moved), modes(fresh), "moved: \(moved)\nnew: \(fresh)")
        XCTAssertEqual(nodes(moved).last?["time"], nodes(fresh).last?["time"], "arrives when a new day at 23:55 does: \(moved)")
    }

    /// Finding 1, the user's walk: `plan mode ID 1 walk` at night stays a walk in the morning.
    func testAWalkTheUserChoseStaysAWalkWhenAnEditMovesItWhereARideIsFaster() throws {
        let harness = try harness
        let night = try harness.json(["plan", "new"] + Self.day + ["--mode", "transit", "--at", "2022-01-12T23:55"])
        let id = try id(night)
        XCTAssertEqual(modes(night).first, "walk", "\(night)")
        _ = try harness.json(["plan", "mode", id, "1", "walk"])
        let morning = try harness.json(["plan", "time", id, "--at", "2022-01-12T08:10"])
        XCTAssertEqual(modes(morning).first, "walk", "the user's walk stays: \(morning)")
    }

    /// Finding 1 by a stay: at 04:30 the hop from Keskustori to Tampere-talo is walked (the
    /// first ride arrives 1 h 40 min later); a stay at Keskustori until 08:50 moves it to when
    /// buses run every few minutes, where it rides.
    func testAWalkChosenForItsTimeIsJudgedAgainAfterAStayMovesIt() throws {
        let harness = try harness
        let early = try harness.json(["plan", "new", "Keskustori", "Tampere-talo", "Kaleva", "Hervanta", "--mode", "transit",
                                      "--at", "2022-01-12T04:30"])
        XCTAssertEqual(modes(early).first, "walk", "at 04:30 the first hop is walked: \(early)")
        XCTAssertTrue(note(early, 0)?.hasPrefix("walked: ") == true, "\(early)")
        let stayed = try harness.json(["plan", "stay", try id(early), "1", "--until", "08:50"])
        XCTAssertEqual(modes(stayed).first, "transit", "judged again after the stay the hop rides: \(stayed)")
        XCTAssertNotNil(seconds(stayed, 0), "\(stayed)")
        XCTAssertLessThan(try XCTUnwrap(seconds(stayed, 0)), try XCTUnwrap(seconds(early, 0)), "\(stayed)")
    }

    /// Finding 9 (F13): a stay "until" at the stop the planner inferred for the first ride, at
    /// an hour without service, left that ride "no leg" (no route, no walk). It gets a leg like
    /// any other segment at its new time: walked from the stop, saying why.
    func testARideAfterAStayUntilAtItsStopGetsALegAtItsNewTime() throws {
        let harness = try harness
        let created = try harness.json(["plan", "new"] + Self.day + ["--mode", "transit", "--at", "2022-01-12T08:10"])
        let stop = try XCTUnwrap(nodes(created).indices.first { nodes(created)[$0]["inferred"] == .bool(true) },
                                 "a stop inferred for a ride: \(created)")
        XCTAssertEqual(modes(created)[stop], "transit", "the ride leaves the inferred stop: \(created)")
        let stayed = try harness.json(["plan", "stay", try id(created), String(stop + 1), "--until", "11:40"])
        for (index, segment) in segments(stayed).enumerated() {
            XCTAssertFalse(segment["leg"]?.isNull ?? true, "segment \(index + 1) has a leg: \(stayed)")
        }
        XCTAssertEqual(nodes(stayed)[stop]["name"], nodes(created)[stop]["name"], "the stay stays at its stop: \(stayed)")
        XCTAssertTrue(note(stayed, stop)?.hasPrefix("walked: no transit route found") == true,
                      "the walk from the stop says why: \(stayed)")
    }

    /// Finding 4: pinned at 08:59, a walk the planner chose at 04:30 still said "walking (14 min)
    /// is no slower than transit (1 h 40 min)", the ride timed from 04:30. At its own time a
    /// ride takes far less than an hour: the reason judged there no longer says that.
    func testAPinnedWalkSaysWhyAtItsOwnTime() throws {
        let harness = try harness
        let early = try harness.json(["plan", "new", "Keskustori", "Tampere-talo", "Kaleva", "Hervanta", "--mode", "transit",
                                      "--at", "2022-01-12T04:30"])
        XCTAssertEqual(modes(early).first, "walk", "\(early)")
        XCTAssertTrue(note(early, 0)?.contains("transit (1 h") == true, "the first ride is over an hour away at 04:30: \(early)")
        let pinned = try harness.json(["plan", "pin", try id(early), "1", "08:59"])
        XCTAssertEqual(modes(pinned).first, "walk", "the pinned walk stays: \(pinned)")
        XCTAssertFalse(note(pinned, 0)?.contains("transit (1 h") ?? false, "no ride timed from 04:30: \(pinned)")
    }

    /// Trial 49 finding 3: a two-place plan from 02:30 whose first walk is pinned at 08:00 rode
    /// bus 6 08:14–08:34 and said "walking (1 h 29 min) is no slower than transit (6 h 07 min)",
    /// transit counted from 02:30. The traveller leaves at the pinned 08:00: from then the ride
    /// is faster, and nothing says walking is no slower.
    func testWalkingIsJudgedFromWhenAPinnedFirstWalkLeaves() throws {
        let harness = try harness
        let night = try harness.json(["plan", "new", "Keskustori", "Hervanta", "--mode", "transit", "--at", "2022-01-12T02:30"])
        let pinned = try harness.json(["plan", "pin", try id(night), "1", "08:00"])
        let rides = segments(pinned).indices.filter { modes(pinned)[$0] == "transit" && segments(pinned)[$0]["leg"] != nil }
        XCTAssertFalse(rides.isEmpty, "a ride from 08:00: \(pinned)")
        for ride in rides {
            XCTAssertFalse(note(pinned, ride)?.contains("no slower") ?? false, "judged from 08:00, not 02:30: \(pinned)")
            XCTAssertEqual(segments(pinned)[ride]["leg"]?["walking_is_no_slower"], .bool(false), "\(pinned)")
        }
    }

    /// Trial 49 finding 3: a stay of an hour at the stop a two-place plan walks to made its
    /// 3-minute bus read "walking (12 min) is no slower than transit (1 h 10 min)": the stay is
    /// the traveller's, not the ride's.
    func testAStayIsNotCountedAsTheRidesTime() throws {
        let harness = try harness
        let plan = try harness.json(["plan", "new", "Koskikeskus", "Tampere-talo", "--mode", "transit", "--at", "2022-01-12T07:51"])
        guard nodes(plan).count > 2 else { return XCTFail("a stop to walk to: \(plan)") }
        let stayed = try harness.json(["plan", "stay", try id(plan), "2", "60m"])
        for (index, mode) in modes(stayed).enumerated() where mode == "transit" {
            XCTAssertFalse(note(stayed, index)?.contains("transit (1 h") ?? false, "the hour's stay is no ride: \(stayed)")
        }
    }
}
