import Foundation
import TestSupport
import XCTest
@testable import Planner

/// Random sequences of edits on Tampere places (issue 28, "Edits compose"): after every edit
/// the plan is valid — times in order, every walk and drive taking its own time between its
/// nodes, no walk to an inferred stop and straight back, every pin
/// still there unless the edit removed it, one total — and has the structure and decisions of
/// a full recompute of the same decisions, down to every leg's departure and arrival.
///
/// The routing port is a scripted network on real Tampere coordinates, not the real engines:
/// 500 sequences of 8 edits per seed, each edit followed by its recompute and a full recompute to
/// compare with, are some 12,000 computations and 40,000 queries a seed; Routino and RAPTOR answer in
/// milliseconds each, which would take minutes, and the engines are tested on Tampere on their own.
final class EditSequencePropertyTests: XCTestCase {
    static let sequences = 500
    static let editsPerSequence = 8

    /// Places in central Tampere (the same as the daemon's integration tests use).
    static let places: [Place] = [
        Place(name: "Keskustori", coordinate: Coordinate(latitude: 61.49780, longitude: 23.76100)),
        Place(name: "Rautatieasema", coordinate: Coordinate(latitude: 61.49860, longitude: 23.77360)),
        Place(name: "Hervanta", coordinate: Coordinate(latitude: 61.45020, longitude: 23.85100)),
        Place(name: "Tampere-talo", coordinate: Coordinate(latitude: 61.49650, longitude: 23.78180)),
        Place(name: "Ratina", coordinate: Coordinate(latitude: 61.49180, longitude: 23.76390)),
        Place(name: "Pyynikki", coordinate: Coordinate(latitude: 61.49560, longitude: 23.73140)),
    ]
    /// A stop some 200 m north-east of each place.
    static let stops: [Place] = places.map {
        Place(name: "\($0.name) P", coordinate: Coordinate(latitude: $0.coordinate.latitude + 0.0013,
                                                             longitude: $0.coordinate.longitude + 0.0020),
              kind: .transitStop)
    }
    /// 2022-01-12 07:00 local (05:00 UTC), the good test day.
    static let dayStart = Date(timeIntervalSince1970: 1_641_963_600)

    /// Walks at 80 m/min, cars at 500 m/min plus 4 min; buses from anywhere to anywhere every
    /// 10 minutes, riding at 400 m/min plus 5 min, each departure its own trip.
    struct Network: ScriptedAnswers {
        func nearbyStops(around coordinate: Coordinate, radius: Double, limit: Int) async throws -> [Place] {
            Array(EditSequencePropertyTests.stops.filter { $0.coordinate.distance(to: coordinate) <= radius }
                .sorted { $0.coordinate.distance(to: coordinate) < $1.coordinate.distance(to: coordinate) }.prefix(limit))
        }

        static func answer(_ query: LegQuery, skipping: Int) throws -> RouteLeg {
            let metres = query.from.coordinate.distance(to: query.to.coordinate)
            switch query.mode {
            case .walk:
                return RouteLeg(mode: .walk, expectedTravelTime: (metres / 80 * 60 * query.pace.durationMultiplier).rounded(),
                                distance: metres)
            case .car:
                return RouteLeg(mode: .car, expectedTravelTime: (metres / 500 * 60 + 240).rounded(), distance: metres)
            case .bike:
                return RouteLeg(mode: .bike, expectedTravelTime: (metres / 250 * 60).rounded(), distance: metres)
            case .transit:
                let ride = (metres / 400 * 60 + 300).rounded()
                let headway: TimeInterval = 600
                let departure: TimeInterval
                switch query.timing {
                case .departAt(let time):
                    departure = (time.timeIntervalSince1970 / headway).rounded(.up) * headway + Double(skipping) * headway
                case .arriveBy(let time):
                    departure = ((time.timeIntervalSince1970 - ride) / headway).rounded(.down) * headway - Double(skipping) * headway
                }
                let start = Date(timeIntervalSince1970: departure), end = start.addingTimeInterval(ride)
                let trip = "\(query.from.name)-\(query.to.name)-\(Int(departure))"
                let rides = [TransitRide(lineName: "\(Int(metres) % 40)", vehicle: "bus", tripID: trip,
                                         boarding: TransitStopCall(name: query.from.name, coordinate: query.from.coordinate, time: start),
                                         alighting: TransitStopCall(name: query.to.name, coordinate: query.to.coordinate, time: end))]
                return RouteLeg(mode: .transit, expectedTravelTime: ride, distance: metres, departure: start, arrival: end,
                                rides: rides)
            }
        }
    }

