import Foundation
import TestSupport
import XCTest
@testable import Planner

/// Issue 39, "presets a traveller could follow": random sequences of the edits that change a
/// plan's modes and places (presets, mode changes, unpin, move, insert, remove, with choose and
/// pin giving it rides the user chose) never build a journey nobody can travel. After every edit
/// and its recompute: no trip in two segments (one vehicle ride split and paid twice), no stop the
/// planner inferred that no ride boards or leaves from, no node shown before the node before it and, while
/// every mode is the planner's (no `plan mode`, no insert by car or transit: a move drops the
/// lock of a mode set by hand but keeps the mode), no two rides meeting at a stop the planner
/// inferred (the walk to a stop turned into a ride) and no drive where the car was left behind
/// (the car stays where a ride or walk away from it began). The alternatives `choose` is offered are never dominated by another.
/// After a fastest preset, no drive of the planner's leaves the car where it is never driven
/// again. After a transit or fastest preset, no ride of the planner's where walking is no slower, and
/// each walked hop's note reads its walk in the minutes its leg shows; after a move, the hops
/// next to the moved node walked or ridden by the same rule. After every edit, every mode note
/// shown gives its walk's minutes as its leg shows them.
///
/// The checks are cheap (no full recompute to compare with, as `EditSequencePropertyTests`
/// does), so 1,000 sequences of 10 edits a seed run in seconds on the same scripted network.
/// `EDIT_SEQUENCE_SEEDS=1-60` runs those seeds instead of `seeds`.
final class TravellableEditSequenceTests: XCTestCase {
    static let sequences = 1_000
    static let editsPerSequence = 10
    /// 39 and 7, and seeds that once failed, one per cause mended (a preset, a removal's joined
    /// ride, two rides meeting at a removed place, a stretch back to its start, a walk the user
    /// chose; session 57: a car preset after a walk the user set, a drive judged beside a pinned
    /// ride, a walk's arrival read with the wait after it, the fastest preset's kept drive).
    static let seeds: [UInt64] = [39, 7, 3, 11, 12, 17, 30, 49, 44, 45, 56, 57]

    struct Edit {
        var name: String
        /// The user sets a mode by hand (`plan mode`, `plan insert … --mode car`): a ride put before
        /// a drive, or a drive after a ride, is then theirs.
        var setsModeByHand = false
        /// The user inserts a place by transit: the two rides either side of it are theirs, unlocked.
        var insertsRides = false
        /// An insert with the user's mode (car, transit): its segments are theirs but not locked,
        /// so a drive after a ride may be the user's own choice without a lock.
        var putsUnlockedModes = false
        /// The edit puts a new place next to the planner's stops (insert, move): they are chosen
        /// again from it, but a pinned ride keeps its own (the user's departure from there).
        var placesANode = false
        /// A transit or fastest preset: it walks every ride of its own where walking is no slower.
        var ridingPreset = false
        /// An edit that settles the planner's stops (insert, move, removal, mode change, choose):
        /// none is left that no ride boards or leaves from ("A stop no ride uses goes").
        var settlesStops = false
        /// A move of node `node` to `place`: the hops it makes follow the walk rule.
        var moves: (node: Int, place: Place)?
        var apply: (RoutePlan) async throws -> RoutePlan
    }

    /// A random edit of `plan`, named as `edit(named:planner:)` reads it back (the draws as they
    /// always were, so that the seeds keep their sequences).
    func randomEdit(_ plan: RoutePlan, _ planner: Planner, _ random: inout SeededRandom) -> Edit {
        let node = Int.random(in: 0..<plan.nodes.count, using: &random)
        let segment = Int.random(in: 0..<plan.segmentCount, using: &random)
        let place = EditSequencePropertyTests.places.randomElement(using: &random)!
        let mode = [TravelMode.walk, .transit, .car].randomElement(using: &random)!
        let option = Int.random(in: 0..<3, using: &random)
        let name: String
        switch Int.random(in: 0..<9, using: &random) {
        case 0, 1:
            name = "preset \(PlanPreset.allCases.randomElement(using: &random)!.rawValue)"
        case 2:
            // Often next to a pinned ride (issue 39 F16: the walk from a pinned ride's stop set to
            // transit rode the same bus on in a second segment), with no draw of its own so that
            // the seeds keep their sequences.
            let pinned = plan.pinnedSegmentIndices.first
            let beside = pinned.map { option == 0 ? $0 + 1 : option == 1 ? $0 - 1 : segment } ?? segment
            name = "mode \((0..<plan.segmentCount).contains(beside) ? beside : segment) \(mode.rawValue)"
        case 3:
            name = "unpin"
        case 4:
            name = "move node \(node) to \(place.name)"
        case 5:
            let drawn = Int.random(in: 1...plan.nodes.count, using: &random)
            // Often just before a pinned ride, by transit (trial 48 finding 8: the new ride, asked
            // to get to the pinned ride's stop by its departure, was the pinned bus itself), with
            // no draw of its own so that the seeds keep their sequences.
            let beforePin = plan.pinnedSegmentIndices.first.flatMap { option == 0 && $0 > 0 ? $0 : nil }
            let (insertAt, insertMode) = beforePin.map { ($0, TravelMode.transit) } ?? (drawn, mode)
            name = "insert \(place.name) at \(insertAt) by \(insertMode.rawValue)"
        case 6:
            name = "remove node \(node)"
        case 7:
            name = "choose \(segment) option \(option)"
        default:
            name = "pin \(segment)"
        }
        return edit(named: name, planner: planner)
    }

