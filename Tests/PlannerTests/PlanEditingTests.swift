import XCTest
@testable import Planner

/// The edits a user makes: each leaves exactly the affected legs empty and keeps locks by place ID.
final class PlanEditingTests: XCTestCase {
    let home = Fixture.home, stopA = Fixture.stopA, stopB = Fixture.stopB, office = Fixture.office

    /// home -walk- stopA(inferred) -transit- stopB(inferred) -walk- office, every leg computed.
    func transitPlan() throws -> RoutePlan {
        let nodes = [PlanNode(place: home), PlanNode(place: stopA, isInferred: true),
                     PlanNode(place: stopB, isInferred: true), PlanNode(place: office)]
        return try RoutePlan(restoring: nodes, modes: [.walk, .transit, .walk],
                             legs: [Fixture.walk(5), Fixture.transit(departing: Fixture.at(7), minutes: 20), Fixture.walk(6)],
                             timePreference: .leaveNow, pace: .normal, locks: [:], pinned: nil, pending: [:])
    }

    func emptied(_ plan: RoutePlan) -> [Int] { plan.legs.indices.filter { plan.legs[$0] == nil } }

    // MARK: insert

    func testInsertingANodeEmptiesOnlyTheSplitSegment() throws {
        let via = Fixture.place("Library", east: 5_000)
        let plan = try transitPlan().insertingNode(PlanNode(place: via), at: 2)
        XCTAssertEqual(plan.nodes.map(\.place.name), ["Home", "Stop A", "Library", "Stop B", "Office"])
        XCTAssertEqual(plan.modes, [.walk, .transit, .transit, .walk])
        XCTAssertEqual(emptied(plan), [1, 2])
    }

    func testInsertingWithAModeUsesItForBothNewSegments() throws {
        let via = Fixture.place("Library", east: 5_000)
        let plan = try transitPlan().insertingNode(PlanNode(place: via), at: 2, mode: .bike)
        XCTAssertEqual(plan.modes.filter { $0 == .bike }.count, 2, "\(plan.modes)")
    }

    /// Issue 39 item 4: the ride the stops were inferred for is cycled now; a stop no ride boards
    /// or leaves from goes, its two segments one (the walk to the stop and the cycle on from it).
    func testAnInsertThatLeavesAStopNoRideUsesLeavesTheStopOut() throws {
        let via = Fixture.place("Library", east: 5_000)
        let plan = try transitPlan().insertingNode(PlanNode(place: via), at: 2, mode: .bike)
        XCTAssertEqual(plan.nodes.map(\.place.name), ["Home", "Library", "Office"])
        XCTAssertEqual(plan.modes, [.bike, .bike])
        XCTAssertEqual(emptied(plan), [0, 1])
    }

    func testInsertingANewOriginOrDestinationEmptiesOnlyTheNewSegment() throws {
        let before = Fixture.place("Gym", east: -2_000), after = Fixture.place("Cafe", east: 11_000)
        let first = try transitPlan().insertingNode(PlanNode(place: before), at: 0)
        XCTAssertEqual(first.nodes.first?.place, before)
        XCTAssertEqual(emptied(first), [0])
        let last = try transitPlan().insertingNode(PlanNode(place: after), at: 4, mode: .walk)
        XCTAssertEqual(last.nodes.last?.place, after)
        XCTAssertEqual(emptied(last), [3])
    }

    func testInsertingAtABadIndexOrAnInvalidPlaceChangesNothingAndThrows() throws {
        let plan = try transitPlan()
        XCTAssertThrowsError(try plan.insertingNode(PlanNode(place: Fixture.place("x", east: 1)), at: 5)) {
            XCTAssertEqual(($0 as? PlannerError)?.code, "index_out_of_range")
        }
        XCTAssertThrowsError(try plan.insertingNode(PlanNode(place: Fixture.place("x", east: 1)), at: -1))
        let bad = Place(name: "bad", coordinate: Coordinate(latitude: .nan, longitude: 0))
        XCTAssertThrowsError(try plan.insertingNode(PlanNode(place: bad), at: 1)) {
            XCTAssertEqual(($0 as? PlannerError)?.code, "invalid_coordinate")
        }
    }