    /// One edit the user can make, and the pins it may remove (keys of the plan before it).
    struct Edit {
        var name: String
        var removesPins: (RoutePlan) -> Set<SegmentKey>
        var apply: (RoutePlan) async throws -> RoutePlan
    }

    func randomEdit(_ plan: RoutePlan, _ planner: Planner, _ random: inout SeededRandom) -> Edit {
        let node = Int.random(in: 0..<plan.nodes.count, using: &random)
        let segment = Int.random(in: 0..<plan.segmentCount, using: &random)
        let place = Self.places.randomElement(using: &random)!
        let mode = [TravelMode.walk, .transit, .car].randomElement(using: &random)!
        let minutes = Double(Int.random(in: 0...180, using: &random))
        let option = Int.random(in: 0..<3, using: &random)
        func touching(_ plan: RoutePlan, _ index: Int) -> Set<SegmentKey> {
            Set([index - 1, index].filter { (0..<plan.segmentCount).contains($0) }.map(plan.segmentKey))
        }
        let none: (RoutePlan) -> Set<SegmentKey> = { _ in [] }
        switch Int.random(in: 0..<16, using: &random) {
        case 0:
            let at = Int.random(in: 1...plan.nodes.count, using: &random)
            return Edit(name: "insert \(place.name) at \(at) by \(mode)",
                        removesPins: { at < $0.nodes.count ? [$0.segmentKey(at - 1)] : [] },
                        apply: { try $0.insertingNode(PlanNode(place: place), at: at, mode: mode) })
        case 1:
            return Edit(name: "remove node \(node)", removesPins: { touching($0, node) }, apply: { try $0.removingNode(at: node) })
        case 2:
            return Edit(name: "move node \(node) to \(place.name)", removesPins: { touching($0, node) },
                        apply: { try $0.movingNode(at: node, to: place) })
        case 3:
            return Edit(name: "mode \(segment) \(mode)",
                        removesPins: { $0.modes[segment] == mode ? [] : [$0.segmentKey(segment)] },
                        apply: { try $0.changingMode(ofSegment: segment, to: mode) })
        case 4:
            let stay: NodeStay = option == 0 ? .until(Self.dayStart.addingTimeInterval(minutes * 120)) : .duration(minutes * 20)
            return Edit(name: "stay \(node) \(stay)", removesPins: none, apply: { try $0.settingStay(stay, atNode: node) })
        case 5:
            return Edit(name: "unlock \(segment)", removesPins: { [$0.segmentKey(segment)] },
                        apply: { try $0.unlocking(segment: segment) })
        case 6:
            return Edit(name: "choose \(segment) option \(option)", removesPins: none, apply: { plan in
                let options = try await planner.alternatives(for: plan, segment: segment, count: 3)
                return try plan.choosingAlternative(options[min(option, options.count - 1)], ofSegment: segment)
            })
        case 7:
            return Edit(name: "pin \(segment)", removesPins: none, apply: { plan in
                guard let time = plan.departureTimes()[segment] ?? plan.legs[segment]?.departure else { return plan }
                return try await planner.pinning(plan, segment: segment, at: time)
            })
        case 8:
            return Edit(name: "unpin", removesPins: { Set($0.pins.keys) }, apply: { $0.unpinning() })
        case 9:
            let pace = WalkingPace.allCases.randomElement(using: &random)!
            return Edit(name: "pace \(pace)", removesPins: none, apply: { $0.settingPace(pace) })
        case 10:
            let time = Self.dayStart.addingTimeInterval(minutes * 60)
            let preference: TimePreference = option == 0 ? .arriveBy(time.addingTimeInterval(4 * 3600)) : .departAt(time)
            return Edit(name: "time \(preference)", removesPins: none, apply: { $0.settingTimePreference(preference) })
        case 11:
            let preset = PlanPreset.allCases.randomElement(using: &random)!
            return Edit(name: "preset \(preset)", removesPins: none, apply: { try await planner.applyingPreset(preset, to: $0) })
        case 12:
            return Edit(name: "refine", removesPins: none, apply: { try await planner.refine($0, depth: 1) })
        case 13:
            return Edit(name: "accept or dismiss", removesPins: none, apply: { plan in
                guard let index = (0..<plan.segmentCount).first(where: { plan.pendingUpdate(ofSegment: $0) != nil }) else { return plan }
                return option == 0 ? try plan.acceptingPendingUpdate(ofSegment: index) : try plan.dismissingPendingUpdate(ofSegment: index)
            })
        case 14:
            return Edit(name: "swap", removesPins: { Set($0.pins.keys) }, apply: { $0.swappingEnds() })
        default:
            return Edit(name: "refresh", removesPins: none, apply: { $0.refreshing() })
        }
    }