    /// The edit a sequence's history names ("preset transit", "mode 1 transit", "unpin", "move
    /// node 2 to Ratina", "insert Ratina at 1 by walk", "remove node 1", "choose 0 option 2",
    /// "pin 1"), applied as the daemon applies it.
    func edit(named name: String, planner: Planner) -> Edit {
        let words = name.split(separator: " ").map(String.init)
        func place(_ name: String) -> Place { EditSequencePropertyTests.places.first { $0.name == name }! }
        switch words[0] {
        case "preset":
            let preset = PlanPreset(rawValue: words[1])!
            return Edit(name: name, ridingPreset: preset == .transit || preset == .fastest,
                        apply: { try await planner.applyingPreset(preset, to: $0) })
        case "mode":
            let segment = Int(words[1])!, mode = TravelMode(rawValue: words[2])!
            // As the daemon does: the stops around the segment's ends and the places beyond them,
            // and set to transit, kept apart from a pin its walk would miss (at the planner's clock);
            // set to any mode but car, the planner's drives after it judged again (the car left behind).
            return Edit(name: name, setsModeByHand: true, settlesStops: true, apply: { plan in
                let stops = await planner.accessStops(forModeChangeOf: segment, in: plan)
                guard mode == .transit else {
                    let changed = try plan.changingMode(ofSegment: segment, to: mode, stopsAround: stops)
                    return mode == .car ? changed : try await Self.leavingTheCarBehind(changed, planner: planner)
                }
                let computed = try await planner.settingTransitByHand(ofSegment: segment, in: plan, stopsAround: stops) {
                    try await planner.computeLegsReporting($0)
                }
                return try await planner.judgingDrivesWithoutTheCar(in: computed).plan
            })
        case "unpin":
            // As the daemon does: the stops a pin kept, chosen again.
            return Edit(name: name, apply: { plan in
                try await Self.leavingTheCarBehind(plan.unpinning(stopsAround: await planner.accessStops(aroundStopsKeptByPinsIn: plan)),
                                                   planner: planner)
            })
        case "move":
            let node = Int(words[2])!, place = place(words[4])
            // As the daemon does: the stops around the new place, for the stops next to it.
            return Edit(name: name, placesANode: true, settlesStops: true, moves: (node, place), apply: { plan in
                try await Self.leavingTheCarBehind(try plan.movingNode(at: node, to: place, stopsAround: try await planner.accessStops(around: place),
                                                                       hops: try await planner.movedHops(node, to: place, in: plan)),
                                                   planner: planner)
            })
        case "insert":
            let place = place(words[1]), insertAt = Int(words[3])!, insertMode = TravelMode(rawValue: words[5])!
            return Edit(name: name, setsModeByHand: insertMode != .walk,
                        insertsRides: insertMode == .transit, putsUnlockedModes: insertMode != .walk, placesANode: true, settlesStops: true,
                        apply: { plan in
                            let inserted = try plan.insertingNode(PlanNode(place: place), at: insertAt, mode: insertMode,
                                                                  stopsAround: try await planner.accessStops(around: place))
                            return insertMode == .car ? inserted : try await Self.leavingTheCarBehind(inserted, planner: planner)
                        })
        case "remove":
            let node = Int(words[2])!
            return Edit(name: name, placesANode: true, settlesStops: true, apply: { plan in
                try await Self.leavingTheCarBehind(try plan.removingNode(at: node, stopsAround: await planner.accessStops(aroundNeighboursOf: node, in: plan)),
                                                   planner: planner)
            })
        case "refine":
            // As the daemon does: the plan's legs, then the splits (and the recompute after).
            return Edit(name: name, apply: { try await planner.refine($0) })
        case "time":
            // "time arrive 180" / "time depart 60": by (from) that many minutes after the day's start.
            let time = EditSequencePropertyTests.dayStart.addingTimeInterval(Double(Int(words[2])!) * 60)
            return Edit(name: name, apply: { $0.settingTimePreference(words[1] == "arrive" ? .arriveBy(time) : .departAt(time)) })
        case "choose":
            let segment = Int(words[1])!, option = Int(words[3])!
            return Edit(name: name, settlesStops: true, apply: { plan in
                let options = try await planner.alternatives(for: plan, segment: segment, count: 3)
                Self.checkNoneDominated(options, context: "choose \(segment) on \(plan.modes)")
                return try await Self.leavingTheCarBehind(try plan.choosingAlternative(options[min(option, options.count - 1)], ofSegment: segment),
                                                     planner: planner)
            })
        default:
            let segment = Int(words[1])!
            return Edit(name: name, apply: { plan in
                guard let time = plan.departureTimes()[segment] ?? plan.legs[segment]?.departure else { return plan }
                return try await planner.pinning(plan, segment: segment, at: time)
            })
        }
    }

    /// `edited` computed, then the planner's drives it left without the car walked or ridden, as
    /// the daemon's edits of places and modes do (`PlanService.legsLeavingTheCarBehind`: all but an
    /// insert by car and a change to car).
    static func leavingTheCarBehind(_ edited: RoutePlan, planner: Planner) async throws -> RoutePlan {
        try await planner.judgingDrivesWithoutTheCar(in: try await planner.computeLegsReporting(edited)).plan
    }

    /// The dominance rule (docs/planner.md): no option offered leaves no earlier, arrives no
    /// later, changes no more often and walks no more than another, and is worse in one of them,
    /// to the second or as shown, to the minute.
    static func checkNoneDominated(_ options: [RouteLeg], context: String) {
        func walking(_ leg: RouteLeg) -> Double { leg.walks.reduce(0) { $0 + $1.distance } }
        let reads: [(Date) -> Date] = [{ $0 }, { Date(timeIntervalSince1970: ($0.timeIntervalSince1970 / 60).rounded(.down) * 60) }]
        for option in options {
            guard let departure = option.departure, let arrival = option.arrival else { continue }
            let beaten = options.contains { other in
                guard let otherDeparture = other.departure, let otherArrival = other.arrival else { return false }
                return reads.contains { read in
                    let noWorse = read(otherDeparture) >= read(departure) && read(otherArrival) <= read(arrival)
                        && other.transfers <= option.transfers && walking(other) <= walking(option)
                    let better = read(otherDeparture) > read(departure) || read(otherArrival) < read(arrival)
                        || other.transfers < option.transfers || walking(other) < walking(option)
                    return noWorse && better
                }
            }
            XCTAssertFalse(beaten, "an alternative another dominates (\(departure) → \(arrival)): \(context)")
        }
    }