    func testInsertingTheSamePlaceNextToItselfIsRejected() throws {
        XCTAssertThrowsError(try transitPlan().insertingNode(PlanNode(place: Fixture.stopA), at: 2)) {
            XCTAssertEqual(($0 as? PlannerError)?.code, "same_place_twice")
        }
    }

    /// Found by the edit-sequence property test: moving the start to the destination left a
    /// plan from Office back to Office through the stops the planner inferred, which no
    /// recompute can leave out (it would be one segment from Office to itself).
    func testAnEditThatLeavesOnlyInferredStopsBetweenOnePlaceAndItselfIsRejected() throws {
        let plan = try transitPlan()
        for (edit, attempt) in [("move the start", { try plan.movingNode(at: 0, to: self.office) }),
                                ("move the end", { try plan.movingNode(at: 3, to: self.home) })] {
            XCTAssertThrowsError(try attempt(), edit) {
                XCTAssertEqual(($0 as? PlannerError)?.code, "same_place_twice", edit)
            }
        }
        let via = try plan.insertingNode(PlanNode(place: Fixture.place("Library", east: 5_000)), at: 2)
        let roundTrip = try via.movingNode(at: 0, to: office)
        XCTAssertEqual(roundTrip.nodes.map(\.place.name), ["Office", "Stop A", "Library", "Stop B", "Office"],
                       "a round trip with a visit between is a plan")
        XCTAssertThrowsError(try roundTrip.removingNode(at: 2), "removing the visit") {
            XCTAssertEqual(($0 as? PlannerError)?.code, "same_place_twice")
        }
    }

    func testALockSurvivesInsertingANodeElsewhere() throws {
        let locked = try transitPlan().changingMode(ofSegment: 2, to: .car)
        let plan = try locked.insertingNode(PlanNode(place: Fixture.place("Kiosk", east: 200)), at: 1)
        XCTAssertEqual(plan.segmentIndex(of: locked.segmentKey(2)), 3)
        XCTAssertTrue(plan.isLocked(segment: 3))
        XCTAssertEqual(plan.lock(ofSegment: 3)?.mode, .car)
        XCTAssertEqual(plan.modes[3], .car)
    }

    // MARK: remove

    func testRemovingAnInferredStopLocksTheMergedSegment() throws {
        let plan = try transitPlan().removingNode(at: 1)
        XCTAssertEqual(plan.nodes.map(\.place.name), ["Home", "Stop B", "Office"])
        XCTAssertEqual(plan.modes, [.transit, .walk])
        XCTAssertEqual(emptied(plan), [0])
        XCTAssertEqual(plan.lock(ofSegment: 0)?.mode, .transit)
        XCTAssertFalse(plan.isLocked(segment: 1))
    }

    func testRemovingAUserWaypointDoesNotLock() throws {
        let via = Fixture.place("Library", east: 5_000)
        let withVia = try transitPlan().insertingNode(PlanNode(place: via), at: 2)
        let plan = try withVia.removingNode(at: 2)
        XCTAssertEqual(plan.nodes.map(\.place.name), ["Home", "Stop A", "Stop B", "Office"])
        XCTAssertTrue(plan.locks.isEmpty)
        XCTAssertEqual(emptied(plan), [1])
    }

    func testTheOriginAndDestinationCannotBeRemoved() throws {
        let plan = try transitPlan()
        XCTAssertThrowsError(try plan.removingNode(at: 0)) { XCTAssertEqual($0 as? PlannerError, .cannotRemoveEndpoint(index: 0)) }
        XCTAssertThrowsError(try plan.removingNode(at: 3)) { XCTAssertEqual($0 as? PlannerError, .cannotRemoveEndpoint(index: 3)) }
        XCTAssertThrowsError(try plan.removingNode(at: 9)) { XCTAssertEqual(($0 as? PlannerError)?.code, "index_out_of_range") }
    }

    func testAMergedSegmentKeepsAModeTheUserLocked() throws {
        let plan = try transitPlan().changingMode(ofSegment: 0, to: .car).removingNode(at: 1)
        XCTAssertEqual(plan.modes[0], .car)
    }

    // MARK: move