    /// The plan's decisions without any leg but the user's chosen routes: what a full recompute starts from.
    func decisionsOnly(_ plan: RoutePlan) -> RoutePlan {
        var bare = plan
        bare.emptyLegs(keeping: [])
        bare.pending = [:]
        return bare
    }

    func checkValid(_ plan: RoutePlan, before: RoutePlan, edit: Edit, planner: Planner, context: String) async throws {
        // Every pin is still there unless the edit removed it. An edit may renumber a pin's key (an
        // insert before the first of two rides between the same stops makes the second the
        // first), so pins are counted per pair of places.
        let removable = edit.removesPins(before)
        func pairs(_ keys: some Sequence<SegmentKey>) -> [String: Int] {
            Dictionary(keys.map { ("\($0.fromID) → \($0.toID)", 1) }, uniquingKeysWith: +)
        }
        // A walk to (from) a pinned ride's stop set to transit joins the ride: its pin goes with it
        // to the joined segment, between other places, the same trips (as the daemon counts it).
        let after = pairs(plan.pins.keys)
        let tripsPinned = Set(plan.pins.values.map(\.tripIDs).filter { !$0.isEmpty })
        for (pair, count) in pairs(before.pins.keys.filter { key in
            !removable.contains(key) && !(before.pins[key].map { tripsPinned.contains($0.tripIDs) } ?? false)
        }) {
            XCTAssertGreaterThanOrEqual(after[pair] ?? 0, count, "a pin vanished on \(pair): \(context)")
        }
        XCTAssertFalse(plan.hasDetour, "a walk to an inferred stop and straight back: \(context)")
        let complete = plan.legs.allSatisfy { $0 != nil }
        let broken = plan.brokenConnection(now: Self.dayStart)
        if complete, broken == nil {
            let times = plan.schedule(startingAt: Self.dayStart).compactMap { $0 }
            XCTAssertEqual(times.count, plan.nodes.count, "every node has a time: \(context)")
            for (earlier, later) in zip(times, times.dropFirst()) {
                XCTAssertLessThanOrEqual(earlier, later.addingTimeInterval(RoutePlan.connectionSlack), "times in order: \(context)")
            }
            // A walk or drive takes its own time: it leaves its node when the plan says and gets
            // to the next node that much later (waits fall at nodes, before a dated leg).
            let leaving = plan.departureTimes(startingAt: Self.dayStart)
            for index in 0..<plan.segmentCount {
                guard times.indices.contains(index), let leaves = leaving[index] else { continue }
                let arrives = times[index]
                XCTAssertGreaterThanOrEqual(leaves.addingTimeInterval(RoutePlan.connectionSlack), arrives, "node \(index + 1) left after it is reached: \(context)")
                if let leg = plan.legs[index], let departure = leg.departure {
                    XCTAssertGreaterThanOrEqual(departure.addingTimeInterval(RoutePlan.connectionSlack), leaves, "leg \(index + 1) leaves after its node is left: \(context)")
                }
            }
            for index in 0..<plan.segmentCount {
                guard let leg = plan.legs[index], leg.departure == nil, leg.arrival == nil,
                      let leaves = leaving[index], times.indices.contains(index + 1) else { continue }
                XCTAssertEqual(times[index + 1].timeIntervalSince(leaves), leg.expectedTravelTime, accuracy: RoutePlan.connectionSlack,
                               "leg \(index + 1) (\(leg.mode)) takes its own time between its nodes: \(context)")
            }
        }
        // One total: present exactly when the plan can be followed as asked, and never less than its legs and stays.
        if let total = plan.totalTravelTime {
            XCTAssertTrue(complete, context)
            let least = plan.legs.reduce(0) { $0 + ($1?.expectedTravelTime ?? 0) }
            XCTAssertGreaterThanOrEqual(total, least - 1, "the total covers every leg: \(context)")
        } else if complete, case .departAt = plan.timePreference {
            XCTAssertNotNil(broken, "a complete plan without a total has a broken connection: \(context)")
        }
        // The same decisions computed from scratch give the same plan, leg for leg in structure.
        let full = try await planner.computeLegs(decisionsOnly(plan))
        XCTAssertEqual(full.nodes, plan.nodes, "nodes as a full recompute: \(context)")
        XCTAssertEqual(full.modes, plan.modes, "modes as a full recompute: \(context)")
        XCTAssertEqual(full.locks, plan.locks, "locks as a full recompute: \(context)")
        XCTAssertEqual(full.pins, plan.pins, "pins as a full recompute: \(context)")
        XCTAssertEqual(full.legs.map { $0?.mode }, plan.legs.map { $0?.mode }, "legs as a full recompute: \(context)")
        for index in plan.pinnedSegmentIndices {
            XCTAssertEqual(full.legs[index]?.departure, plan.legs[index]?.departure, "pinned leg \(index + 1) re-found: \(context)")
        }
        // Every kept leg is timed as a full recompute times it: an edit that makes the traveller
        // earlier asks the transit legs after it again, and an unpin retimes the legs around the pin.
        guard full.segmentCount == plan.segmentCount else { return }
        for index in 0..<plan.segmentCount {
            XCTAssertEqual(full.legs[index]?.departure, plan.legs[index]?.departure, "leg \(index + 1) departs as in a full recompute: \(context)")
            XCTAssertEqual(full.legs[index]?.arrival, plan.legs[index]?.arrival, "leg \(index + 1) arrives as in a full recompute: \(context)")
            XCTAssertEqual(full.legs[index]?.expectedTravelTime, plan.legs[index]?.expectedTravelTime,
                           "leg \(index + 1) lasts as in a full recompute: \(context)")
        }
    }

