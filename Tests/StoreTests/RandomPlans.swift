import Foundation
import Planner
import TestSupport
import XCTest


/// Random but seeded plans with every part exercised: unicode names, optional fields both
/// set and nil, extreme numbers, legs with geometry and rides, locks, pins, pending updates.
enum RandomPlans {
    static func text(_ random: inout SeededRandom) -> String {
        let pieces = ["Hämeenkatu", "Keskustori", "Tampere-talo", "Ratina", "\"quoted\"", "O'Brien", "🚋", "a\nb",
                      "Пушкин", "東京", " ", "x", "Nekala 5 B 12", "\\back", "%_like"]
        return (0..<Int.random(in: 1...3, using: &random)).map { _ in pieces.randomElement(using: &random) ?? "" }
            .joined(separator: " ")
    }

    static func number(_ random: inout SeededRandom) -> Double {
        switch Int.random(in: 0..<12, using: &random) {
        case 0: return 0
        case 1: return .infinity
        case 2: return -Double.greatestFiniteMagnitude
        case 3: return .leastNonzeroMagnitude
        case 4: return Double(Int.random(in: -1_000_000...1_000_000, using: &random))
        default: return Double.random(in: -1e6...1e6, using: &random)
        }
    }

    static func date(_ random: inout SeededRandom) -> Date {
        Date(timeIntervalSinceReferenceDate: Double.random(in: -1e9...2e9, using: &random))
    }

    static func coordinate(_ random: inout SeededRandom) -> Coordinate {
        Coordinate(latitude: Double.random(in: -90...90, using: &random), longitude: Double.random(in: -180...180, using: &random))
    }

    static func place(_ random: inout SeededRandom, index: Int) -> Place {
        Place(name: "\(text(&random)) \(index)", coordinate: coordinate(&random),
              kind: Bool.random(using: &random) ? PlaceKind.allCases.randomElement(using: &random) : nil)
    }

    static func maybe<T>(_ random: inout SeededRandom, _ make: (inout SeededRandom) -> T) -> T? {
        Bool.random(using: &random) ? make(&random) : nil
    }

    static func stopCall(_ random: inout SeededRandom) -> TransitStopCall {
        TransitStopCall(stopID: maybe(&random) { "\(Int.random(in: 0...9999, using: &$0))" }, name: text(&random),
                        coordinate: coordinate(&random), time: date(&random))
    }

    static func leg(_ random: inout SeededRandom, geometryPoints: ClosedRange<Int> = 0...60) -> RouteLeg {
        let mode = TravelMode.allCases.randomElement(using: &random) ?? .walk
        let rides = (0..<Int.random(in: 0...3, using: &random)).map { _ in
            TransitRide(lineName: text(&random), vehicle: ["bus", "tram", "rail"].randomElement(using: &random) ?? "bus",
                        headsign: maybe(&random) { text(&$0) }, tripID: maybe(&random) { "trip \(text(&$0))" },
                        headwaySeconds: maybe(&random) { Int.random(in: 1...86_400, using: &$0) },
                        boarding: stopCall(&random), alighting: stopCall(&random))
        }
        let walks = (0..<Int.random(in: 0...4, using: &random)).map { _ in
            TransitWalkStep(kind: TransitWalkStep.Kind.allCases.randomElement(using: &random) ?? .access,
                            fromName: text(&random), from: coordinate(&random), toName: text(&random), to: coordinate(&random),
                            start: date(&random), duration: number(&random), distance: number(&random))
        }
        return RouteLeg(mode: mode, expectedTravelTime: number(&random), distance: maybe(&random) { number(&$0) },
                        departure: maybe(&random) { date(&$0) }, arrival: maybe(&random) { date(&$0) },
                        geometry: (0..<Int.random(in: geometryPoints, using: &random)).map { _ in coordinate(&random) },
                        rides: rides, walks: walks, walkingIsNoSlower: Bool.random(using: &random))
    }

    /// No stay, a duration (0 included) or a time to stay until.
    static func stay(_ random: inout SeededRandom) -> NodeStay? {
        switch Int.random(in: 0..<3, using: &random) {
        case 0: nil
        case 1: .duration(Double(Int.random(in: 0...7_200, using: &random)) + 0.25)
        default: .until(date(&random))
        }
    }