    func testMovingANodeEmptiesTheTwoSegmentsAroundItAndMakesItTheUsersChoice() throws {
        let other = Fixture.place("Stop A2", east: 500, kind: .transitStop)
        let plan = try transitPlan().movingNode(at: 1, to: other)
        XCTAssertEqual(plan.nodes[1].place, other)
        XCTAssertFalse(plan.nodes[1].isInferred)
        XCTAssertEqual(emptied(plan), [0, 1])
    }

    /// The user's mode for a segment the move touches stays theirs (its lock's mode goes with
    /// the new place); what belonged to the old place, a chosen departure, does not. Forgotten,
    /// a ride the user set read as the planner's at the next edit, which judged it by the walk rule.
    func testMovingANodeKeepsTheModesTheUserSetButNotTheirChosenDepartures() throws {
        var locked = try transitPlan().changingMode(ofSegment: 0, to: .bike).changingMode(ofSegment: 2, to: .walk)
        locked.locks[locked.segmentKey(1)] = SegmentLock(mode: .transit, departure: Fixture.at(10), duration: 600)
        let plan = try locked.movingNode(at: 1, to: Fixture.place("Stop A2", east: 500))
        XCTAssertEqual(plan.lock(ofSegment: 0), SegmentLock(mode: .bike), "the user's mode stays theirs")
        XCTAssertEqual(plan.lock(ofSegment: 1), SegmentLock(mode: .transit), "the mode, not the departure chosen from the old place")
        XCTAssertEqual(plan.lock(ofSegment: 2)?.mode, .walk, "a lock away from the moved node stays")
    }

    // MARK: mode

    func testChangingASegmentsModeLocksItAndEmptiesOnlyThatLeg() throws {
        let plan = try transitPlan().changingMode(ofSegment: 0, to: .bike)
        XCTAssertEqual(plan.modes, [.bike, .transit, .walk])
        XCTAssertEqual(plan.lock(ofSegment: 0), SegmentLock(mode: .bike))
        XCTAssertEqual(emptied(plan), [0])
    }

    /// Issue 39 item 4: the ride set to drive leaves its two stops with no ride to board or
    /// leave: they go, and the plan drives from home to the office, locked as the user set it.
    func testARideSetToDriveLeavesOutTheStopsNoRideUses() throws {
        let plan = try transitPlan().changingMode(ofSegment: 1, to: .car)
        XCTAssertEqual(plan.nodes.map(\.place.name), ["Home", "Office"])
        XCTAssertEqual(plan.modes, [.car])
        XCTAssertEqual(plan.lock(ofSegment: 0), SegmentLock(mode: .car))
        XCTAssertEqual(emptied(plan), [0])
    }

    func testChangingToTheSameModeLocksWithoutEmptyingTheLeg() throws {
        let plan = try transitPlan().changingMode(ofSegment: 1, to: .transit)
        XCTAssertTrue(plan.isLocked(segment: 1))
        XCTAssertEqual(emptied(plan), [])
    }

    /// Trial 47 F16: the walk from a pinned ride's stop set to transit rode the same trip on in a
    /// second segment. It joins the ride; the ride's lock and pin go with it to the joined segment.
    func testTheWalkFromAPinnedRidesStopSetToTransitJoinsTheRideKeepingItsPin() throws {
        var plan = try transitPlan()
        plan.legs[1] = Fixture.transit(departing: Fixture.at(7), minutes: 20, trip: "T1")
        var pinned = try plan.pinningDeparture(ofSegment: 1)
        pinned.legs[2] = Fixture.walk(6)  // as the recompute after the pin gives it
        let pin = try XCTUnwrap(pinned.pin(ofSegment: 1))
        let joined = try pinned.changingMode(ofSegment: 2, to: .transit)
        XCTAssertEqual(joined.nodes.map(\.place.name), ["Home", "Stop A", "Office"])
        XCTAssertEqual(joined.modes, [.walk, .transit])
        XCTAssertEqual(joined.pinnedSegmentIndices, [1], "the pin goes with the ride")
        XCTAssertEqual(joined.pin(ofSegment: 1)?.departure, pin.departure, "boarding where it did, when it did")
        XCTAssertEqual(joined.pin(ofSegment: 1)?.tripIDs, ["T1"])
        XCTAssertEqual(joined.lock(ofSegment: 1)?.departure, pin.departure, "the ride's lock, not a bare one")
        // The user's ride, its walk from the stop now its egress walk: 20 min riding, 6 walking.
        XCTAssertEqual(joined.legs[1]?.tripIDs, ["T1"])
        XCTAssertEqual(joined.legs[1]?.walks.map(\.kind), [.egress])
        XCTAssertEqual(joined.legs[1]?.arrival, Fixture.at(7 + 26))
        XCTAssertEqual(joined.pin(ofSegment: 1)?.leg, joined.legs[1])
    }

