import Planner

/// The worker's Routino profile for a street leg (`RoutinoProfiles`): the mode's, except a
/// step-free walk, which goes on the wheelchair profile (no steps; docs/streets.md).
enum StreetProfile: String, Sendable {
    case walk, wheelchair, bike, car

    init(mode: TravelMode, access: AccessNeed) {
        switch mode {
        case .walk, .transit: self = access.isStepFree ? .wheelchair : .walk
        case .bike: self = .bike
        case .car: self = .car
        }
    }

    /// The vehicle in error messages: "no way open to a bicycle".
    var vehicle: String {
        switch self {
        case .walk: "pedestrian"
        case .wheelchair: "wheelchair"
        case .bike: "bicycle"
        case .car: "car"
        }
    }

    /// The activity in error messages: "no cycling route connects …".
    var activity: String {
        switch self {
        case .walk: "walking"
        case .wheelchair: "step-free (wheelchair)"
        case .bike: "cycling"
        case .car: "driving"
        }
    }

    /// What a leg on this profile says about steps: a walk for walkers may take them (unknown),
    /// the wheelchair profile never does; car and bike legs say nothing.
    var accessibility: LegAccessibility? {
        switch self {
        case .walk: .unknown
        case .wheelchair: .stepFree
        case .bike, .car: nil
        }
    }
}
