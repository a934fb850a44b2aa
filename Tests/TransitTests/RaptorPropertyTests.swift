import Foundation
import Planner
import TestSupport
@testable import Transit
import XCTest

/// RAPTOR against a plain brute-force search on seeded random feeds: both must find the
/// same earliest arrival (depart-at) and the same latest departure (arrive-by) every time,
/// and the router must choose the journey the oracle's transfer-penalty and short-ride rules choose.
final class RaptorPropertyTests: XCTestCase {
    /// The random feed in the brute force's own terms.
    struct World {
        var stops: [Coordinate] = []
        /// Per trip: its calls (stop, arrival, departure) in GTFS seconds, and the days it runs.
        var trips: [(calls: [(stop: Int, arrival: Int, departure: Int)], days: Set<Int>)] = []
        var changeSeconds: [Int] = []
        /// transfers.txt rules between two different stops, one way each: [from, to].
        var footRules: [[Int]: FootRule] = [:]
        var feed = MiniFeed()
    }

    /// A transfers.txt rule from one stop to another: a footpath with this minimum (type 2,
    /// laid even beyond the footpath radius), or none (type 3).
    enum FootRule: Equatable {
        case minimum(Int)
        case forbidden
    }

    static let day0 = ServiceDate.dayNumber(year: 2022, month: 3, day: 2) ?? 0
    static let walking = StraightLineWalking()