    /// Trial 47 F7: the walk to a locked ride's stop set to transit rode away and back to that stop.
    /// It joins the ride, which keeps its lock; a pin there leaves with the walk, which comes first.
    func testTheWalkToALockedOrPinnedRidesStopSetToTransitJoinsTheRide() throws {
        let locked = try transitPlan().changingMode(ofSegment: 1, to: .transit).changingMode(ofSegment: 0, to: .transit)
        XCTAssertEqual(locked.nodes.map(\.place.name), ["Home", "Stop B", "Office"])
        XCTAssertEqual(locked.modes, [.transit, .walk])
        XCTAssertTrue(locked.isLocked(segment: 0))

        var plan = try transitPlan()
        plan.timePreference = .departAt(Fixture.at(0))
        plan.legs[1] = Fixture.transit(departing: Fixture.at(30), minutes: 20, trip: "T1")
        var pinned = try plan.pinningDeparture(ofSegment: 1)
        pinned.legs[0] = Fixture.walk(5)  // as the recompute after the pin gives it
        let walkLeaves = try XCTUnwrap(pinned.departureTimes()[0])
        let joined = try pinned.changingMode(ofSegment: 0, to: .transit)
        XCTAssertEqual(joined.modes, [.transit, .walk])
        XCTAssertEqual(joined.pinnedSegmentIndices, [0])
        XCTAssertEqual(joined.pin(ofSegment: 0)?.departure, walkLeaves, "the pin leaves with the walk to the stop")
        XCTAssertEqual(walkLeaves, Fixture.at(25), "as late as the ride allows")
        XCTAssertEqual(joined.legs[0]?.departure, walkLeaves, "the user's ride, the walk its access walk")
        XCTAssertEqual(joined.legs[0]?.walks.map(\.kind), [.access])
        XCTAssertEqual(joined.legs[0]?.rides.first?.tripID, "T1")
    }

    func testChangingTheModeOfAMissingSegmentThrows() throws {
        XCTAssertThrowsError(try transitPlan().changingMode(ofSegment: 3, to: .walk)) {
            XCTAssertEqual($0 as? PlannerError, .segmentIndexOutOfRange(index: 3, segmentCount: 3))
        }
    }

    // MARK: presets

    func testAPresetNeverChangesAModeLockedSegment() throws {
        let plan = try transitPlan().changingMode(ofSegment: 0, to: .car).applyingPreset(.walk)
        // Stop A stays with the locked car segment; stop B served only transit and goes.
        XCTAssertEqual(plan.nodes.map(\.place.name), ["Home", "Stop A", "Office"])
        XCTAssertEqual(plan.modes, [.car, .walk])
        XCTAssertEqual(emptied(plan), [0, 1])
    }

    func testAPresetThatLeavesTransitRemovesTheStopsInsertedForItButNotTheUsersStops() throws {
        let walk = try transitPlan().applyingPreset(.walk)
        XCTAssertEqual(walk.nodes.map(\.place.name), ["Home", "Office"])
        XCTAssertEqual(walk.modes, [.walk])
        XCTAssertEqual(emptied(walk), [0])
        let users = try RoutePlan(nodes: [PlanNode(place: home), PlanNode(place: stopA), PlanNode(place: office)],
                                  modes: [.walk, .transit]).applyingPreset(.car)
        XCTAssertEqual(users.nodes.map(\.place.name), ["Home", "Stop A", "Office"], "a stop the user chose stays")
        XCTAssertEqual(users.modes, [.car, .car])
    }