    func checkTravellable(_ plan: RoutePlan, userSetModes: Bool, userInsertedRides: Bool, userInsertedModes: Bool, settledStops: Bool,
                          context: String) {
        checkNoTripInTwoSegments(plan, context: context)
        for index in 1..<plan.nodes.count - 1 where !userSetModes && !userInsertedRides && plan.nodes[index].isInferred && !plan.nodes[index].isCurrentLocation {
            guard plan.modes[index - 1] == .transit, plan.modes[index] == .transit else { continue }
            XCTAssertTrue(plan.isLocked(segment: index - 1) && plan.isLocked(segment: index),
                          "two rides meet at inferred stop \(index + 1) (\(plan.modes)): \(context)")
        }
        // Whoever set the modes, an unlocked ride never meets a pinned ride at a stop the planner
        // inferred: asked to get there by the pinned departure (or to leave when it arrives), the
        // real engine takes the pinned vehicle itself, one trip in two segments (trial 48 finding
        // 8). This scripted network gives every query a trip of its own, so the trips alone
        // cannot show it: the two rides meeting there can.
        for index in 1..<plan.nodes.count - 1 where plan.nodes[index].isInferred && !plan.nodes[index].isCurrentLocation {
            guard plan.modes[index - 1] == .transit, plan.modes[index] == .transit else { continue }
            for (ride, other) in [(index - 1, index), (index, index - 1)] where plan.isPinned(segment: other) {
                XCTAssertTrue(plan.isLocked(segment: ride), "an unlocked ride meets the pinned ride on segment \(other + 1) at "
                              + "inferred stop \(index + 1) (\(plan.modes)): \(context)")
            }
        }
        // A stop the planner inferred is a ride's: one no ride boards or leaves from any more goes
        // (issue 39 item 4). Not a visit (a stay), nor one kept for the user's decision beside it.
        for index in 1..<plan.nodes.count - 1 where settledStops && plan.nodes[index].isInferred && !plan.nodes[index].isCurrentLocation
            && plan.nodes[index].stay == nil {
            let beside = [index - 1, index]
            guard !beside.contains(where: { plan.modes[$0] == .transit || plan.isLocked(segment: $0) || plan.isChosenRoute(segment: $0) })
            else { continue }
            // Left out, it would put one place twice in a row, which no edit does.
            var without = plan.nodes
            without.remove(at: index)
            guard (try? RoutePlan.checkNoSamePlaceTwice(without, around: index)) != nil else { continue }
            XCTFail("inferred stop \(index + 1) (\(plan.nodes[index].place.name)) is no ride's "
                    + "(\(plan.nodes.map(\.place.name)), \(plan.modes)): \(context)")
        }
        // No node is shown before the node before it (issue 39: a missed pin's arrival shown after
        // the walk that missed it); a node after a ride the traveller misses shows no time.
        var shown: Date?
        for (index, time) in plan.schedule().enumerated() {
            guard let time else { continue }
            if let shown, time < shown.addingTimeInterval(-RoutePlan.connectionSlack) {
                XCTFail("node \(index + 1) at \(time), before \(shown) (\(plan.modes)): \(context)")
            }
            shown = max(shown ?? time, time)
        }
        checkTimesRunForward(plan, context: context)
        // No drive where the car was left behind (after a ride, a walk or a bike ride away from
        // it) unless the user chose car for that segment: a lock (`plan mode … car`, a chosen or
        // pinned drive), or an insert by car or transit (theirs, not locked). A segment set to
        // another mode by hand judges the planner's drives after it again (issue 39 F12; trial 55
        // finding 5: drive, a locked 5.9 km walk, drive again after a fastest preset).
        guard !userInsertedModes else { return }
        // A locked drive is the user's (a pinned or chosen car segment).
        for index in 0..<plan.segmentCount where plan.modes[index] == .car && !plan.isLocked(segment: index) {
            guard let left = plan.carLeft(before: index) else { continue }
            XCTFail("a drive on segment \(index + 1) after the \(plan.modes[left]) on segment \(left + 1) left the car "
                    + "(\(plan.modes)): \(context)")
        }
    }

    /// One vehicle trip is one ride (issue 39 item 3): no trip ID in two segments (with
    /// `pinsAside`, of the segments not pinned).
    func checkNoTripInTwoSegments(_ plan: RoutePlan, pinsAside: Bool = false, context: String) {
        var seen: Set<String> = []
        for index in 0..<plan.segmentCount where !pinsAside || !plan.isPinned(segment: index) {
            let trips = Set(plan.legs[index]?.tripIDs ?? [])
            XCTAssertTrue(seen.isDisjoint(with: trips), "a trip in two segments (\(Self.shown(plan))): \(context)")
            seen.formUnion(trips)
        }
    }

    /// The schedule's rules (session 52): every step inside a leg runs forward (a walk ends by the
    /// time the next step starts, a ride arrives after it leaves), no node is reached before the
    /// one before it is left (a walk or drive: its own time after) unless the leg between is shown
    /// late or missed, and no leg the plan does not show missed or late leaves before the traveller can leave its node (after a missed pin,
    /// the legs that follow its proposal leave after the nodes it gets them to).
    func checkTimesRunForward(_ plan: RoutePlan, context: String) {
        for index in 0..<plan.segmentCount {
            guard let leg = plan.legs[index] else { continue }
            let steps = (leg.walks.map { ($0.start, $0.start.addingTimeInterval($0.duration)) }
                + leg.rides.map { ($0.boarding.time, $0.alighting.time) }).sorted { $0.0 < $1.0 }
            for (start, end) in steps where end < start.addingTimeInterval(-RoutePlan.connectionSlack) {
                XCTFail("segment \(index + 1) has a step ending \(end) before it starts \(start) (\(plan.modes)): \(context)")
            }
            for (before, after) in zip(steps, steps.dropFirst()) where after.0 < before.1.addingTimeInterval(-RoutePlan.connectionSlack) {
                XCTFail("segment \(index + 1): a step starts \(after.0) before the one before it ends \(before.1) (\(plan.modes)): \(context)")
            }
        }
        let broken = Set(plan.brokenConnections(now: EditSequencePropertyTests.dayStart))
        let ready = plan.departureTimes()
        // Times never run backward along the chain, and a walk (drive) gets to its end its own
        // time after it leaves, unless shown late or missed (trial 55 finding 3b: a walk left a stay
        // at 09:24 for a node shown at 08:54, "walk 0 min, 371 m", beside a late pin).
        let reached = plan.schedule(), leaving = plan.leavingTimes()
        for index in 0..<plan.segmentCount where !broken.contains(index) {
            guard let leaves = leaving[index], let arrives = reached[index + 1] else { continue }
            let least = plan.legs[index].map { $0.mode == .transit ? 0 : $0.expectedTravelTime } ?? 0
            XCTAssertGreaterThanOrEqual(arrives.timeIntervalSince(leaves), least - RoutePlan.connectionSlack,
                                        "node \(index + 2) reached \(arrives), node \(index + 1) left \(leaves), segment \(index + 1) "
                                        + "(\(plan.modes[index])) not late: \(context)")
        }
        for index in 0..<plan.segmentCount where !broken.contains(index) {
            guard let leaves = plan.legs[index]?.departure, let node = ready[index] else { continue }
            XCTAssertGreaterThanOrEqual(leaves, node.addingTimeInterval(-RoutePlan.connectionSlack),
                                        "segment \(index + 1) leaves \(leaves), before the traveller can leave node \(index + 1) at \(node) "
                                        + "(\(plan.modes)): \(context)")
        }
    }

