import Foundation
import Planner
import Store

// store-crash-child: a helper process for StoreTests, not a user command.
//
//   store-crash-child write <db> <tag> [count]
//       Opens the store and keeps writing: per step one new plan, one search and one route.
//       After each commit it prints one line, so the parent knows what was acknowledged:
//         ACK plan <id> <base64 JSON of the RoutePlan>   (title is "<tag>-<step>")
//         ACK search <query>
//         ACK route <from name>
//       Stops after `count` steps (default: never; the parent SIGKILLs it).
//   store-crash-child save-places <db> <tag> <threads>
//       Opens the store and saves places from <threads> threads at once, each in a loop (so
//       their writes queue together and share commits). After each save returns it prints
//         ACK place <name>
//       Never stops by itself (the parent SIGKILLs it).
//   store-crash-child open <db>
//       Opens the store and prints "OPENED" or "ERROR <code> <description>".
//   store-crash-child blocking-in-task <db>
//       Calls a blocking store method from a task: a debug build stops with an assertion;
//       a release build prints "RETURNED".
//   With USEFULMAP_CHILD_UID set, first switches to that user and group id (so a test run as
//   root can check permissions, which root bypasses).

func say(_ line: String) {
    // One write(2) per line, unbuffered: the line is out of this process before the next write starts.
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A plan with every part filled: legs with geometry and rides, locks, a pin, pending updates.
func makePlan(step: Int, tag: String) throws -> RoutePlan {
    var random = SplitMix(state: UInt64(truncatingIfNeeded: step &* 7919 &+ tag.utf8.reduce(0) { $0 &* 31 &+ Int($1) }))
    let count = Int.random(in: 2...6, using: &random)
    let nodes = (0..<count).map { index in
        PlanNode(place: Place(name: "\(tag) stop \(step).\(index)",
                              coordinate: Coordinate(latitude: 61.45 + Double.random(in: 0..<0.1, using: &random),
                                                     longitude: 23.7 + Double.random(in: 0..<0.1, using: &random)),
                              kind: PlaceKind.allCases.randomElement(using: &random)),
                 isInferred: Bool.random(using: &random), isCurrentLocation: index == 0 && Bool.random(using: &random))
    }
    let modes = (1..<count).map { _ in TravelMode.allCases.randomElement(using: &random) ?? .walk }
    let start = Date(timeIntervalSinceReferenceDate: 663_000_000 + Double(step) * 60)
    let legs: [RouteLeg?] = modes.map { mode in
        guard Bool.random(using: &random) || mode == .walk else { return nil }
        let geometry = (0..<Int.random(in: 0...40, using: &random)).map { _ in
            Coordinate(latitude: 61.4 + Double.random(in: 0..<0.2, using: &random),
                       longitude: 23.6 + Double.random(in: 0..<0.3, using: &random))
        }
        let rides = mode != .transit ? [] : [TransitRide(
            lineName: "\(Int.random(in: 1...90, using: &random))", vehicle: "bus", headsign: "Hervanta", tripID: "trip-\(step)",
            boarding: TransitStopCall(stopID: "0001", name: "Keskustori", coordinate: Coordinate(latitude: 61.498, longitude: 23.76),
                                      time: start),
            alighting: TransitStopCall(name: "Hervanta", coordinate: Coordinate(latitude: 61.45, longitude: 23.85),
                                       time: start.addingTimeInterval(900)))]
        return RouteLeg(mode: mode, expectedTravelTime: Double.random(in: 60...3600, using: &random),
                        distance: Bool.random(using: &random) ? Double.random(in: 10...20_000, using: &random) : nil,
                        departure: start, arrival: start.addingTimeInterval(600), geometry: geometry, rides: rides)
    }
    let first = SegmentKey(fromID: nodes[0].place.id, toID: nodes[1].place.id)
    let lock = SegmentLock(mode: modes[0], departure: start, duration: 300)
    let pinned = legs[0].map { PinnedDeparture(segment: first, departure: start, duration: $0.expectedTravelTime, tripIDs: $0.tripIDs) }
    let pending = legs[0].map { [first: PendingSegmentUpdate(segment: first, selected: $0, proposal: .ride($0))] } ?? [:]
    return try RoutePlan(restoring: nodes, modes: modes, legs: legs,
                         timePreference: Bool.random(using: &random) ? .leaveNow : .departAt(start),
                         pace: WalkingPace.allCases.randomElement(using: &random) ?? .normal,
                         locks: [first: lock], pinned: pinned, pending: pending)
}

func run() -> Int32 {
    if let uid = ProcessInfo.processInfo.environment["USEFULMAP_CHILD_UID"].flatMap(UInt32.init) {
        guard setgid(uid) == 0, setuid(uid) == 0 else {
            say("ERROR setuid cannot switch to uid \(uid)")
            return 3
        }
    }
    let arguments = Array(CommandLine.arguments.dropFirst())
    switch arguments.first {
    case "open" where arguments.count == 2:
        do {
            _ = try Store(path: arguments[1])
            say("OPENED")
        } catch let error as StoreError {
            say("ERROR \(error.code) \(error.description)")
        } catch {
            say("ERROR other \(error)")
        }
        return 0
    case "write" where arguments.count >= 3:
        let tag = arguments[2]
        let limit = arguments.count > 3 ? Int(arguments[3]) : nil
        do {
            let store = try Store(path: arguments[1])
            let encoder = JSONEncoder()
            var step = 0
            while limit.map({ step < $0 }) ?? true {
                let plan = try makePlan(step: step, tag: tag)
                let id = try store.write(Plans.create(plan, title: "\(tag)-\(step)"))
                say("ACK plan \(id) \(try encoder.encode(plan).base64EncodedString())")
                try store.write(History.recordSearch(SearchHistoryEntry(query: "\(tag)-\(step)", date: Date())))
                say("ACK search \(tag)-\(step)")
                try store.write(History.recordRoute(RouteHistoryEntry(from: plan.nodes[0].place, to: plan.nodes[plan.nodes.count - 1].place,
                                                        modes: plan.modes, date: Date())))
                say("ACK route \(plan.nodes[0].place.name)")
                step += 1
            }
            return 0
        } catch {
            say("ERROR \(error)")
            return 1
        }
    case "save-places" where arguments.count == 4:
        guard let threads = Int(arguments[3]), threads > 0 else { return 2 }
        do {
            let store = try Store(path: arguments[1])
            let tag = arguments[2]
            for thread in 0..<threads {
                Thread.detachNewThread {
                    for step in 0... {
                        let name = "\(tag)-\(thread)-\(step)"
                        let place = Place(name: name, coordinate: Coordinate(latitude: 61 + Double(thread) / 100 + Double(step) / 1e6,
                                                                              longitude: 23.7))
                        do {
                            try store.write(Places.save(SavedPlace(name: name, place: place)))
                        } catch {
                            say("ERROR \(error)")
                            exit(1)
                        }
                        say("ACK place \(name)")
                    }
                }
            }
            while true { sleep(60) }
        } catch {
            say("ERROR \(error)")
            return 1
        }
    case "blocking-in-task" where arguments.count == 2:
        // A blocking store call made from a task would hold a thread of the cooperative pool
        // while SQLite works: a debug build stops here, before "RETURNED".
        do {
            let store = try Store(path: arguments[1])
            let blocking: @Sendable () throws -> [SavedPlace] = { try store.read(Places.all()) }
            let done = DispatchSemaphore(value: 0)
            Task.detached {
                _ = try? blocking()
                done.signal()
            }
            done.wait()
            say("RETURNED")
            return 0
        } catch {
            say("ERROR \(error)")
            return 1
        }
    default:
        FileHandle.standardError.write(Data("usage: store-crash-child write <db> <tag> [count] | save-places <db> <tag> <threads> | open <db> | blocking-in-task <db>\n".utf8))
        return 2
    }
}

exit(run())
