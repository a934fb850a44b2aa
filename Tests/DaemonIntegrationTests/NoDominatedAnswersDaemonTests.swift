import Foundation
import WireProtocol
import XCTest

/// The dominance rule (docs/planner.md) through the real daemon on Tampere: a transit plan of
/// `plan new` is never beaten by leaving two minutes later (the daemon asked again then arrives
/// later or changes more often), and no option of `plan alternatives` is dominated by another.
/// The same holds for `compare`'s transit option.
final class NoDominatedAnswersDaemonTests: SharedTampereDaemonTestCase {
    static let zone = TimeZone(identifier: "Europe/Helsinki")!

    /// Seeded pairs of points in Tampere with morning times on 2022-01-12.
    func seededTrips(count: Int, seed: UInt64 = 39_0001) -> [(from: String, to: String, at: String)] {
        var g = SeededRandom(seed: seed)
        return (0..<count).map { _ in
            func point() -> String {
                String(format: "%.5f,%.5f", Double.random(in: 61.44...61.51, using: &g), Double.random(in: 23.68...23.86, using: &g))
            }
            let at = String(format: "2022-01-12T%02d:%02d", Int.random(in: 6...10, using: &g), Int.random(in: 0...59, using: &g))
            return (point(), point(), at)
        }
    }

    /// `plan new` by transit; nil when the daemon answers with no route (exit 4: no stop near an
    /// end), any other failure fails the test.
    func transitPlan(_ from: String, _ to: String, at: String, arriveBy: Bool = false) throws -> JSONValue? {
        let arguments = ["plan", "new", from, to, "--mode", "transit", arriveBy ? "--arrive-by" : "--at", at, "--json"]
        let result = try harness.umctl(arguments)
        if result.status == 4 { return nil }
        XCTAssertEqual(result.status, 0, "umctl \(arguments.joined(separator: " ")): \(result.stderr)")
        guard result.status == 0 else { return nil }
        return try WireCodec.decoder.decode(JSONValue.self, from: Data(result.stdout.utf8))
    }

    func later(_ date: Date) -> String { WireTime.string(from: date.addingTimeInterval(120), timeZone: Self.zone) }

    /// Departure, arrival, transfers and walking seconds of a leg document.
    func criteria(_ leg: JSONValue?) -> (departure: Date, arrival: Date, transfers: Int, walking: Double)? {
        guard let leg, let departure = date(leg["departure"]), let arrival = date(leg["arrival"]),
              let transfers = leg["transfers"]?.numberValue else { return nil }
        let walking = (leg["walks"]?.arrayValue ?? []).reduce(0.0) { $0 + ($1["duration_s"]?.numberValue ?? 0) }
        return (departure, arrival, Int(transfers), walking)
    }