    func testAPresetEmptiesOnlySegmentsWhoseModeChanged() throws {
        let nodes = [PlanNode(place: home), PlanNode(place: stopA), PlanNode(place: office)]
        let plan = try RoutePlan(restoring: nodes, modes: [.walk, .transit],
                                 legs: [Fixture.walk(5), Fixture.transit(departing: Fixture.at(7), minutes: 20)],
                                 timePreference: .leaveNow, pace: .normal, locks: [:], pinned: nil, pending: [:])
            .applyingPreset(.transit)
        XCTAssertEqual(plan.modes, [.transit, .transit], "a walk to a stop the user chose is the user's segment")
        XCTAssertEqual(emptied(plan), [0])
    }

    /// Issue 39: the walks to and from a ride's inferred stops are how the traveller reaches it;
    /// made rides, one trip would run through two segments.
    func testATransitPresetKeepsTheWalksToAndFromTheInferredStopsAsWalks() throws {
        let plan = try transitPlan().applyingPreset(.transit)
        XCTAssertEqual(plan.modes, [.walk, .transit, .walk])
        XCTAssertEqual(emptied(plan), [], "nothing changed")
    }

    /// Issue 39: a drive preset keeps the walks to a ride the user locked, and never drives
    /// after it (the car stayed where the ride began).
    func testADrivePresetKeepsTheWalksToALockedRideAndNeverDrivesAfterIt() throws {
        let locked = try transitPlan().changingMode(ofSegment: 1, to: .transit)
        XCTAssertEqual(locked.applyingPreset(.car).modes, [.walk, .transit, .walk])
        let nodes = [PlanNode(place: home), PlanNode(place: stopA, isInferred: true), PlanNode(place: stopB, isInferred: true),
                     PlanNode(place: office), PlanNode(place: stopA)]
        let day = try RoutePlan(nodes: nodes, modes: [.walk, .transit, .walk, .walk]).changingMode(ofSegment: 1, to: .transit)
        XCTAssertEqual(day.applyingPreset(.car).modes, [.walk, .transit, .walk, .walk], "no drive after the ride")
        XCTAssertEqual(try day.changingMode(ofSegment: 3, to: .car).applyingPreset(.car).modes, [.walk, .transit, .walk, .car],
                       "a drive the user chose stays theirs")
    }

    func testTheOfflineFastestPresetWalksShortSegmentsAndDrivesLongOnes() throws {
        let nodes = [home, stopA, stopB, office].map { PlanNode(place: $0) }
        let plan = try RoutePlan(nodes: nodes, modes: [.walk, .transit, .walk]).applyingPreset(.fastest)
        // 400 m and 400 m walks stay walks; the 9.2 km middle becomes car.
        XCTAssertEqual(plan.modes, [.walk, .car, .walk])
    }

    // MARK: swap

    func testSwappingEndsReversesTheChainAndEmptiesEveryLeg() throws {
        let plan = try transitPlan().swappingEnds()
        XCTAssertEqual(plan.nodes.map(\.place.name), ["Office", "Stop B", "Stop A", "Home"])
        XCTAssertEqual(plan.nodes.map(\.isInferred), [false, true, true, false])
        XCTAssertEqual(plan.modes, [.walk, .transit, .walk])
        XCTAssertEqual(emptied(plan), [0, 1, 2])
    }

    func testSwapCarriesLocksWithReversedKeys() throws {
        let locked = try transitPlan().changingMode(ofSegment: 0, to: .car)
        let key = locked.segmentKey(0)
        let plan = locked.swappingEnds()
        XCTAssertNil(plan.locks[key])
        let reversed = SegmentKey(fromID: key.toID, toID: key.fromID)
        XCTAssertEqual(plan.locks[reversed]?.mode, .car)
        XCTAssertEqual(plan.segmentIndex(of: reversed), 2)
        XCTAssertTrue(plan.isLocked(segment: 2))
    }

    // MARK: pace and time

    func testAPaceChangeEmptiesWalkAndTransitLegsButNotCarLegs() throws {
        let plan = try transitPlan().settingPace(.fast)
        XCTAssertEqual(plan.pace, .fast)
        XCTAssertEqual(emptied(plan), [0, 1, 2], "transit legs walk to, between and from their stops")
        let car = try transitPlan().changingMode(ofSegment: 2, to: .car).computedLegStub(2).settingPace(.slow)
        XCTAssertEqual(emptied(car), [0, 1])
    }