    /// No walk back past the ride (issue 39 item 4): a walk to the stop the planner inferred for
    /// a ride is never longer than the straight line from the walk's start to where that ride
    /// alights (one could walk there instead), and the walk from the ride's inferred alighting
    /// stop never longer than the straight line from where the ride boards to the walk's end.
    /// An insert or move chooses the stops next to the new place again, so none is left that
    /// was chosen from a neighbour that is gone. A pinned ride keeps its stops (the user's
    /// departure from there), and so does a walk route the user chose among the segment's
    /// alternatives (the route goes to that stop; the rule is about the stops the planner
    /// infers); a ride from or to a place the user chose is not checked (moving
    /// a node onto the next one's place makes a ride there and a walk back: not handled yet).
    func checkNoWalkBack(_ plan: RoutePlan, context: String) {
        func isAccessStop(_ node: Int) -> Bool { plan.nodes[node].isInferred && !plan.nodes[node].isCurrentLocation }
        for index in 1..<max(1, plan.segmentCount - 1) where plan.modes[index] == .transit && isAccessStop(index) && isAccessStop(index + 1)
            && !plan.isPinned(segment: index) {
            guard let ride = plan.legs[index], let boarding = ride.rides.first?.boarding, let alighting = ride.rides.last?.alighting
            else { continue }
            if plan.modes[index - 1] == .walk, !plan.isChosenRoute(segment: index - 1), let walk = plan.legs[index - 1] {
                let start = plan.nodes[index - 1].place
                let walked = walk.distance ?? start.coordinate.distance(to: plan.nodes[index].place.coordinate)
                XCTAssertLessThanOrEqual(walked, start.coordinate.distance(to: alighting.coordinate),
                                         "walks \(Int(walked)) m from \(start.name) to \(plan.nodes[index].place.name) for a ride "
                                         + "alighting at \(alighting.name), nearer (\(plan.modes)): \(context)")
            }
            if plan.modes[index + 1] == .walk, !plan.isChosenRoute(segment: index + 1), let walk = plan.legs[index + 1] {
                let end = plan.nodes[index + 2].place
                let walked = walk.distance ?? end.coordinate.distance(to: plan.nodes[index + 1].place.coordinate)
                XCTAssertLessThanOrEqual(walked, end.coordinate.distance(to: boarding.coordinate),
                                         "walks \(Int(walked)) m from \(plan.nodes[index + 1].place.name) to \(end.name) after a ride "
                                         + "boarding at \(boarding.name), nearer (\(plan.modes)): \(context)")
            }
        }
    }

    /// The one rule of presets (issue 39 item 3): after a transit or fastest preset, no stretch
    /// the planner rides (nothing of the user's in it) takes at least as long door to door as
    /// walking it end to end.
    func checkNoRideWhereWalkingIsNoSlower(_ plan: RoutePlan, planner: Planner, context: String) async throws {
        // From when the traveller is at the stretch's start; one timed back from beyond it (to a
        // pin) from when it leaves.
        let ready = plan.readyToLeave(now: planner.clock.now()), departures = plan.departureTimes(startingAt: planner.clock.now())
        let arriving = plan.schedule(startingAt: planner.clock.now())
        for stretch in plan.stretches() where stretch.contains(where: { plan.modes[$0] == .transit }) && !plan.holdsDecision(stretch)
            && !stretch.dropFirst().contains(where: { plan.nodes[$0].stay != nil }) {
            let backward = plan.timingSource(ofSegment: stretch.upperBound - 1).isBackward
            guard stretch.allSatisfy({ plan.legs[$0] != nil }),
                  let start = backward ? departures[stretch.lowerBound] ?? ready[stretch.lowerBound] : ready[stretch.lowerBound],
                  let end = arriving[stretch.upperBound] else { continue }
            let query = LegQuery(from: plan.nodes[stretch.lowerBound].place, to: plan.nodes[stretch.upperBound].place,
                                 mode: .walk, timing: .departAt(start), pace: plan.pace, access: plan.access)
            guard let walk = try? await planner.routing.leg(for: query) else { continue }
            XCTAssertGreaterThan(walk.expectedTravelTime, end.timeIntervalSince(start),
                                 "rides \(stretch) (\(plan.modes)) where walking is no slower: \(context)")
        }
    }

    /// Its mirror: after a transit or fastest preset, no hop the planner walked "no slower than
    /// transit" has a ride door to door that, leaving when the walk leaves, arrives a minute or
    /// more before it (session 49: walked 08:01–08:20 where a bus leaving then arrived 08:17),
    /// unless that ride walks farther to and from its stops than the whole walk (the walk rule's
    /// other reason).
    func checkNoWalkARideBeats(_ plan: RoutePlan, planner: Planner, context: String) async throws {
        let departures = plan.departureTimes(startingAt: planner.clock.now()), arrivals = plan.schedule(startingAt: planner.clock.now())
        for index in 0..<plan.segmentCount where plan.modes[index] == .walk && !plan.isLocked(segment: index) {
            guard plan.note(ofSegment: index)?.mode?.kind == .walkedNoSlower,
                  let leaving = departures[index], let arriving = arrivals[index + 1] else { continue }
            let query = LegQuery(from: plan.nodes[index].place, to: plan.nodes[index + 1].place, mode: .transit,
                                 timing: .departAt(leaving), pace: plan.pace, access: plan.access)
            guard let ride = try? await planner.routing.leg(for: query), !ride.rides.isEmpty, let rideArrives = ride.arrival,
                  ride.walks.reduce(0, { $0 + $1.distance }) <= plan.legs[index]?.distance ?? 0 else { continue }  // the rule's other reason
            // A walk to a pinned ride, timed back to leave with it (it has time to spare): the
            // ride arriving sooner only waits longer for the same pinned vehicle, which both
            // catch (seed 27: walked 06:26–06:40 to the pinned 06:40, a bus leaving 06:26 arrives
            // 06:37:47). Whether to walk it is the walk rule's (that preset judged it from when
            // the traveller is at its start, 06:07, where the walk gets there 16 min sooner).
            if index + 1 < plan.segmentCount, plan.isPinned(segment: index + 1), let pinned = departures[index + 1],
               arriving <= pinned.addingTimeInterval(RoutePlan.connectionSlack), rideArrives <= pinned { continue }
            // The walk gets there its own time after it leaves; the next node's time may be later,
            // when the ride after it leaves (seed 56: walked 06:39:46 for 6 min to a bus at 06:50,
            // the node shown at 06:50, where a ride leaving with the walk arrives 06:46:14, after it).
            let walkArrives = min(arriving, leaving.addingTimeInterval(plan.legs[index]?.expectedTravelTime ?? .infinity))
            XCTAssertGreaterThan(rideArrives.addingTimeInterval(60), walkArrives,
                                 "walks segment \(index) (\(plan.modes), \(plan.nodes.map { $0.place.name + ($0.isInferred ? "*" : "") }), \((0..<plan.segmentCount).map { plan.modeNote(ofSegment: $0) ?? "-" }), locked \((0..<plan.segmentCount).map { plan.isLocked(segment: $0) })) to \(walkArrives) where a ride leaving with it arrives \(rideArrives): \(context)")
        }
    }

