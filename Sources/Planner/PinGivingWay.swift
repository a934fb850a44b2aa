import Foundation

/// When a pinned departure cannot be made, which constraint gives way and which hold. The
/// planner keeps the start time, the stays and the earlier pins (later ones in an arrive-by
/// plan) and lets this pin go (marked missed, a catchable one proposed). Judged here, with the
/// plan, so that every client says the same (trial 50: umctl worked it out itself and the web
/// page said nothing).
public struct PinGivingWay: Hashable, Sendable {
    /// One constraint of the plan; segments and nodes from 0.
    public enum Constraint: Hashable, Sendable {
        case start(Date)
        case leavingNow
        case arrivingBy(Date)
        case pin(segment: Int)
        case stayUntil(node: Int, until: Date)
        case stay(node: Int, seconds: TimeInterval)
    }

    /// What gives: the pin on a segment, or (a stay ending too late for an arrive-by plan) the arrival.
    public var gives: Constraint
    /// What holds, in the order a sentence names them.
    public var held: [Constraint]
}

extension RoutePlan {
    /// What gives way for the missed segment `missed` (from 0; `missedSegments` all the plan's
    /// missed ones, `brokenConnections`), nil when nothing was chosen to give. The pin that
    /// gives is the missed segment itself going forward (the last pin at or before it in an
    /// arrive-by plan).
    public func pinGivingWay(missedSegment missed: Int, missedSegments: Set<Int>) -> PinGivingWay? {
        let pins = pinnedSegmentIndices
        let arrivingBy: Date? = if case .arriveBy(let date) = timePreference { date } else { nil }
        // A walk or drive late in an arrive-by plan because the stay it leaves ends too late:
        // the stay holds, the arrival gives (the planner never shortens a stay).
        if let arrivingBy, !pins.contains(missed), legs.indices.contains(missed), legs[missed]?.rides.isEmpty == true,
           let until = nodes[missed].stay?.untilDate {
            return PinGivingWay(gives: .arrivingBy(arrivingBy), held: [.stayUntil(node: missed, until: until)])
        }
        guard let segment = arrivingBy != nil ? pins.last(where: { $0 <= missed }) : pins.first(where: { $0 >= missed }) else {
            return nil
        }
        // Going forward, the pin gives way when it is the connection missed: a ride before it
        // shown missed does not say the pin went (trial 48 F8).
        guard arrivingBy != nil || segment == missed else { return nil }
        // A pin that gave way itself (shown missed) held nothing.
        let heldPins = pins.filter { (arrivingBy != nil ? $0 > segment : $0 < segment) && !missedSegments.contains($0) }
        // Going forward, the last pin held before it is where the traveller is timed from: the
        // start before that pin no longer bears on this one (trial 50).
        let lastHeldPin = arrivingBy != nil ? nil : heldPins.last
        var held: [PinGivingWay.Constraint] = []
        if let lastHeldPin {
            held.append(.pin(segment: lastHeldPin))
        } else {
            switch timePreference {
            case .arriveBy(let date): held.append(.arrivingBy(date))
            case .departAt(let date): held.append(.start(date))
            case .leaveNow: held.append(.leavingNow)
            }
        }
        // The stays on the side the plan is timed from: before the segment going forward
        // (after the last pin held), after it going backward.
        let stayNodes = arrivingBy != nil ? Array(nodes.indices.dropFirst(segment + 1))
            : Array(nodes.indices.prefix(segment + 1).dropFirst(lastHeldPin.map { $0 + 1 } ?? 0))
        for index in stayNodes {
            if let until = nodes[index].stay?.untilDate {
                held.append(.stayUntil(node: index, until: until))
            } else if let seconds = nodes[index].stay?.seconds {
                held.append(.stay(node: index, seconds: seconds))
            }
        }
        if arrivingBy != nil { held += heldPins.map { .pin(segment: $0) } }
        return PinGivingWay(gives: .pin(segment: segment), held: held)
    }
}