    func testSettingTheSamePaceChangesNothing() throws {
        let plan = try transitPlan()
        XCTAssertEqual(plan.settingPace(.normal), plan)
    }

    func testPaceCyclesNormalFastSlowNormalWithTheirMultipliers() throws {
        var plan = try transitPlan()
        var seen: [WalkingPace] = []
        for _ in 0..<3 {
            plan = plan.cyclingPace()
            seen.append(plan.pace)
        }
        XCTAssertEqual(seen, [.fast, .slow, .normal])
        XCTAssertEqual(WalkingPace.allCases.map(\.durationMultiplier), [1.25, 1.0, 0.8])
    }

    func testChangingTheTimePreferenceEmptiesEveryLeg() throws {
        let plan = try transitPlan().settingTimePreference(.departAt(Fixture.at(60)))
        XCTAssertEqual(plan.timePreference, .departAt(Fixture.at(60)))
        XCTAssertEqual(emptied(plan), [0, 1, 2])
    }

    func testResolvingTheCurrentLocationEmptiesItsSegmentsAndKeepsTheirLocks() throws {
        let here = PlanNode(place: Place(name: "Current location", coordinate: Fixture.home.coordinate),
                            isCurrentLocation: true)
        var plan = try RoutePlan(restoring: [here, PlanNode(place: office)], modes: [.walk], legs: [Fixture.walk(50)],
                                 timePreference: .leaveNow, pace: .normal, locks: [:], pinned: nil, pending: [:])
        plan = try plan.changingMode(ofSegment: 0, to: .walk)
        let moved = plan.resolvingCurrentLocation(Fixture.stopA.coordinate)
        XCTAssertEqual(moved.nodes[0].place.coordinate, Fixture.stopA.coordinate)
        XCTAssertTrue(moved.nodes[0].isCurrentLocation)
        XCTAssertEqual(emptied(moved), [0])
        XCTAssertTrue(moved.isLocked(segment: 0))
        XCTAssertEqual(plan.resolvingCurrentLocation(Fixture.home.coordinate), plan, "unchanged fix, no edit")
    }
}

private extension RoutePlan {
    /// This plan with a leg of its mode on segment `index` (as if computed).
    func computedLegStub(_ index: Int) throws -> RoutePlan {
        var legs = self.legs
        legs[index] = RouteLeg(mode: modes[index], expectedTravelTime: 300)
        return try RoutePlan(restoring: nodes, modes: modes, legs: legs, timePreference: timePreference, pace: pace,
                             locks: locks, pinned: pinned, pending: pending)
    }
}

/// Removing an inferred stop means "don't go via there" (issue 28 item 16).
final class AvoidedStopTests: XCTestCase {
    func testRemovingAnInferredStopMakesTheMergedSegmentsTransitQueriesAvoidIt() async throws {
        let plan = try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: Fixture.stopA, isInferred: true),
                                         PlanNode(place: Fixture.office)], modes: [.walk, .transit])
        let removed = try plan.removingNode(at: 1)
        XCTAssertEqual(removed.lock(ofSegment: 0)?.avoidedStops, [Fixture.stopA.coordinate])
        let port = FakeRoutingPort(legs: ComputeLegsTests.script)
        _ = try await Planner(routing: port, clock: FixedClock(instant: Fixture.morning)).computeLegs(removed)
        let queries = await port.queries
        XCTAssertEqual(queries.map(\.avoiding), [[Fixture.stopA.coordinate]])
    }

    func testAStopAvoidedBeforeIsStillAvoidedWhenAnotherStopOfTheSameSegmentIsRemoved() throws {
        let plan = try RoutePlan(nodes: [PlanNode(place: Fixture.home), PlanNode(place: Fixture.stopA, isInferred: true),
                                         PlanNode(place: Fixture.stopB, isInferred: true), PlanNode(place: Fixture.office)],
                                 modes: [.walk, .transit, .walk])
        let twice = try plan.removingNode(at: 1).removingNode(at: 1)
        XCTAssertEqual(twice.lock(ofSegment: 0)?.avoidedStops, [Fixture.stopA.coordinate, Fixture.stopB.coordinate])
    }
}