    static func clock(_ s: Int) -> String { String(format: "%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) }

    func makeWorld(seed: UInt64) -> World {
        var g = SeededRandom(seed: seed)
        var w = World()
        let stopCount = Int.random(in: 6...18, using: &g)
        w.feed.calendar += "SOME,0,0,0,0,0,0,0,20220301,20220305\n"
        w.feed.calendarDates = "service_id,date,exception_type\nSOME,20220302,1\nSOME,20220304,1\n"
        let someDays: Set<Int> = [Self.day0, Self.day0 + 2]
        let allDays = Set((Self.day0 - 60)...(Self.day0 + 300))
        for s in 0..<stopCount {
            // Some stops sit a few metres from another one, like the platforms of one street corner.
            var north = Double.random(in: 0...2, using: &g), east = Double.random(in: 0...2, using: &g)
            if s > 0 && Int.random(in: 0..<4, using: &g) == 0, let other = w.stops.randomElement(using: &g) {
                north = (other.latitude - 60) * 111.195 + Double.random(in: -0.03...0.03, using: &g)
                east = (other.longitude - 25) * 55.6 + Double.random(in: -0.03...0.03, using: &g)
            }
            w.feed.stop("S\(s)", km: north, east: east)
            w.stops.append(MiniFeed.coordinate(km: north, east: east))
        }
        w.changeSeconds = [Int](repeating: 60, count: stopCount)
        var transferRows = "from_stop_id,to_stop_id,transfer_type,min_transfer_time\n"
        for s in 0..<stopCount where Int.random(in: 0..<4, using: &g) == 0 {
            let seconds = [0, 60, 120, 300].randomElement(using: &g) ?? 0
            transferRows += "S\(s),S\(s),2,\(seconds)\n"
            w.changeSeconds[s] = seconds
        }
        w.feed.transfers = transferRows
        let routeCount = Int.random(in: 2...7, using: &g)
        var tripNumber = 0
        var previousSequence: [Int] = []
        for r in 0..<routeCount {
            w.feed.routes.append(("R\(r)", "\(r)", Int.random(in: 0...1, using: &g) == 0 ? 3 : 0))
            let length = Int.random(in: 2...min(6, stopCount), using: &g)
            var sequence = Array((0..<stopCount).shuffled(using: &g).prefix(length))
            // Some routes run on the stops of the one before: their trips share its patterns,
            // and overtake its trips where their random times say so.
            if r > 0 && Int.random(in: 0..<3, using: &g) == 0 { sequence = previousSequence }
            previousSequence = sequence
            for _ in 0..<Int.random(in: 1...6, using: &g) {
                let lateNight = Int.random(in: 0..<5, using: &g) == 0
                // Whole and half minutes: ties between a change and a departure are common.
                var t = 60 * (lateNight ? Int.random(in: 23 * 60...24 * 60 + 30, using: &g)
                                        : Int.random(in: 6 * 60...10 * 60, using: &g)) + 30 * Int.random(in: 0...1, using: &g)
                var calls: [(stop: Int, arrival: Int, departure: Int)] = []
                for stop in sequence {
                    let arrival = t
                    let departure = arrival + 60 * Int.random(in: 0...1, using: &g)
                    calls.append((stop, arrival, departure))
                    t = departure + 60 * Int.random(in: 1...8, using: &g)
                }
                let some = Int.random(in: 0..<3, using: &g) == 0
                let id = "T\(tripNumber)"
                tripNumber += 1
                w.feed.trips.append(("R\(r)", some ? "SOME" : "ALL", id, ""))
                for (k, call) in calls.enumerated() {
                    w.feed.stopTimes.append((id, Self.clock(call.arrival), Self.clock(call.departure), "S\(call.stop)", k + 1))
                }
                w.trips.append((calls, some ? someDays : allDays))
            }
        }
        // One-way footpath rules: a minimum the way back does not share (below or above the
        // walk and the default), a footpath beyond the radius, or a way forbidden. Drawn from
        // their own generator so that the stops and trips of each seed stay as they were.
        var h = SeededRandom(seed: seed ^ 0x5DEE_CE66_D1CE_4E5B)
        var oneWayRows = ""
        for _ in 0..<Int.random(in: 0...4, using: &h) {
            let p = Int.random(in: 0..<stopCount, using: &h), q = Int.random(in: 0..<stopCount, using: &h)
            guard p != q else { continue }
            if Int.random(in: 0..<4, using: &h) == 0 {
                oneWayRows += "S\(p),S\(q),3,\n"
                w.footRules[[p, q]] = .forbidden
            } else {
                let seconds = [0, 30, 600, 1500].randomElement(using: &h) ?? 0
                oneWayRows += "S\(p),S\(q),2,\(seconds)\n"
                w.footRules[[p, q]] = .minimum(seconds)
            }
        }
        w.feed.transfers = (w.feed.transfers ?? "") + oneWayRows
        return w
    }

    /// Brute force: Dijkstra over (stop, "just arrived by a vehicle") and (stop, "ready to
    /// board") states, trying every trip of every service day at every stop. Same model as
    /// the engine: one footpath after a ride, change time at a stop, horizon.
    func bruteForceEarliestArrival(_ w: World, time: Int, access: [Raptor.Endpoint], egress: [Raptor.Endpoint],
                                   horizon: Int = Raptor.defaultHorizon) -> Int? {
        let n = w.stops.count
        let (foot, egressAt) = footpathsAndEgress(w, egress)
        var ready = [Int](repeating: .max, count: n), arrived = [Int](repeating: .max, count: n)
        var heap: [(time: Int, stop: Int, byVehicle: Bool)] = []
        for a in access where time + a.seconds < ready[Int(a.stop)] {
            ready[Int(a.stop)] = time + a.seconds
            heap.append((time + a.seconds, Int(a.stop), false))
        }
        var best = Int.max
        var done = Set<[Int]>()
        while let index = heap.indices.min(by: { heap[$0].time < heap[$1].time }) {
            let state = heap.remove(at: index)
            guard done.insert([state.stop, state.byVehicle ? 1 : 0]).inserted else { continue }
            if state.byVehicle {
                if let e = egressAt[state.stop] { best = min(best, state.time + e) }
                let change = w.changeSeconds[state.stop]
                if state.time + change < ready[state.stop] {
                    ready[state.stop] = state.time + change
                    heap.append((state.time + change, state.stop, false))
                }
                for (q, seconds) in foot[state.stop] where state.time + seconds < ready[q] {
                    ready[q] = state.time + seconds
                    heap.append((state.time + seconds, q, false))
                }
            } else {
                for trip in w.trips {
                    for day in (Self.day0 - 2)...(Self.day0 + 2) where trip.days.contains(day) {
                        let midnight = day * 86_400
                        for (i, call) in trip.calls.enumerated() where call.stop == state.stop && midnight + call.departure >= state.time {
                            for later in trip.calls[(i + 1)...] where midnight + later.arrival < arrived[later.stop] {
                                arrived[later.stop] = midnight + later.arrival
                                heap.append((midnight + later.arrival, later.stop, true))
                            }
                        }
                    }
                }
            }
        }
        return best <= time + horizon ? best : nil
    }

    /// The journey a person takes by `JourneyChoice`'s rule among `members` (the brute force's
    /// Pareto set, or what is left of it): the least arrival + penalty per transfer (ties: fewer rides).
    func bruteForceChoice(_ members: [(arrival: Int, rides: Int)], transferPenalty: Int) -> (arrival: Int, rides: Int)? {
        members.min { a, b in
            let (ca, cb) = (a.arrival + transferPenalty * (a.rides - 1), b.arrival + transferPenalty * (b.rides - 1))
            return ca != cb ? ca < cb : a.rides < b.rides
        }
    }

    /// The router's short-ride rule (`TransitRouter.hasRideNoFasterThanWalking`) in the oracle's
    /// own terms, over every journey of the random world: for one member of the Pareto set,
    /// whether some journey with its number of rides arrives at its time riding no pointless hop
    /// (`clean`), and whether some such journey rides one (`dirty`). A ride after a change is
    /// pointless when walking from its boarding stop to its alighting stop, leaving when the
    /// traveller was ready to board, gets there no later; a first ride only when it is one stop
    /// long (judged from its departure). Memoised over (stop, time, rides left, on a vehicle).
    final class ShortRideOracle {
        struct State: Hashable { var stop: Int, time: Int, ridesLeft: Int, byVehicle: Bool }
        let world: World, target: Int, foot: [[(Int, Int)]], egressAt: [Int?]
        var memo: [State: (clean: Bool, dirty: Bool)] = [:]

        init(_ world: World, target: Int, foot: [[(Int, Int)]], egressAt: [Int?]) {
            (self.world, self.target, self.foot, self.egressAt) = (world, target, foot, egressAt)
        }

        func walk(_ p: Int, _ q: Int) -> Double {
            RaptorPropertyTests.walking.walkingSeconds(from: world.stops[p], to: world.stops[q], pace: .normal) ?? .infinity
        }

        /// Ready to board at `stop` at `time` with `ridesLeft` rides to take, the first when `first`.
        func ready(_ stop: Int, _ time: Int, _ ridesLeft: Int, first: Bool) -> (clean: Bool, dirty: Bool) {
            guard ridesLeft > 0, time <= target else { return (false, false) }
            let state = State(stop: stop, time: time, ridesLeft: ridesLeft, byVehicle: false)
            if let known = memo[state] { return known }
            var result = (clean: false, dirty: false)
            for trip in world.trips {
                for day in (RaptorPropertyTests.day0 - 2)...(RaptorPropertyTests.day0 + 2) where trip.days.contains(day) {
                    let midnight = day * 86_400
                    for (i, call) in trip.calls.enumerated() where call.stop == stop && midnight + call.departure >= time {
                        for j in (i + 1)..<trip.calls.count {
                            let later = trip.calls[j], arrival = midnight + later.arrival
                            guard arrival <= target else { break }
                            let pointless = first
                                ? j == i + 1 && Double(midnight + call.departure) + walk(stop, later.stop) <= Double(arrival)
                                : Double(time) + walk(stop, later.stop) <= Double(arrival)
                            let rest = vehicle(later.stop, arrival, ridesLeft - 1)
                            if rest.clean && !pointless { result.clean = true }
                            if rest.dirty || (rest.clean && pointless) { result.dirty = true }
                        }
                    }
                }
            }
            memo[state] = result
            return result
        }

        /// Just off a vehicle at `stop` at `time`: get off for good, or change (at the stop or by
        /// one footpath) for the next ride.
        func vehicle(_ stop: Int, _ time: Int, _ ridesLeft: Int) -> (clean: Bool, dirty: Bool) {
            if ridesLeft == 0 { return (egressAt[stop].map { time + $0 == target } ?? false, false) }
            let state = State(stop: stop, time: time, ridesLeft: ridesLeft, byVehicle: true)
            if let known = memo[state] { return known }
            var result = ready(stop, time + world.changeSeconds[stop], ridesLeft, first: false)
            for (q, seconds) in foot[stop] {
                let next = ready(q, time + seconds, ridesLeft, first: false)
                result = (result.clean || next.clean, result.dirty || next.dirty)
            }
            memo[state] = result
            return result
        }
    }

    func bruteForceShortRides(_ w: World, time: Int, access: [Raptor.Endpoint], egress: [Raptor.Endpoint],
                              member: (arrival: Int, rides: Int)) -> (clean: Bool, dirty: Bool) {
        let (foot, egressAt) = footpathsAndEgress(w, egress)
        let oracle = ShortRideOracle(w, target: member.arrival, foot: foot, egressAt: egressAt)
        var verdict = (clean: false, dirty: false)
        for a in access {
            let found = oracle.ready(Int(a.stop), time + a.seconds, member.rides, first: true)
            verdict = (verdict.clean || found.clean, verdict.dirty || found.dirty)
        }
        return verdict
    }

    /// (arrival, rides) for each number of rides that arrives earlier than with fewer, fewest first.
    func bruteForcePareto(_ w: World, time: Int, access: [Raptor.Endpoint], egress: [Raptor.Endpoint]) -> [(arrival: Int, rides: Int)] {
        let byRides = bruteForceArrivalsByRides(w, time: time, access: access, egress: egress)
        var pareto: [(arrival: Int, rides: Int)] = []
        for rides in byRides.keys.sorted() where byRides[rides]! < (pareto.last?.arrival ?? .max) {
            pareto.append((byRides[rides]!, rides))
        }
        return pareto
    }

    /// Earliest arrival at the destination per exact number of rides (Dijkstra over states that
    /// also count the rides taken).
    func bruteForceArrivalsByRides(_ w: World, time: Int, access: [Raptor.Endpoint], egress: [Raptor.Endpoint],
                                   horizon: Int = Raptor.defaultHorizon) -> [Int: Int] {
        let n = w.stops.count
        let (foot, egressAt) = footpathsAndEgress(w, egress)
        // States: stop, by vehicle or ready to board, rides so far (at most `maxRides`).
        let maxRides = 12
        func key(_ stop: Int, _ rides: Int) -> Int { stop * (maxRides + 1) + rides }
        var ready = [Int](repeating: .max, count: n * (maxRides + 1)), arrived = ready
        var done = [Bool](repeating: false, count: 2 * n * (maxRides + 1))
        var heap: [(time: Int, stop: Int, byVehicle: Bool, rides: Int)] = []
        for a in access where time + a.seconds < ready[key(Int(a.stop), 0)] {
            ready[key(Int(a.stop), 0)] = time + a.seconds
            heap.append((time + a.seconds, Int(a.stop), false, 0))
        }
        var best: [Int: Int] = [:]
        while let index = heap.indices.min(by: { heap[$0].time < heap[$1].time }) {
            let state = heap.remove(at: index)
            let k = key(state.stop, state.rides)
            guard !done[2 * k + (state.byVehicle ? 1 : 0)] else { continue }
            done[2 * k + (state.byVehicle ? 1 : 0)] = true
            if state.byVehicle {
                if let e = egressAt[state.stop], state.time + e <= time + horizon {
                    best[state.rides] = min(best[state.rides, default: .max], state.time + e)
                }
                let change = w.changeSeconds[state.stop]
                if state.time + change < ready[k] {
                    ready[k] = state.time + change
                    heap.append((state.time + change, state.stop, false, state.rides))
                }
                for (q, seconds) in foot[state.stop] where state.time + seconds < ready[key(q, state.rides)] {
                    ready[key(q, state.rides)] = state.time + seconds
                    heap.append((state.time + seconds, q, false, state.rides))
                }
            } else if state.rides < maxRides {
                let rides = state.rides + 1
                for trip in w.trips {
                    for day in (Self.day0 - 2)...(Self.day0 + 2) where trip.days.contains(day) {
                        let midnight = day * 86_400
                        for (i, call) in trip.calls.enumerated() where call.stop == state.stop && midnight + call.departure >= state.time {
                            for later in trip.calls[(i + 1)...] where midnight + later.arrival < arrived[key(later.stop, rides)] {
                                arrived[key(later.stop, rides)] = midnight + later.arrival
                                heap.append((midnight + later.arrival, later.stop, true, rides))
                            }
                        }
                    }
                }
            }
        }
        return best
    }

    /// Footpaths of the brute force's model (stops within 400 m, at least 60 s; one way, a
    /// transfers.txt rule's minimum instead, or none where it forbids the way) and the egress
    /// walk per stop.
    func footpathsAndEgress(_ w: World, _ egress: [Raptor.Endpoint]) -> (foot: [[(Int, Int)]], egressAt: [Int?]) {
        let n = w.stops.count
        var foot: [[(Int, Int)]] = Array(repeating: [], count: n)
        for p in 0..<n {
            for q in 0..<n where p != q {
                let rule = w.footRules[[p, q]]
                guard rule != .forbidden, rule != nil || w.stops[p].distance(to: w.stops[q]) <= 400 else { continue }
                let walk = Int((Self.walking.walkingSeconds(from: w.stops[p], to: w.stops[q], pace: .normal) ?? 0).rounded(.up))
                var minimum = 60
                if case .minimum(let seconds) = rule { minimum = seconds }
                foot[p].append((q, max(walk, minimum)))
            }
        }
        var egressAt = [Int?](repeating: nil, count: n)
        for e in egress { egressAt[Int(e.stop)] = min(egressAt[Int(e.stop)] ?? .max, e.seconds) }
        return (foot, egressAt)
    }

    /// Latest departure arriving by `deadline`: the largest start time whose earliest arrival
    /// is still in time, found by bisection on the brute force.
    func bruteForceLatestDeparture(_ w: World, deadline: Int, access: [Raptor.Endpoint], egress: [Raptor.Endpoint]) -> Int? {
        var low = deadline - Raptor.defaultHorizon, high = deadline
        func fits(_ t: Int) -> Bool {
            guard let a = bruteForceEarliestArrival(w, time: t, access: access, egress: egress, horizon: .max / 4) else { return false }
            return a <= deadline
        }
        guard fits(low) else { return nil }
        while low < high {
            let mid = (low + high + 1) / 2
            if fits(mid) { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// A point of the random feeds' square, 2 km a side: a query's origin or destination.
    static func randomPoint(using g: inout SeededRandom) -> Coordinate {
        MiniFeed.coordinate(km: Double.random(in: 0...2, using: &g), east: Double.random(in: 0...2, using: &g))
    }

    /// A random query's two ends (`randomPoint`), with the walks from its origin to the stops
    /// near it and from the stops near its destination; either may be empty.
    func randomEnds(_ w: World, using g: inout SeededRandom)
        -> (from: Coordinate, to: Coordinate, access: [Raptor.Endpoint], egress: [Raptor.Endpoint]) {
        let from = Self.randomPoint(using: &g), to = Self.randomPoint(using: &g)
        return (from, to, endpoints(w, around: from, towardsStop: true), endpoints(w, around: to, towardsStop: false))
    }

    func endpoints(_ w: World, around point: Coordinate, towardsStop: Bool) -> [Raptor.Endpoint] {
        w.stops.enumerated().compactMap { s, c in
            guard point.distance(to: c) <= 500 else { return nil }
            let seconds = towardsStop ? Self.walking.walkingSeconds(from: point, to: c, pace: .normal)
                                      : Self.walking.walkingSeconds(from: c, to: point, pace: .normal)
            return Raptor.Endpoint(stop: Int32(s), seconds: Int((seconds ?? 0).rounded(.up)))
        }
    }

    /// Each walk between two rides is one the model allows, in its direction and at its
    /// seconds (a change's at one stop, a footpath's from where the ride before alights to
    /// where the next boards), and the next ride leaves no earlier than the walk ends.
    func assertWalksFollowTheModel(_ w: World, _ j: Raptor.Journey, _ message: String,
                                   file: StaticString = #filePath, line: UInt = #line) {
        let (foot, _) = footpathsAndEgress(w, [])
        XCTAssertEqual(j.transfers.count, j.rides.count - 1, message, file: file, line: line)
        for (k, ride) in j.rides.enumerated().dropFirst() where k - 1 < j.transfers.count {
            let walk = j.transfers[k - 1], before = j.rides[k - 1]
            XCTAssertEqual([walk.from, walk.to], [before.alightStop, ride.boardStop], message, file: file, line: line)
            let from = Int(walk.from), to = Int(walk.to)
            let seconds = from == to ? w.changeSeconds[from] : foot[from].first { $0.0 == to }?.1
            XCTAssertEqual(walk.seconds, seconds, "\(message): the walk S\(from) → S\(to)", file: file, line: line)
            XCTAssertLessThanOrEqual(before.arrival + walk.seconds, ride.departure, message, file: file, line: line)
        }
    }

    func testRaptorFindsTheSameEarliestArrivalAsBruteForceOnRandomFeeds() throws {
        let fixture = try FeedFixture()
        var checked = 0, found = 0, penaltyDecided = 0, shortRideDecided = 0, tiesUndecided = 0, allPointless = 0
        for seed in UInt64(1)...40 {
            let world = makeWorld(seed: seed &* 0x9E37_79B9_7F4A_7C15)
            let (timetable, _) = try fixture.timetable(world.feed.files)
            XCTAssertEqual(timetable.stops.map(\.id), (0..<world.stops.count).map { "S\($0)" })
            let days = Raptor.serviceDays(around: Self.day0, timetable: timetable)
            let engine = Raptor(timetable: timetable, paceMultiplier: 1)
            let router = TransitRouter(timetable: timetable, walking: Self.walking)
            var g = SeededRandom(seed: seed &+ 77)
            for _ in 0..<15 {
                let (from, to, access, egress) = randomEnds(world, using: &g)
                let late = Int.random(in: 0..<4, using: &g) == 0
                let time = Self.day0 * 86_400 + 60 * (late ? Int.random(in: 22 * 60...24 * 60, using: &g)
                                                           : Int.random(in: 5 * 60...11 * 60, using: &g))
                guard !access.isEmpty, !egress.isEmpty else { continue }
                let expected = bruteForceEarliestArrival(world, time: time, access: access, egress: egress)
                let journeys = engine.departAt(time, access: access, egress: egress, days: days, maxRides: 12)
                XCTAssertEqual(journeys.last?.arrival, expected, "seed \(seed) depart-at \(time)")
                // The same Pareto set, so any rule choosing from it agrees; and the journey a
                // person takes (a transfer must save the penalty) is the same in both.
                let pareto = bruteForcePareto(world, time: time, access: access, egress: egress)
                XCTAssertEqual(journeys.map { [$0.arrival, $0.rides.count] }, pareto.map { [$0.arrival, $0.rides] }, "seed \(seed)")
                let penalty = [0, 600, 1800][Int(seed % 3)]
                let chosen = JourneyChoice(transferPenalty: penalty).best(among: journeys, departAt: true)
                let oracle = bruteForceChoice(pareto, transferPenalty: penalty)
                XCTAssertEqual(chosen?.arrival, oracle?.arrival, "seed \(seed) choice at \(time), penalty \(penalty)")
                XCTAssertEqual(chosen?.rides.count, oracle?.rides, "seed \(seed) choice at \(time), penalty \(penalty)")
                if let chosen, let fastest = journeys.last, chosen.rides.count < fastest.rides.count { penaltyDecided += 1 }

                // The router's whole choice: the short-ride rule drops members of the Pareto set,
                // then the penalty picks. The oracle decides the rule over every journey of a
                // member; when journeys tied with it disagree, the router's pick among the ties
                // is its own, and only its consistency is checked.
                let verdicts = pareto.map { bruteForceShortRides(world, time: time, access: access, egress: egress, member: $0) }
                XCTAssertFalse(verdicts.contains { !$0.clean && !$0.dirty }, "seed \(seed): every Pareto member is a journey")
                let routed = try? router.leg(from: from, to: to, timing: .departAt(Date(timeIntervalSince1970: Double(time))), pace: .normal,
                                             maxTransfers: 11, accessRadius: 500, transferPenalty: penalty).best
                if verdicts.contains(where: { $0.clean && $0.dirty }) {
                    tiesUndecided += 1
                } else if !verdicts.isEmpty, !verdicts.contains(where: \.clean) {
                    // Every member rides a pointless hop: the router walks those hops
                    // (`walkingItsPointlessRides`), a journey outside this model's footpaths.
                    allPointless += 1
                } else {
                    let kept = zip(pareto, verdicts).filter { $0.1.clean }.map(\.0)
                    let expectedChoice = bruteForceChoice(kept, transferPenalty: penalty)
                    XCTAssertEqual(routed?.arrival, expectedChoice.map { Date(timeIntervalSince1970: Double($0.arrival)) },
                                   "seed \(seed) routed at \(time), penalty \(penalty)")
                    XCTAssertEqual(routed?.rides.count, expectedChoice?.rides, "seed \(seed) routed at \(time), penalty \(penalty)")
                    if kept.count < pareto.count { shortRideDecided += 1 }
                }
                checked += 1
                if expected != nil { found += 1 }
                // Every journey of the Pareto set is consistent: arrivals improve as rides grow.
                XCTAssertEqual(journeys.map(\.arrival), journeys.map(\.arrival).sorted(by: >), "seed \(seed)")
                for j in journeys {
                    XCTAssertGreaterThanOrEqual(j.departure, time)
                    assertWalksFollowTheModel(world, j, "seed \(seed) depart-at \(time)")
                }

                let deadline = time + 3 * 3600
                let latest = bruteForceLatestDeparture(world, deadline: deadline, access: access, egress: egress)
                let reverse = engine.arriveBy(deadline, access: access, egress: egress, days: days, maxRides: 50)
                XCTAssertEqual(reverse.last?.departure, latest, "seed \(seed) arrive-by \(deadline)")
                for j in reverse {
                    XCTAssertLessThanOrEqual(j.arrival, deadline)
                    assertWalksFollowTheModel(world, j, "seed \(seed) arrive-by \(deadline)")
                }
            }
        }
        XCTAssertGreaterThan(checked, 300)
        XCTAssertGreaterThan(found, checked / 4, "the random feeds should mostly connect")
        XCTAssertGreaterThan(penaltyDecided, 0, "some choices take fewer transfers than the fastest journey")
        XCTAssertGreaterThan(shortRideDecided, 0, "some Pareto members ride a hop walking is no slower for")
        XCTAssertLessThan(tiesUndecided, checked / 20, "tied journeys that the rule tells apart are rare")
        XCTAssertLessThan(allPointless, checked / 5, "queries whose every journey rides a pointless hop are rare")
        print("RaptorPropertyTests: \(checked) queries, \(penaltyDecided) decided by the penalty, \(shortRideDecided) by the short-ride rule, \(tiesUndecided) ties left to the router, \(allPointless) with every journey riding a pointless hop")
    }
}