    /// One rounding (issue 39): a walked hop's note gives the walk in the minutes its leg shows
    /// (the difference of the two times shown), "walk 6 min" beside "walking (6 min) is no slower
    /// than transit (…)", never the seconds rounded; and the ride it names is no shorter. The
    /// notes the preset wrote: a locked walk keeps an older note (a move's, say), whose minutes
    /// stay as they were when later edits move the walk in time.
    func checkWalkedNotesReadAsTheirLegs(_ plan: RoutePlan, context: String) {
        for index in 0..<plan.segmentCount where plan.modes[index] == .walk && !plan.isLocked(segment: index) {
            guard let note = plan.modeNote(ofSegment: index), note.hasPrefix("walked: walking ("),
                  let shown = Self.walkingShown(plan, segment: index) else { continue }
            XCTAssertTrue(note.hasPrefix("walked: walking (\(shown)) is no slower than transit ("),
                          "segment \(index + 1) shows walk \(shown) beside \"\(note)\": \(context)")
            let minutes = note.split(separator: "(").compactMap { Int($0.prefix { $0.isNumber }) }
            if minutes.count == 2, !note.contains(" h ") { XCTAssertLessThanOrEqual(minutes[0], minutes[1], "\(note): \(context)") }
        }
    }

    /// Every mode note is true of its own leg (issue 39, session 53): after every edit, a walk's
    /// note that gives its walking minutes ("walked: walking (6 min) …", "walked: no transit route
    /// found (walking takes 12 min)") gives the minutes the walk's leg shows, whoever set the
    /// mode; a note whose leg an edit replaced is not shown (`modeNote(ofSegment:)`).
    func checkModeNotesReadAsTheirLegs(_ plan: RoutePlan, context: String) {
        for index in 0..<plan.segmentCount where plan.modes[index] == .walk {
            guard let note = plan.modeNote(ofSegment: index), let shown = Self.walkingShown(plan, segment: index) else { continue }
            for prefix in ["walked: walking (", "walked: no transit route found (walking takes "] where note.hasPrefix(prefix) {
                XCTAssertTrue(note.hasPrefix(prefix + shown + ")"), "segment \(index + 1) shows walk \(shown) beside \"\(note)\" "
                              + "(\(plan.modes)): \(context)")
            }
        }
    }

    /// A ride's note covers one ground (issue 39, session 59: "1 min door to door … where walking
    /// takes 8 min" was a one-stop bus against the walk of the whole hop it was judged for): after
    /// every edit, each "by transit: N door to door from … where walking takes M" names a ground
    /// of the plan around its segment (the segment, "from its departure", or "from A to B", places
    /// as the plan shows them), N is the difference of that ground's shown times (its departure
    /// from A, its arrival at B), M is the walk of that ground leaving when the note was judged,
    /// and N < M.
    func checkRideNotesCoverOneGround(_ plan: RoutePlan, planner: Planner, context: String) async throws {
        let departures = plan.departureTimes(), arrivals = plan.schedule(), names = plan.shownNodeNames
        for index in 0..<plan.segmentCount {
            guard let words = plan.modeNote(ofSegment: index), words.hasPrefix("by transit: "), words.contains(" where walking takes "),
                  let judged = plan.note(ofSegment: index)?.mode, let judgedAt = judged.from else { continue }
            let grounds = [(from: index, to: index + 1, named: "its departure")] + (0...index).reversed().flatMap { from in
                ((index + 1)...plan.segmentCount).map { (from: from, to: $0, named: "\(names[from]) to \(names[$0])") }
            }
            guard let ground = grounds.first(where: { words.contains(" door to door from \($0.named) (walks and waits included)") }) else {
                XCTFail("segment \(index + 1) says \"\(words)\", of no ground of the plan (\(names)): \(context)")
                continue
            }
            // A segment's own door to door is its leg's, as its header shows it; a larger ground's
            // from its departure from its first place to its arrival at its last.
            let ownLeg = ground.named == "its departure" ? plan.legs[index] : nil
            guard let leaving = ownLeg?.departure ?? departures[ground.from], let arriving = ownLeg?.arrival ?? arrivals[ground.to]
            else { continue }
            let query = LegQuery(from: plan.nodes[ground.from].place, to: plan.nodes[ground.to].place, mode: .walk,
                                 timing: .departAt(judgedAt), pace: plan.pace, access: plan.access)
            guard let walk = try? await planner.routing.leg(for: query) else { continue }
            let ridden = ShownTime.minutes(from: leaving, to: arriving), walking = ModeNote.walkMinutes(walk.expectedTravelTime)
            XCTAssertEqual(String(words.prefix { $0 != ";" }), "by transit: \(ShownTime.text(minutes: ridden)) door to door from \(ground.named) (walks and waits "
                           + "included) where walking takes \(ShownTime.text(minutes: walking))",
                           "segment \(index + 1) of \(names) (\(plan.modes)): the door to door shown and the walk of one ground: \(context)")
            XCTAssertLessThan(ridden, walking, "segment \(index + 1): \(words): \(context)")
        }
    }

    /// The walking minutes walk segment `index` shows, as `plan show` reads them: from when it
    /// leaves to when it gets to the next node, or, when it waits there for a ride, to the end of
    /// its walking ("walk 2 min, 135 m, then wait 7 min").
    static func walkingShown(_ plan: RoutePlan, segment index: Int) -> String? {
        guard let leg = plan.legs[index], let leaving = plan.departureTimes()[index], let arriving = plan.schedule()[index + 1]
        else { return nil }
        return ShownTime.text(from: leaving, to: min(arriving, leaving.addingTimeInterval(leg.expectedTravelTime)))
    }