    private func minute(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 60).rounded(.down) * 60)
    }

    func testPlansAndTheirAlternativesAcrossTampereHaveNoDominatedOption() throws {
        var plans = 0, listed = 0, dominated: [String] = []
        // First the case found by hand: from Keskustori at 09:40 bus 80B leaves 09:43:30 and
        // arrives 09:48; bus 40A, listed too, leaves 09:43:58 and arrives 09:51 with more walking.
        for (from, to, at) in [("Keskustori", "Rautatieasema", "2022-01-12T09:40")] + seededTrips(count: 40) where plans < 13 {
            guard let plan = try transitPlan(from, to, at: at) else { continue }
            // A new plan is one the traveller can follow: no ride missed as made (trial 60 F8).
            if segments(plan).contains(where: { $0["missed_connection"] == .bool(true) }) {
                dominated.append("plan \(from) → \(to) at \(at) misses a ride as made: \(segments(plan))")
            }
            guard let segment = transitSegments(plan).first,
                  let start = date(nodes(plan).first?["time"]), let end = date(nodes(plan).last?["time"]) else { continue }
            plans += 1
            let id = try id(plan)
            // The whole plan: leaving two minutes later does not arrive as early (in the same shown
            // minute or before: the same arrival), whatever its transfers.
            if let again = try transitPlan(from, to, at: later(start)),
               let againEnd = date(nodes(again).last?["time"]), minute(againEnd) <= minute(end) {
                dominated.append("plan \(from) → \(to) at \(at): \(start)–\(end), yet from \(later(start)) it arrives \(againEnd)")
            }
            let options = try alternatives(id, segment)
            listed += options.count
            dominated += dominatedOptions(options, context: "plan \(id) (\(from) → \(to) at \(at))")
        }
        XCTAssertGreaterThanOrEqual(plans, 10, "enough plans were read")
        XCTAssertGreaterThan(listed, plans * 2, "the plans list several options")
        XCTAssertEqual(dominated, [], "\(dominated.count) dominated")
    }

    /// Trial 55: `plan alternatives` of Pyynikintori → Lielahti from 08:09 listed the same bus 9
    /// trip twice, boarded 38 s apart after 10 and 12 min of walking, and the same 80B trip twice,
    /// 9 s apart, once after an extra 70B ride. Leaving less than a minute later buys no longer
    /// walk and no change (`JourneyDominance`): no trip is listed twice that way.
    func testAlternativesNeverListTheSameTripBoardedLessThanAMinuteLaterForMore() throws {
        let plan = try XCTUnwrap(try transitPlan("Pyynikintori", "Lielahti", at: "2022-01-12T08:09"))
        let id = try id(plan)
        _ = try harness.json(["plan", "mode", id, "1", "transit"])
        let listed = try harness.json(["plan", "alternatives", id, "1", "--count", "8"])["options"]?.arrayValue ?? []
        let options = listed.compactMap(criteria)
        XCTAssertGreaterThanOrEqual(options.count, 5, "a long list")
        XCTAssertEqual(dominatedOptions(options, context: "plan \(id)"), [])
        let trips = listed.map { ($0["rides"]?.arrayValue ?? []).compactMap { $0["trip_id"]?.stringValue } }
        for (k, a) in options.enumerated() {
            for (m, b) in options.enumerated() where m > k && !trips[k].isEmpty && trips[k] == trips[m] {
                XCTAssertGreaterThan(abs(a.departure.timeIntervalSince(b.departure)), 60,
                                     "options \(k + 1) and \(m + 1) ride trips \(trips[k]) and leave within a minute")
            }
        }
    }

    /// The options `plan alternatives` lists for segment `segment` (0-based) of plan `id`.
    private func alternatives(_ id: String, _ segment: Int) throws -> [(departure: Date, arrival: Date, transfers: Int, walking: Double)] {
        (try harness.json(["plan", "alternatives", id, String(segment + 1)])["options"]?.arrayValue ?? []).compactMap(criteria)
    }

    /// Each option another one dominates, to the second or as the traveller reads them, to the
    /// minute (`plan alternatives` shows 09:43 for 09:43:30 and 09:43:58), or that one leaving
    /// at most a minute earlier beats with fewer transfers (or as many and less walking),
    /// arriving in the same shown minute or before.
    private func dominatedOptions(_ options: [(departure: Date, arrival: Date, transfers: Int, walking: Double)],
                                  context: String) -> [String] {
        var dominated: [String] = []
        for (k, a) in options.enumerated() {
            for (m, b) in options.enumerated() where m != k {
                let reads: [(Date) -> Date] = [{ $0 }, minute]
                for read in reads {
                    let asGood = read(b.departure) >= read(a.departure) && read(b.arrival) <= read(a.arrival)
                        && b.transfers <= a.transfers && b.walking <= a.walking
                    let same = read(b.departure) == read(a.departure) && read(b.arrival) == read(a.arrival)
                        && b.transfers == a.transfers && b.walking == a.walking
                    if asGood && !same {
                        dominated.append("\(context): option \(k + 1) \(a) is dominated by option \(m + 1) \(b)")
                        break
                    }
                }
                if b.departure >= a.departure.addingTimeInterval(-60) && minute(b.arrival) <= minute(a.arrival)
                    && (b.transfers < a.transfers || b.transfers == a.transfers && b.walking < a.walking) {
                    dominated.append("\(context): option \(k + 1) \(a) is beaten within a minute by option \(m + 1) \(b)")
                }
            }
        }
        return dominated
    }

    /// The mirror for arrive-by plans: their alternatives list no option another dominates
    /// (found from outside: 8 of 36 random arrive-by plans listed an option beside one leaving
    /// in the same minute that arrives no later, changes no more often and walks less).
    func testArriveByPlansListNoDominatedAlternative() throws {
        var plans = 0, listed = 0, dominated: [String] = []
        for (from, to, at) in seededTrips(count: 60, seed: 46) where plans < 25 {
            guard let plan = try transitPlan(from, to, at: at, arriveBy: true),
                  let segment = transitSegments(plan).first else { continue }
            plans += 1
            let id = try id(plan)
            let options = try alternatives(id, segment)
            listed += options.count
            dominated += dominatedOptions(options, context: "plan \(id) (\(from) → \(to) by \(at))")
        }
        XCTAssertGreaterThanOrEqual(plans, 10, "enough plans were read")
        XCTAssertGreaterThan(listed, plans * 2, "the plans list several options")
        XCTAssertEqual(dominated, [], "\(dominated.count) dominated")
    }

    typealias Compared = (departure: Date, arrival: Date, transfers: Int, lines: [String])

    /// Each trip's `compare` transit answer (arriving by its time with `arriveBy`), asked again at
    /// `askAgain(answer)` (to depart then; to arrive by then with `againArriveBy`): how many had
    /// both answers, and a line for each answer the second beats (`beats(second, first, the time asked)`).
    func answersBeatenWhenAskedAgain(_ trips: [(from: String, to: String, at: String)], arriveBy: Bool = false,
                                     againArriveBy: Bool = false, at askAgain: (Compared) -> String,
                                     beats: (Compared, Compared, String) -> Bool) async throws -> (checked: Int, beaten: [String]) {
        let client = try harness.client()
        var checked = 0, beaten: [String] = []
        for (from, to, at) in trips {
            guard let answer = try await comparedTransit(client, from, to, at: at, arriveBy: arriveBy),
                  let again = try await comparedTransit(client, from, to, at: askAgain(answer), arriveBy: againArriveBy) else { continue }
            checked += 1
            if beats(again, answer, at) {
                beaten.append("compare \(from) \(to) \(arriveBy ? "--arrive-by" : "--at") \(at): \(answer.departure)–\(answer.arrival) "
                              + "on \(answer.lines), yet \(againArriveBy ? "by" : "at") \(askAgain(answer)) \(again.departure)–\(again.arrival) "
                              + "on \(again.lines)")
            }
        }
        return (checked, beaten)
    }

    /// `compare`'s transit option from `from` to `to` at `at`: departure, arrival,
    /// transfers and lines; nil when transit has no answer there (no stop near an end, no service).
    func comparedTransit(_ client: WireClient, _ from: String, _ to: String, at: String,
                         arriveBy: Bool = false) async throws -> Compared? {
        let answer = try await client.call(Endpoints.compare, arriveBy ? Params.Compare(from: from, to: to, arriveBy: at)
                                                                       : Params.Compare(from: from, to: to, at: at))
        guard let option = answer.options.first(where: { $0.mode == .transit }),
              let departure = option.departure.flatMap(WireTime.date(from:)), let arrival = option.arrival.flatMap(WireTime.date(from:)),
              let transfers = option.transfers else { return nil }
        return (departure, arrival, transfers, option.lines)
    }

    /// `compare` over 90 seeded pairs and the cases found by hand: asked again two minutes after its transit
    /// answer leaves, the daemon never arrives as early (in the same shown minute: session 58), whatever the transfers (that later
    /// journey was reachable from the same origin at the first time too, so it would dominate
    /// the answer).
    func testCompareAcrossTampereIsNeverBeatenByLeavingTwoMinutesLater() async throws {
        // First the case found by hand (docs/planner.md): bus 12 after a 1.9 km walk, arriving
        // 10:49:43, while bus 11 from 10:12:44 arrives 10:48:17.
        // Then trial 55's, beaten by a change that leaves later: from 61.46732,23.65185 at 10:54
        // the answer left 10:58:48 and arrived 11:57:31, while from 11:00:48 buses 8 and 19 left
        // 11:01:39 and arrived 11:56:04; from Tampere-talo at 06:15 it left 06:15:17, while from
        // 06:17:17 a short ride onto the same trip left 06:17:41 and arrived as early.
        // And trial 57's: from 61.46066,23.73866 at 07:45 it left 07:54:38 on a 23-min walk to bus 12,
        // while from 07:56:38 bus 34 left 08:01:01 for the same bus 12 (the street-timed searches ran out).
        let trips = [("61.45819,23.76135", "61.47329,23.71711", "2022-01-12T09:59"),
                     ("61.46732,23.65185", "61.51977,23.67335", "2022-01-12T10:54"),
                     ("Tampere-talo", "61.47146,23.75773", "2022-01-12T06:15"),
                     ("61.46066,23.73866", "61.47364,23.83366", "2022-01-12T07:45")] + seededTrips(count: 90)
        let (checked, dominated) = try await answersBeatenWhenAskedAgain(trips, at: { self.later($0.departure) }) { again, answer, _ in
            self.minute(again.arrival) <= self.minute(answer.arrival)  // the same arrival as shown, or sooner
        }
        XCTAssertGreaterThanOrEqual(checked, 70, "enough pairs have a transit answer (74 of 90 did)")
        XCTAssertEqual(dominated, [], "\(dominated.count) of \(checked) dominated")
    }

    /// The arrive-by twin over seeded pairs: the arrive-by answer leaves at the latest time that
    /// makes the deadline, so asked to depart two minutes after it leaves, the daemon never makes
    /// the deadline, whatever the transfers (found: 61.46410,23.77145 → 61.48944,23.75696 by
    /// 09:00 left 08:09 on bus 5, while from 08:11 bus 13 arrived 08:51, when the street-timed
    /// searches ran out; see `testAskingEarlierNeverArrivesLaterForTheSameDeparture`), and the
    /// trial's case: Tampere-talo → 61.5100,23.6500 by 08:09 leaves 07:28 on bus 7, while asked
    /// to depart at 07:30 the ride asked from the inferred stop Tohlopinjärvi alighted bus 29 at
    /// Pispalan vt 138, 849 m from the destination, and arrived 08:08 (issue 39 item 1: the
    /// radius now counts from the traveller's place, `TravellerEnds`). Two more of a trial, the
    /// same bug: by 07:06 left 06:30:49 on bus 2, while from 06:32:49 bus 15A arrived 07:05:10 from
    /// a stop beyond 800 m of the destination; by 08:12 left 07:30:10 on bus 19, while from 07:32:10
    /// bus 9 arrived 08:12:00 the same way. Trial 57: by 10:59 left 09:56 on buses 2 and 11, by
    /// 10:23 09:18 on bus 11, by 09:46 08:41 on buses 14 and 31, while from 10:16, 09:27:53 and
    /// 08:56:27 others arrived in time: the latest departures the search found rode a hop walking
    /// is no slower for and were dropped, not walked (`walkingItsPointlessRides`).
    func testCompareArriveByIsNeverBeatenByLeavingTwoMinutesLater() async throws {
        let trips = [("Tampere-talo", "61.5100,23.6500", "2022-01-12T08:09"),
                     ("61.49836,23.72868", "61.50904,23.76791", "2022-01-12T07:06"),
                     ("61.47545,23.86897", "61.50445,23.77887", "2022-01-12T08:12"),
                     ("61.51307,23.79699", "61.48111,23.74653", "2022-01-12T10:59"),
                     ("61.45774,23.73109", "61.51459,23.75668", "2022-01-12T10:23"),
                     ("61.45929,23.80598", "61.46075,23.73826", "2022-01-12T09:46")] + seededTrips(count: 40, seed: 53)
        let (checked, dominated) = try await answersBeatenWhenAskedAgain(trips, arriveBy: true, at: { self.later($0.departure) }) { again, answer, by in
            WireTime.date(from: by + ":00+02:00").map { again.arrival <= $0 } == true
        }
        XCTAssertGreaterThanOrEqual(checked, 30, "enough pairs have a transit answer (32 of 40 did)")
        XCTAssertEqual(dominated, [], "\(dominated.count) of \(checked) dominated")
    }

    /// Arrive-by leaves at the latest time, then arrives as early as it can from then, departures
    /// within a minute being the same: asked to depart in the minute the arrive-by answer leaves,
    /// the daemon never arrives over a minute sooner with no more transfers. Trial 59b F6:
    /// `compare "Lielahti A" Keskustori --arrive-by 08:41` left 08:18:45 on a walk to bus 12 and
    /// arrived 08:40:28, while bus 19 leaves Lielahti A at 08:18:00 and arrives 08:35 (the
    /// forward pass started at 08:18:45; it starts a minute before now).
    func testCompareArriveByArrivesAsEarlyAsItsDepartureMinuteAllows() async throws {
        let trips = [("Lielahti A", "Keskustori", "2022-01-12T08:41")] + seededTrips(count: 30, seed: 6006)
        let (checked, beaten) = try await answersBeatenWhenAskedAgain(trips, arriveBy: true, at: {
            WireTime.string(from: self.minute($0.departure), timeZone: Self.zone)
        }) { again, answer, _ in
            again.arrival < answer.arrival.addingTimeInterval(-60) && again.transfers <= answer.transfers
        }
        XCTAssertGreaterThanOrEqual(checked, 20, "enough pairs have a transit answer")
        XCTAssertEqual(beaten, [], "\(beaten.count) of \(checked) beaten")
    }

    /// The mirror: a `compare --at` transit answer is never beaten by a journey leaving no earlier
    /// that the daemon finds asked to arrive by the minute the answer arrives (one arriving sooner
    /// with no more transfers was there to take). Trial: at 07:41 the answer left 07:45:10 and
    /// arrived 08:16:14 on buses 19 and 2, while by 08:16 bus 40A left 07:41:17 and arrived 08:15
    /// with no change, alighting beyond 800 m of the destination (`TravellerEnds`: it is no
    /// journey, and by 08:16 the daemon now leaves 07:38:55). Arrivals within a minute count as
    /// one, the shorter walk taken (the trip's stops, docs/planner.md): at 08:00 from
    /// 61.50917,23.76064 bus 11 to Ensitie and 859 m arrives 08:37:02, by 08:37 the same bus to
    /// Kuntokatu and 910 m arrives 08:36:23.
    func testCompareDepartAtIsNeverBeatenByAnArriveByAnswerLeavingAfterItsTime() async throws {
        let trips = [("61.47545,23.86897", "61.50445,23.77887", "2022-01-12T07:41")] + seededTrips(count: 30, seed: 5401)
        let (checked, beaten) = try await answersBeatenWhenAskedAgain(trips, againArriveBy: true, at: {
            WireTime.string(from: self.minute($0.arrival), timeZone: Self.zone)
        }) { again, answer, at in
            WireTime.date(from: at + ":00+02:00").map { again.departure >= $0 } == true
                && again.arrival < answer.arrival.addingTimeInterval(-60) && again.transfers <= answer.transfers
        }
        XCTAssertGreaterThanOrEqual(checked, 20, "enough pairs have a transit answer")
        XCTAssertEqual(beaten, [], "\(beaten.count) of \(checked) beaten")
    }

    /// Arrive-by the minute after a depart-at answer arrives, the daemon leaves no earlier than
    /// that answer (more than a minute earlier counts): it makes the deadline. Trial 54: from
    /// 61.47808,23.72969 at 06:50 the answer leaves 06:57:26 and arrives 07:55:46 on bus 13 to
    /// the Muroleenkatu across the road from the one inferred beside the destination, while by
    /// 07:56 the daemon left 06:25:56: that stop was priced as the walk over the road to the
    /// inferred one plus the inferred one's own, and missed the deadline (`TravellerEnds`: the
    /// ride is now searched to the traveller's place). The same by 12:08 from 61.48350,23.72154:
    /// 10:19:17 for a depart-at answer leaving 10:44:17. And trial 56's scan: from
    /// 61.50921,23.79883 at 10:46 the answer was shown arriving 11:46:00 after an 82.4 s walk
    /// that ended at 11:46:00.4, so by 11:46 the daemon left 10:46:28 instead of 10:53:23 (the
    /// same from 61.50012,23.79261 at 09:57, shown arriving 10:25:00): walks now take whole
    /// seconds, rounded up.
    func testArrivingByTheMinuteADepartAtAnswerArrivesLeavesNoEarlierThanIt() async throws {
        let trips = [("61.47808,23.72969", "61.45258,23.83597", "2022-01-12T06:50"),
                     ("61.48350,23.72154", "61.46409,23.82698", "2022-01-12T10:26"),
                     ("61.50921,23.79883", "61.45855,23.70520", "2022-01-12T10:46"),
                     ("61.50012,23.79261", "61.47393,23.77309", "2022-01-12T09:57")] + seededTrips(count: 20, seed: 5501)
        let (checked, early) = try await answersBeatenWhenAskedAgain(trips, againArriveBy: true, at: {
            WireTime.string(from: self.minute($0.arrival.addingTimeInterval(59)), timeZone: Self.zone)
        }) { again, answer, _ in
            again.departure < answer.departure.addingTimeInterval(-60)
        }
        XCTAssertGreaterThanOrEqual(checked, 17, "enough pairs have a transit answer")
        XCTAssertEqual(early, [], "\(early.count) of \(checked) left earlier")
    }

    /// A transit answer never rides a line to the end and back: the stop it comes back to was on
    /// the way. Trial 55: `compare Keskustori 61.48647,23.71895 --at 08:40` rode bus 10 past
    /// Trikookuja at 08:52:45 to Tahmela and bus 10 back, arriving 09:18:03 (getting off arrives
    /// 09:05): the Trikookuja the bus passes first is 860 m from the destination, the inferred one
    /// 852 m, and it was out of reach (`TravellerEnds.reaches`: now the road beside the inferred
    /// stop counts); the same with bus 2 past Koukkuniemi and bus 18 back to Tenniskeskus.
    func testATransitAnswerNeverRidesALineToItsEndAndBack() async throws {
        let client = try harness.client()
        var checked = 0, back: [String] = []
        let trips = [("Keskustori", "61.48647,23.71895", "2022-01-12T08:40", false), ("Tampere-talo", "61.51741,23.76469", "2022-01-12T07:33", false),
                     ("Pyynikintori", "61.51221,23.85458", "2022-01-12T10:09", true)]
            + seededTrips(count: 20, seed: 5502).map { ($0.from, $0.to, $0.at, false) }
        for (from, to, at, arriveBy) in trips {
            guard let answer = try await comparedTransit(client, from, to, at: at, arriveBy: arriveBy) else { continue }
            checked += 1
            if zip(answer.lines, answer.lines.dropFirst()).contains(where: { $0 == $1 }) {
                back.append("compare \(from) \(to) \(arriveBy ? "--arrive-by" : "--at") \(at): \(answer.lines)")
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 18, "enough pairs have a transit answer")
        XCTAssertEqual(back, [], "\(back.count) of \(checked) ride a line there and back")
    }

    /// Asked again at the minute its transit answer leaves, `compare` finds nothing that leaves
    /// no earlier and arrives earlier with no more transfers: asking earlier never gives a
    /// worse arrival for the same departure (trial: Nekalantie → Kaleva asked at 09:10 arrived
    /// 09:37:46 on buses 10 and 9, asked at 09:15 09:37:33 on 10 and 6, both leaving 09:15;
    /// the street-timed searches ran out before the walk from Sammonaukio D was asked).
    func testAskingEarlierNeverArrivesLaterForTheSameDeparture() async throws {
        let trips = [("Nekalantie", "Kaleva", "2022-01-12T09:10")] + seededTrips(count: 20, seed: 5302)
        let (checked, beaten) = try await answersBeatenWhenAskedAgain(trips, at: {
            WireTime.string(from: self.minute($0.departure), timeZone: Self.zone)
        }) { again, answer, _ in
            again.departure >= answer.departure && again.arrival < answer.arrival && again.transfers <= answer.transfers
        }
        XCTAssertGreaterThanOrEqual(checked, 15, "enough pairs have a transit answer")
        XCTAssertEqual(beaten, [], "\(beaten.count) of \(checked) beaten")
    }

    /// Trial 60 F2: asked earlier, the same departure arrived 2–3 minutes later. `compare
    /// 61.47291,23.77629 61.50089,23.70565` at 09:35 left 09:43 on bus 50 to Keskustori J, walked
    /// 246 m to bus 8 and arrived 10:17, while at 09:38:30 it left 09:43 on the same bus 50 to
    /// Koskipuisto C for bus 7 and arrived 10:14 (a journey with no change, leaving earlier, set the arrival a change
    /// had to beat, and the backward pass from its minute built the journey through Keskustori J).
    /// The trial's two more: 08:10 (6 and 2, 08:47:52) against 08:12 (6 and 8, 08:45:45), and to
    /// TAYS A 09:51 (7 and 17, 10:27:36) against 09:53 (7 and 38, 10:25:59). Asked earlier, the
    /// answer leaves in the same minute and arrives no later.
    func testAskedEarlierTheSameDepartureArrivesNoLater() async throws {
        let client = try harness.client()
        let cases = [("61.47291,23.77629", "61.50089,23.70565", "2022-01-12T09:35:00+02:00", "2022-01-12T09:38:30+02:00"),
                     ("61.46729,23.85842", "61.49913,23.74435", "2022-01-12T08:10:00+02:00", "2022-01-12T08:12:00+02:00"),
                     ("61.48564,23.85986", "TAYS A", "2022-01-12T09:51:00+02:00", "2022-01-12T09:53:00+02:00")]
        for (from, to, at, laterAt) in cases {
            let first = try await comparedTransit(client, from, to, at: at)
            let second = try await comparedTransit(client, from, to, at: laterAt)
            let answer = try XCTUnwrap(first, "compare \(from) \(to) --at \(at)")
            let askedLater = try XCTUnwrap(second, "compare \(from) \(to) --at \(laterAt)")
            let context = "compare \(from) \(to): at \(at) \(answer.departure)–\(answer.arrival) on \(answer.lines), "
                + "at \(laterAt) \(askedLater.departure)–\(askedLater.arrival) on \(askedLater.lines)"
            XCTAssertEqual(minute(answer.departure), minute(askedLater.departure), "the same departure, \(context)")
            XCTAssertLessThanOrEqual(minute(answer.arrival), minute(askedLater.arrival), context)
        }
    }

    /// A change that lets the traveller leave over a minute later for the same arrival is taken,
    /// whichever time is asked (the dominance rule: leave latest, then fewer transfers; a change
    /// must pay for itself only in arrival, `JourneyChoice`). Lielahti → TAYS by 09:53 left 09:30
    /// on bus 38 alone and so did the answer asked at 09:29, while asked at 09:31 buses 19 and 38
    /// left 09:33 to the same bus 38 (trial 55: leaving two minutes later arrived no later). Both
    /// now leave 09:33.
    func testAChangeThatLetsTheTravellerLeaveLaterForTheSameArrivalIsTaken() async throws {
        let client = try harness.client()
        let arriving = try await comparedTransit(client, "Lielahti", "TAYS", at: "2022-01-12T09:53", arriveBy: true)
        let leaving = try await comparedTransit(client, "Lielahti", "TAYS", at: "2022-01-12T09:29")
        let leavingLater = try await comparedTransit(client, "Lielahti", "TAYS", at: "2022-01-12T09:31")
        let later = try XCTUnwrap(leavingLater)
        XCTAssertEqual(later.lines, ["19", "38"], "the change exists")
        for answer in [try XCTUnwrap(arriving), try XCTUnwrap(leaving)] {
            XCTAssertEqual(answer.lines, later.lines)
            XCTAssertEqual(answer.departure, later.departure)
            XCTAssertEqual(answer.arrival, later.arrival, "the same bus 38 to TAYS")
        }
    }
}