    /// 28, the seeds on which each of session 35's planner fixes was found (an accepted walk
    /// proposal, a detour left out, a plan going nowhere, a pin removed or re-chosen), and those
    /// that found decisions shared by two segments between the same two places (`SegmentKey`'s
    /// occurrence), and 55 (a stay "until" after a pinned departure in an arrive-by plan).
    static let seeds: [UInt64] = [28, 2, 14, 27, 31, 33, 7, 8, 15, 34, 38, 55]

    /// `EDIT_SEQUENCE_SEEDS=1-60` runs those seeds instead, each to its first failing sequence
    /// (to look for new failures; the seeds above are what the suite runs).
    static var exploredSeeds: [UInt64]? {
        guard let range = ProcessInfo.processInfo.environment["EDIT_SEQUENCE_SEEDS"] else { return nil }
        let bounds = range.split(separator: "-").compactMap { UInt64($0) }
        guard let first = bounds.first, let last = bounds.last, first <= last else { return nil }
        return Array(first...last)
    }

    func testRandomEditSequencesKeepEveryPlanValidAndEqualToAFullRecompute() async throws {
        let planner = Planner(routing: Network(), clock: FixedClock(instant: Self.dayStart))
        for seed in Self.exploredSeeds ?? Self.seeds {
            let failuresBefore = testRun?.failureCount ?? 0
            try await checkRandomEditSequences(seed: seed, planner: planner, failuresBefore: failuresBefore)
            if Self.exploredSeeds == nil, testRun?.failureCount ?? 0 > 0 { return }  // the first failing sequence says enough
        }
    }

    func checkRandomEditSequences(seed: UInt64, planner: Planner, failuresBefore: Int = 0) async throws {
        var random = SeededRandom(seed: seed)
        var applied = 0
        for sequence in 0..<Self.sequences {
            let from = Self.places.randomElement(using: &random)!
            var to = Self.places.randomElement(using: &random)!
            while to.id == from.id { to = Self.places.randomElement(using: &random)! }
            var plan = try await planner.buildPlan(from: from, to: to, preset: .transit,
                                                   timePreference: .departAt(Self.dayStart.addingTimeInterval(3600)), pace: .normal)
            var history: [String] = []
            for _ in 0..<Self.editsPerSequence {
                let edit = randomEdit(plan, planner, &random)
                history.append(edit.name)
                let before = plan
                let edited: RoutePlan
                do {
                    edited = try await edit.apply(plan)
                } catch is PlannerError {
                    continue  // bad input changes nothing (the plan is a value: `plan` is untouched)
                } catch is RoutingError {
                    continue
                }
                plan = try await planner.computeLegs(edited)
                applied += 1
                try await checkValid(plan, before: before, edit: edit,
                                     planner: planner, context: "seed \(seed), sequence \(sequence): \(history.joined(separator: ", "))")
                if testRun?.failureCount ?? 0 > failuresBefore { return }  // the first failing sequence says enough
            }
        }
        XCTAssertGreaterThan(applied, Self.sequences * Self.editsPerSequence / 2, "most edits apply (seed \(seed))")
    }
}