    /// The walk rule after a move (issue 39 item 3): each stretch next to the moved node that
    /// `Planner.movedHops` chose to walk (asked of the plan before the move, as the daemon asks
    /// it) is one walk from end to end after the recompute, saying why; each it chose to ride
    /// rides, and walking it end to end takes longer than even the ride's time in the vehicle
    /// (the rule also counts the wait). A stretch that held a decision of the user's keeps its
    /// mode, as one with a vehicle or a stay does (no hop). A place twice in the plan is not checked.
    func checkMovedHopsFollowTheWalkRule(_ plan: RoutePlan, hops: [Planner.MovedHop], movedNode node: Int, to place: Place,
                                         planner: Planner, context: String) async throws {
        let own = plan.nodes.indices.filter { plan.nodes[$0].place.id == place.id && !plan.nodes[$0].isInferred }
        guard own.count == 1, let index = own.first else { return }
        let stretches = plan.stretches()
        for hop in hops {
            guard let stretch = stretches.first(where: { hop.stretch.upperBound == node ? $0.upperBound == index : $0.lowerBound == index })
            else { XCTFail("no stretch \(hop.stretch) after the move (\(plan.modes)): \(context)"); continue }
            if hop.mode == .walk {
                XCTAssertEqual(stretch.map { plan.modes[$0] }, [.walk], "walked \(hop.stretch) is one walk: \(context)")
                // The hop's reason, shown in the minutes the walk computed for it shows (the hop was
                // judged leaving at another second).
                XCTAssertEqual(plan.note(ofSegment: stretch.lowerBound)?.mode.map { $0.givesTheSameReason(as: hop.reason!) },
                               hop.reason.map { _ in true }, "the walk says why: \(context)")
                continue
            }
            XCTAssertTrue(stretch.contains { plan.modes[$0] == .transit }, "ridden \(hop.stretch) rides (\(plan.modes)): \(context)")
            let (from, to) = (plan.nodes[stretch.lowerBound].place, plan.nodes[stretch.upperBound].place)
            let query = { (mode: TravelMode) in
                LegQuery(from: from, to: to, mode: mode, timing: .departAt(EditSequencePropertyTests.dayStart), pace: plan.pace,
                         access: plan.access)
            }
            let walk = try await planner.routing.leg(for: query(.walk)), ride = try await planner.routing.leg(for: query(.transit))
            XCTAssertGreaterThan(walk.expectedTravelTime, ride.expectedTravelTime,
                                 "rides \(from.name) → \(to.name) (\(plan.modes)) where walking is no slower: \(context)")
        }
    }

    /// What a sequence's edits so far did that the checks allow for (the user's modes, rides and stops).
    struct SequenceState {
        var history: [String] = []
        var userSetModes = false, userInsertedRides = false, stopsKeptByAPin = false, userInsertedModes = false
    }

    /// Applies `edit` to `plan` and recomputes, as the daemon does, then checks the result;
    /// nil when the edit was refused (bad input changes nothing).
    func applyingAndChecking(_ edit: Edit, to plan: RoutePlan, state: inout SequenceState, planner: Planner,
                             context prefix: String) async throws -> RoutePlan? {
        state.history.append(edit.name)
        // The hops a move makes, as the edit asks them of the plan before it.
        var movedHops: [Planner.MovedHop]?
        if let moves = edit.moves { movedHops = try? await planner.movedHops(moves.node, to: moves.place, in: plan) }
        let edited: RoutePlan
        do {
            edited = try await edit.apply(plan)
        } catch is PlannerError {
            return nil  // bad input changes nothing
        } catch is RoutingError {
            return nil
        }
        state.stopsKeptByAPin = state.stopsKeptByAPin || (edit.placesANode && !plan.pins.isEmpty)
        let before = plan
        let computed = try await planner.computeLegs(edited)
        state.userSetModes = state.userSetModes || edit.setsModeByHand
        state.userInsertedModes = state.userInsertedModes || edit.putsUnlockedModes
        // A move that rides a hop that walked (the ride is faster) makes a ride from one of
        // the user's places, as an insert by transit does: removing that place later lets it
        // meet the ride before at its stop (`removingNode` does not join them yet).
        let movedIntoARide = movedHops?.contains { hop in hop.mode == .transit && !hop.stretch.contains { before.modes[$0] == .transit } }
        state.userInsertedRides = state.userInsertedRides || edit.insertsRides || movedIntoARide == true
        let context = prefix + state.history.joined(separator: ", ")
        checkTravellable(computed, userSetModes: state.userSetModes, userInsertedRides: state.userInsertedRides,
                         userInsertedModes: state.userInsertedModes, settledStops: edit.settlesStops, context: context)
        if !state.stopsKeptByAPin { checkNoWalkBack(computed, context: context) }
        checkModeNotesReadAsTheirLegs(computed, context: context)
        try await checkRideNotesCoverOneGround(computed, planner: planner, context: context)
        if let moves = edit.moves, let hops = movedHops {
            try await checkMovedHopsFollowTheWalkRule(computed, hops: hops, movedNode: moves.node, to: moves.place,
                                                      planner: planner, context: context)
        }
        // `.fastest` leaves no car where it is never driven again (trial 58 F7): its last drive
        // ends the day or near its end, or is the user's (locked). An unlocked drive the user
        // inserted is theirs.
        if edit.name == "preset fastest", !state.userInsertedModes, let drive = computed.driveLeavingTheCarForGood() {
            XCTFail("the drive on segment \(drive + 1) leaves the car for good (\(computed.modes)): \(context)")
        }
        if edit.ridingPreset {
            try await checkNoRideWhereWalkingIsNoSlower(computed, planner: planner, context: context)
            try await checkNoWalkARideBeats(computed, planner: planner, context: context)
            checkWalkedNotesReadAsTheirLegs(computed, context: context)
        }
        return computed
    }

    static func newPlan(from: Place, to: Place, planner: Planner) async throws -> RoutePlan {
        try await planner.buildPlan(from: from, to: to, preset: .transit,
                                    timePreference: .departAt(EditSequencePropertyTests.dayStart.addingTimeInterval(3600)),
                                    pace: .normal)
    }

    static func testPlanner() -> Planner {
        Planner(routing: EditSequencePropertyTests.Network(), clock: FixedClock(instant: EditSequencePropertyTests.dayStart))
    }

