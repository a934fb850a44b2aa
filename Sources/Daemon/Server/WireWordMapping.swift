import MapRendering
import Planner
import WireProtocol

// The params' words (`WireWord`) as the planner's and the renderer's types, mapped once here at the
// boundary: the words were checked when the params were decoded, so these cannot fail, and a
// word added on one side without the other does not compile.

extension TravelMode {
    init(_ mode: WireMode) {
        switch mode {
        case .walk: self = .walk
        case .transit: self = .transit
        case .car: self = .car
        case .bike: self = .bike
        }
    }
}

extension WalkingPace {
    /// The pace asked for; none means normal.
    init(_ pace: WirePace?) {
        switch pace {
        case .slow?: self = .slow
        case .normal?, nil: self = .normal
        case .fast?: self = .fast
        }
    }
}

extension PlanPreset {
    init(_ preset: WirePreset) {
        switch preset {
        case .walk: self = .walk
        case .transit: self = .transit
        case .car: self = .car
        case .bike: self = .bike
        case .fastest: self = .fastest
        }
    }

    /// `plan.new`'s `mode`: every segment by that mode; none means the fastest.
    init(_ mode: WireMode?) {
        switch mode {
        case .walk?: self = .walk
        case .transit?: self = .transit
        case .car?: self = .car
        case .bike?: self = .bike
        case nil: self = .fastest
        }
    }
}

extension AccessNeed {
    /// The step-free need asked for; none means any way.
    init(_ level: AccessLevel?) {
        switch level {
        case .any?, nil: self = .any
        case .wheelchair?: self = .wheelchair
        case .wheelchairStrict?: self = .wheelchairStrict
        }
    }
}

extension MapImageFormat {
    /// The picture asked for; none means PNG.
    init(_ format: WirePictureFormat?) {
        switch format {
        case .png?, nil: self = .png
        case .svg?: self = .svg
        }
    }
}

// And back, for the results that echo them.

extension WireMode {
    init(_ mode: TravelMode) {
        switch mode {
        case .walk: self = .walk
        case .transit: self = .transit
        case .car: self = .car
        case .bike: self = .bike
        }
    }
}

extension WirePace {
    init(_ pace: WalkingPace) {
        switch pace {
        case .slow: self = .slow
        case .normal: self = .normal
        case .fast: self = .fast
        }
    }
}

extension WirePreset {
    init(_ preset: PlanPreset) {
        switch preset {
        case .walk: self = .walk
        case .transit: self = .transit
        case .car: self = .car
        case .bike: self = .bike
        case .fastest: self = .fastest
        }
    }
}

extension WirePictureFormat {
    init(_ format: MapImageFormat) {
        switch format {
        case .png: self = .png
        case .svg: self = .svg
        }
    }
}
