import Foundation
import Planner
import Synchronization

/// Walk legs asked on one region version, by their two points, pace and access. A transit
/// answer's walks at its ends are timed on the streets (`StreetTimedTransit`), and the plan then
/// walks the same way to the stop it adopted; a comparison's walk is the walk its transit answer
/// is judged against: one street walk serves them all (a walk leg has no times of its own, so
/// one answer serves every query between the same points). A walk asked while the same one is
/// on its way waits for it rather than asking again. Bounded: the oldest go first once
/// `capacity` are kept; failures are not kept (the waiting ask again).
final class StreetWalkCache: Sendable {
    struct Key: Hashable {
        var from: Coordinate
        var to: Coordinate
        var pace: WalkingPace
        var access: AccessNeed
    }

    /// About 5 KB a walk of a few hundred metres (its line): a few MB at most.
    static let capacity = 512

    private struct Kept {
        var legs: [Key: RouteLeg] = [:]
        var order: [Key] = []
        var next = 0
        /// The walks on their way, with those waiting for each (nil: its asker found none).
        var asking: [Key: [CheckedContinuation<RouteLeg?, Never>]] = [:]

        mutating func keep(_ leg: RouteLeg, for key: Key) {
            guard legs.updateValue(leg, forKey: key) == nil else { return }
            if order.count < StreetWalkCache.capacity {
                order.append(key)
            } else {
                legs[order[next]] = nil
                order[next] = key
                next = (next + 1) % StreetWalkCache.capacity
            }
        }
    }

    private enum Turn {
        case kept(RouteLeg)
        case wait
        case ask
    }

    private let kept = Mutex(Kept())

    /// The kept walk for `query` (a walk), else the one on its way, else `ask`'s, kept.
    func leg(for query: LegQuery, ask: () async throws -> RouteLeg) async throws -> RouteLeg {
        let key = Key(from: query.from.coordinate, to: query.to.coordinate, pace: query.pace, access: query.access)
        let turn = kept.withLock { kept -> Turn in
            if let leg = kept.legs[key] { return .kept(leg) }
            if kept.asking[key] != nil { return .wait }
            kept.asking[key] = []
            return .ask
        }
        switch turn {
        case .kept(let leg):
            return leg
        case .wait:
            let asked: RouteLeg? = await withCheckedContinuation { waiting in
                let queued = kept.withLock { kept -> Bool in
                    guard kept.asking[key] != nil else { return false }
                    kept.asking[key]?.append(waiting)
                    return true
                }
                if !queued { waiting.resume(returning: nil) }  // done meanwhile: look again
            }
            if let asked { return asked }
            try Task.checkCancellation()
            return try await leg(for: query, ask: ask)
        case .ask:
            do {
                let leg = try await ask()
                let waiting = kept.withLock { kept in
                    kept.keep(leg, for: key)
                    return kept.asking.removeValue(forKey: key) ?? []
                }
                for one in waiting { one.resume(returning: leg) }
                return leg
            } catch {
                let waiting = kept.withLock { $0.asking.removeValue(forKey: key) ?? [] }
                for one in waiting { one.resume(returning: nil) }
                throw error
            }
        }
    }
}