    /// The edits named, in order, on a new plan from `from` to `to`, each checked as a random
    /// sequence's are (the regression tests: a failing seed's sequence, cut to the edits it needs).
    func checkSequence(from: String, to: String, _ names: [String]) async throws {
        let planner = Self.testPlanner()
        func place(_ name: String) -> Place { EditSequencePropertyTests.places.first { $0.name == name }! }
        var plan = try await Self.newPlan(from: place(from), to: place(to), planner: planner)
        var state = SequenceState()
        for name in names {
            plan = try await applyingAndChecking(edit(named: name, planner: planner), to: plan, state: &state, planner: planner,
                                                 context: "\(from) → \(to): ") ?? plan
            if ProcessInfo.processInfo.environment["EDIT_SEQUENCE_SHOW"] != nil { print("AFTER \(name): \(Self.shown(plan))") }
        }
    }

    /// A plan in one line, to read a failing sequence by (`EDIT_SEQUENCE_SHOW`).
    static func shown(_ plan: RoutePlan) -> String {
        (0..<plan.segmentCount).map { index in
            let ride = plan.legs[index].map { leg in
                leg.rides.map { "\($0.boarding.name) \($0.boarding.time.formatted(.iso8601.time(includingFractionalSeconds: false)))"
                    + "→\($0.alighting.name)" }.joined(separator: "+") } ?? "none"
            return "\(plan.nodes[index].place.name)\(plan.nodes[index].isInferred ? "*" : "") -\(plan.modes[index].rawValue)"
                + "\(plan.isPinned(segment: index) ? "[pin]" : plan.isLocked(segment: index) ? "[lock]" : "") (\(ride))->"
        }.joined(separator: " ") + " " + plan.nodes[plan.segmentCount].place.name
            + " times \(plan.departureTimes().map { $0.map { "\($0)" } ?? "-" }) / \(plan.schedule().map { $0.map { "\($0)" } ?? "-" })"
    }

    func testRandomModeAndPresetEditsNeverBuildAJourneyNobodyCanTravel() async throws {
        let planner = Self.testPlanner()
        for seed in EditSequencePropertyTests.exploredSeeds ?? Self.seeds {
            var random = SeededRandom(seed: seed)
            var applied = 0
            let failuresBefore = testRun?.failureCount ?? 0
            seedLoop: for sequence in 0..<Self.sequences {
                let places = EditSequencePropertyTests.places
                let from = places.randomElement(using: &random)!
                var to = places.randomElement(using: &random)!
                while to.id == from.id { to = places.randomElement(using: &random)! }
                var plan = try await Self.newPlan(from: from, to: to, planner: planner)
                var state = SequenceState()
                for _ in 0..<Self.editsPerSequence {
                    let edit = randomEdit(plan, planner, &random)
                    let prefix = "seed \(seed), sequence \(sequence), \(from.name) → \(to.name): "
                    guard let edited = try await applyingAndChecking(edit, to: plan, state: &state, planner: planner, context: prefix)
                    else { continue }
                    plan = edited
                    applied += 1
                    // The first failing sequence of a seed says enough; explored seeds go on to the next.
                    if testRun?.failureCount ?? 0 > failuresBefore {
                        if EditSequencePropertyTests.exploredSeeds == nil { return }
                        break seedLoop
                    }
                }
            }
            if testRun?.failureCount ?? 0 > failuresBefore { continue }
            XCTAssertGreaterThan(applied, Self.sequences * Self.editsPerSequence / 2, "most edits apply (seed \(seed))")
        }
    }

    /// Seeds of `testEditsNeverRideOneBusInTwoSegmentsWhereBusesRunThrough` (four of the twelve
    /// of 1-40 that failed before a trip split at an inferred stop was made one ride), and its
    /// sequences a seed.
    static let throughRunningSeeds: [UInt64] = [1, 10, 31, 40]
    static let throughRunningSequences = 300

    /// Trial 60 F2a and F2b: the scripted network gives each query a trip of its own, so the
    /// random sequences above can never ride one trip in two segments, however an edit splits a
    /// ride. On buses that run through (`ThroughRunningNetwork`), with refine and arrive-by
    /// plans among the edits, no edit leaves one trip in two segments (a refine timed back from
    /// the end rode the bus into the stop it split at and the same bus out of it; a removal left
    /// the ride to the removed place's stop meeting the ride the user set to transit on one bus).
    /// Only that rule is checked (the others were written for the scripted network's answers),
    /// and not on a pinned ride: the ride next to a pinned one still takes the pinned bus on
    /// these lines, even next to a place of the user's (seeds 3, 4, 12, 13 … of
    /// `EDIT_SEQUENCE_SEEDS=1-40`; not handled yet).
    func testEditsNeverRideOneBusInTwoSegmentsWhereBusesRunThrough() async throws {
        let planner = Planner(routing: ThroughRunningNetwork(), clock: FixedClock(instant: EditSequencePropertyTests.dayStart))
        for seed in EditSequencePropertyTests.exploredSeeds ?? Self.throughRunningSeeds {
            var random = SeededRandom(seed: seed)
            let failuresBefore = testRun?.failureCount ?? 0
            var applied = 0
            for sequence in 0..<Self.throughRunningSequences {
                let places = EditSequencePropertyTests.places
                let from = places.randomElement(using: &random)!
                var to = places.randomElement(using: &random)!
                while to.id == from.id { to = places.randomElement(using: &random)! }
                var plan = try await Self.newPlan(from: from, to: to, planner: planner)
                var history: [String] = []
                for _ in 0..<Self.editsPerSequence {
                    let minutes = Int.random(in: 60...240, using: &random)
                    let edit = switch Int.random(in: 0..<8, using: &random) {
                    case 0: self.edit(named: "refine", planner: planner)
                    case 1: self.edit(named: "time \(Bool.random(using: &random) ? "arrive" : "depart") \(minutes)", planner: planner)
                    default: randomEdit(plan, planner, &random)
                    }
                    history.append(edit.name)
                    let edited: RoutePlan
                    do {
                        edited = try await edit.apply(plan)
                    } catch is PlannerError {
                        continue  // bad input changes nothing
                    } catch is RoutingError {
                        continue
                    }
                    plan = try await planner.computeLegs(edited)
                    applied += 1
                    checkNoTripInTwoSegments(plan, pinsAside: true, context: "seed \(seed), sequence \(sequence), \(from.name) → \(to.name): "
                                             + history.joined(separator: ", "))
                    if testRun?.failureCount ?? 0 > failuresBefore { break }
                }
                // The first failing sequence of a seed says enough.
                if testRun?.failureCount ?? 0 > failuresBefore { break }
            }
            if testRun?.failureCount ?? 0 > failuresBefore { continue }
            XCTAssertGreaterThan(applied, Self.throughRunningSequences * Self.editsPerSequence / 2, "most edits apply (seed \(seed))")
        }
    }

