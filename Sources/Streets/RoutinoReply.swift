import Foundation
import Planner

/// One answer line of `usefulmap-routino-worker` (the format is documented in the worker's
/// main.swift and docs/streets.md), parsed. Nothing else in the module reads the format.
enum RoutinoReply: Equatable {
    case route(distance: Double, duration: Double, points: [Coordinate])
    case noRoadNearby(endpoint: String)
    case noRoute
    /// The region's routing database lacks what the profile needs (it must be re-imported).
    case noProfileData(String)
    case badRequest(String)
    case engine(String)

    init(line: String) {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        switch (fields.first, fields.dropFirst().first) {
        case ("ok", _):
            guard fields.count >= 4, let distance = Double(fields[1]), let duration = Double(fields[2]) else {
                self = .engine("malformed answer: \(line.prefix(80))")
                return
            }
            var points: [Coordinate] = []
            for field in fields[3...] {
                let parts = field.split(separator: ",")
                guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) else {
                    self = .engine("malformed point \(field) in answer")
                    return
                }
                points.append(Coordinate(latitude: lat, longitude: lon))
            }
            self = .route(distance: distance, duration: duration, points: points)
        case ("error", "no_road_nearby"): self = .noRoadNearby(endpoint: fields.count > 2 ? String(fields[2]) : "from")
        case ("error", "no_route"): self = .noRoute
        case ("error", "no_profile_data"): self = .noProfileData(fields.count > 2 ? String(fields[2]) : "")
        case ("error", "bad_request"): self = .badRequest(fields.dropFirst(2).joined(separator: " "))
        case ("error", "engine"): self = .engine("Routino error \(fields.dropFirst(2).joined(separator: " "))")
        default: self = .engine("unexpected answer: \(line.prefix(80))")
        }
    }
}