    static func plan(_ random: inout SeededRandom, nodeCount: ClosedRange<Int> = 2...12) -> RoutePlan {
        let count = Int.random(in: nodeCount, using: &random)
        let nodes = (0..<count).map {
            PlanNode(place: place(&random, index: $0), isInferred: Bool.random(using: &random),
                     isCurrentLocation: Bool.random(using: &random), stay: stay(&random))
        }
        let modes = (1..<count).map { _ in TravelMode.allCases.randomElement(using: &random) ?? .car }
        let legs: [RouteLeg?] = modes.map { _ in maybe(&random) { leg(&$0) } }
        let keys = (0..<count - 1).map { SegmentKey(fromID: nodes[$0].place.id, toID: nodes[$0 + 1].place.id) }
        var locks: [SegmentKey: SegmentLock] = [:]
        var pending: [SegmentKey: PendingSegmentUpdate] = [:]
        for key in keys {
            if Bool.random(using: &random) {
                locks[key] = SegmentLock(mode: TravelMode.allCases.randomElement(using: &random) ?? .walk,
                                         departure: maybe(&random) { date(&$0) }, duration: maybe(&random) { number(&$0) },
                                         chosenLines: (0..<Int.random(in: 0...2, using: &random)).map { "\($0) \(text(&random))" })
            }
            if Int.random(in: 0..<4, using: &random) == 0 {
                // Either answer a pending update can hold: a ride, or that none can be caught.
                let proposal: PendingSegmentUpdate.Proposal = Bool.random(using: &random)
                    ? .ride(leg(&random)) : .nothingCatchable(NoCatchableRide(arrivingBy: Bool.random(using: &random), time: date(&random)))
                pending[key] = PendingSegmentUpdate(segment: key, selected: leg(&random), proposal: proposal)
            }
        }
        let pinned = maybe(&random) { random in
            PinnedDeparture(segment: keys.randomElement(using: &random) ?? keys[0], departure: date(&random),
                            duration: number(&random),
                            tripIDs: (0..<Int.random(in: 0...3, using: &random)).map { "t\($0) \(text(&random))" },
                            leg: maybe(&random) { leg(&$0) })
        }
        let preference: TimePreference = switch Int.random(in: 0..<3, using: &random) {
        case 0: .leaveNow
        case 1: .departAt(date(&random))
        default: .arriveBy(date(&random))
        }
        do {
            return try RoutePlan(restoring: nodes, modes: modes, legs: legs, timePreference: preference,
                                 pace: WalkingPace.allCases.randomElement(using: &random) ?? .normal,
                                 locks: locks, pinned: pinned, pending: pending)
        } catch {
            preconditionFailure("the generator built an invalid plan: \(error)")
        }
    }

    /// Compares two plans part by part, so a failure names the part that differs.
    static func assertEqual(_ loaded: RoutePlan, _ saved: RoutePlan, _ context: String,
                            file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(loaded.nodes, saved.nodes, "nodes, \(context)", file: file, line: line)
        XCTAssertEqual(loaded.modes, saved.modes, "modes, \(context)", file: file, line: line)
        XCTAssertEqual(loaded.legs.count, saved.legs.count, "leg count, \(context)", file: file, line: line)
        for (index, (a, b)) in zip(loaded.legs, saved.legs).enumerated() {
            XCTAssertEqual(a?.mode, b?.mode, "leg \(index) mode, \(context)", file: file, line: line)
            XCTAssertEqual(a?.expectedTravelTime, b?.expectedTravelTime, "leg \(index) time, \(context)", file: file, line: line)
            XCTAssertEqual(a?.distance, b?.distance, "leg \(index) distance, \(context)", file: file, line: line)
            XCTAssertEqual(a?.departure, b?.departure, "leg \(index) departure, \(context)", file: file, line: line)
            XCTAssertEqual(a?.arrival, b?.arrival, "leg \(index) arrival, \(context)", file: file, line: line)
            XCTAssertEqual(a?.geometry, b?.geometry, "leg \(index) geometry, \(context)", file: file, line: line)
            XCTAssertEqual(a?.rides, b?.rides, "leg \(index) rides, \(context)", file: file, line: line)
            XCTAssertEqual(a?.walks, b?.walks, "leg \(index) walks, \(context)", file: file, line: line)
            XCTAssertEqual(a?.walkingIsNoSlower, b?.walkingIsNoSlower, "leg \(index) walking note, \(context)",
                           file: file, line: line)
        }
        XCTAssertEqual(loaded.timePreference, saved.timePreference, "time preference, \(context)", file: file, line: line)
        XCTAssertEqual(loaded.pace, saved.pace, "pace, \(context)", file: file, line: line)
        XCTAssertEqual(loaded.locks, saved.locks, "locks, \(context)", file: file, line: line)
        XCTAssertEqual(loaded.pinned, saved.pinned, "pinned, \(context)", file: file, line: line)
        XCTAssertEqual(loaded.pending, saved.pending, "pending, \(context)", file: file, line: line)
        XCTAssertEqual(loaded, saved, "whole plan, \(context)", file: file, line: line)
    }
}

/// A clock the test moves by hand.
final class TestClock: WallClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    init(_ start: Date = Date(timeIntervalSinceReferenceDate: 700_000_000)) { current = start }
    func now() -> Date { lock.withLock { current } }
    func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}