    // The failing seeds' sequences, cut to the edits they need (`testCuttingAFailingSequence`):
    // each made an unlocked ride meet a pinned ride at the stop the planner inferred for it
    // without an insert beside it ("walked: the way to the pinned ride", docs/planner.md).

    /// Seed 29: the ride the user inserted (by transit) from the pinned ride's stop, then the
    /// ride before it chosen.
    func testChoosingARideBeforeTheUsersRideFromItsStopWalksThatRide() async throws {
        try await checkSequence(from: "Pyynikki", to: "Rautatieasema",
                                ["preset transit", "remove node 1", "insert Ratina at 2 by transit", "choose 0 option 2"])
    }

    /// Seed 23: the same with the pin on the ride after the user's two inserted rides.
    func testChoosingARideAfterTheUsersRideToItsStopWalksThatRide() async throws {
        try await checkSequence(from: "Tampere-talo", to: "Pyynikki",
                                ["pin 1", "preset transit", "insert Rautatieasema at 3 by transit", "insert Rautatieasema at 1 by transit",
                                 "choose 1 option 1"])
    }

    /// Seed 26: a move and an insert by transit next to the ride, then the ride chosen.
    func testChoosingARideNextToAMovedPlacesRideWalksThatRide() async throws {
        try await checkSequence(from: "Tampere-talo", to: "Hervanta",
                                ["preset transit", "remove node 1", "move node 2 to Rautatieasema", "insert Hervanta at 3 by transit",
                                 "remove node 2", "choose 0 option 2"])
    }

    /// Seed 19: the place after a chosen ride's walk removed, the walk and the ride after it
    /// joined into a ride from the chosen ride's stop.
    func testRemovingThePlaceAfterAChosenRidesWalkWalksOnFromItsStop() async throws {
        try await checkSequence(from: "Pyynikki", to: "Tampere-talo",
                                ["preset transit", "remove node 1", "insert Ratina at 3 by transit", "choose 0 option 2", "remove node 2"])
    }

    /// Seed 27: the ride before a pinned ride walked by a transit preset, its walk timed back to
    /// the pinned departure, where a ride leaving with that walk would arrive sooner to wait
    /// for the same pinned vehicle (the mirror check leaves such a walk to the walk rule).
    func testAPresetsWalkTimedBackToAPinnedRideIsNotBeatenByARideWaitingForIt() async throws {
        try await checkSequence(from: "Rautatieasema", to: "Keskustori",
                                ["insert Tampere-talo at 1 by transit", "preset car", "insert Pyynikki at 2 by walk", "pin 2",
                                 "insert Keskustori at 2 by transit", "choose 2 option 2", "preset transit"])
    }

    /// Seed 2: the place before a chosen ride's walk removed, the ride before it and the walk
    /// joined into a ride to the chosen ride's stop.
    func testRemovingThePlaceBeforeAChosenRidesWalkWalksToItsStop() async throws {
        try await checkSequence(from: "Tampere-talo", to: "Pyynikki",
                                ["remove node 1", "insert Ratina at 1 by car", "preset transit", "choose 2 option 2", "remove node 1"])
    }

    /// Seed 44 (and 8, 23, 53, 57): a walk the user set by hand to a stop the planner inferred,
    /// kept by a walk preset; the car preset drove the stretch before it and the segment after
    /// it, leaving the car at the walk's start. The segment after the walk keeps its mode.
    func testACarPresetDrivesNothingAfterAWalkTheUserSetOnceTheStretchBeforeItIsDriven() async throws {
        try await checkSequence(from: "Tampere-talo", to: "Pyynikki",
                                ["insert Hervanta at 1 by walk", "preset transit", "mode 3 walk", "preset walk", "preset car"])
    }

    /// Seed 57 (and 8): a drive the car preset made while the car was a walk away (before any
    /// drive), kept by the fastest preset after it drove the stretch before a pinned walk: the
    /// car then waits at the walk's start. The kept drive is walked or ridden by the walk rule.
    func testTheFastestPresetKeepsNoDriveItsOwnDrivesLeftWithoutTheCar() async throws {
        try await checkSequence(from: "Ratina", to: "Rautatieasema",
                                ["insert Hervanta at 2 by walk", "preset car", "insert Pyynikki at 1 by walk", "pin 1", "preset fastest"])
    }

    /// Seed 45 (and 38): a drive inserted after a pinned ride, from the stop the planner inferred
    /// for it, judged at the next edit where the car is not at hand: ridden from that stop, it
    /// would board the pinned vehicle itself. It is walked, the way from the pinned ride.
    func testADriveJudgedWithoutTheCarFromAPinnedRidesStopWalksFromIt() async throws {
        try await checkSequence(from: "Rautatieasema", to: "Ratina",
                                ["move node 0 to Pyynikki", "preset transit", "pin 1", "insert Rautatieasema at 3 by car",
                                 "choose 3 option 0"])
    }

    /// `EDIT_SEQUENCE_CUT="Keskustori → Hervanta: preset transit, unpin, …"` (a failing sequence's
    /// words) cuts the sequence to the edits its first failure needs, one left out at a time, and
    /// prints what is left: the regression test to write. Without it, nothing runs.
    func testCuttingAFailingSequence() async throws {
        guard let words = ProcessInfo.processInfo.environment["EDIT_SEQUENCE_CUT"] else { return }
        let showing = ProcessInfo.processInfo.environment["EDIT_SEQUENCE_SHOW"] != nil
        let (ends, list) = (words.components(separatedBy: ": ")[0], words.components(separatedBy: ": ")[1])
        let (from, to) = (ends.components(separatedBy: " → ")[0], ends.components(separatedBy: " → ")[1])
        var names = list.components(separatedBy: ", ")
        func fails(_ names: [String]) async throws -> Bool {
            let before = testRun?.failureCount ?? 0
            try await checkSequence(from: from, to: to, names)
            return testRun?.failureCount ?? 0 > before
        }
        var index = showing ? -1 : names.count - 1
        while index >= 0 {
            var without = names
            without.remove(at: index)
            if try await fails(without) { names = without }
            index -= 1
        }
        print("CUT: \(from) → \(to): \(names.map { "\"\($0)\"" }.joined(separator: ", "))")
        try await checkSequence(from: from, to: to, names)
    }
}
