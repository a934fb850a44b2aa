import Foundation
import Planner
import Synchronization

/// Walk legs asked before on one region version, by their two points, pace and access. A
/// transit answer's walks at its ends are timed on the streets (`StreetTimedTransit`), and the
/// plan then walks the same way to the stop it adopted: one street walk serves both (a walk leg
/// has no times of its own, so one answer serves every query between the same points). Bounded:
/// the oldest go first once `capacity` are kept; failures are not kept (asked again).
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
    }

    private let kept = Mutex(Kept())

    /// The kept walk for `query` (a walk), else `ask`'s, kept.
    func leg(for query: LegQuery, ask: () async throws -> RouteLeg) async throws -> RouteLeg {
        let key = Key(from: query.from.coordinate, to: query.to.coordinate, pace: query.pace, access: query.access)
        if let leg = kept.withLock({ $0.legs[key] }) { return leg }
        let leg = try await ask()
        kept.withLock { kept in
            guard kept.legs.updateValue(leg, forKey: key) == nil else { return }
            if kept.order.count < Self.capacity {
                kept.order.append(key)
            } else {
                kept.legs[kept.order[kept.next]] = nil
                kept.order[kept.next] = key
                kept.next = (kept.next + 1) % Self.capacity
            }
        }
        return leg
    }
}
