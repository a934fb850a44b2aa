import Foundation
@testable import Planner

/// A routing port whose every answer is a pure function of the query: the leg, and the
/// alternatives as the first `count` answers skipping 0, 1, 2… departures (one for street modes).
/// The scripted networks of the property tests share these.
protocol ScriptedAnswers: RoutingPort {
    static func answer(_ query: LegQuery, skipping: Int) throws -> RouteLeg
}

extension ScriptedAnswers {
    func leg(for query: LegQuery) async throws -> RouteLeg {
        try Self.answer(query, skipping: 0)
    }

    func alternatives(for query: LegQuery, count: Int) async throws -> [RouteLeg] {
        guard query.mode == .transit else { return [try Self.answer(query, skipping: 0)] }
        return try (0..<max(1, count)).map { try Self.answer(query, skipping: $0) }
    }

    func search(_ text: String, near: Coordinate?) async throws -> [Place] { [] }
}
