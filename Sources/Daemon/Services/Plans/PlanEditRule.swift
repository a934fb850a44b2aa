import Foundation
import Planner

/// One edit of a plan, as the plan service runs it: which plan it names and the rule that turns
/// the plan into the change. The service takes edits as this, never as wire params: each edit
/// method's params carry their rule (`Methods/PlanEditRules`, a file each), and the background
/// refresh has its own (`PlanRefreshEdit`).
protocol PlanEditRule: Sendable {
    /// The edit's method (`plan.mode`), naming it in errors.
    var name: String { get }
    /// The plan the edit names.
    var planID: Int64 { get }
    /// The generation the edit expects, if it says.
    var expectedGeneration: Int64? { get }
    /// Validates the edit and resolves what it names (places, a pinned departure, a chosen option).
    /// - parameter current: the plan as it was when the edit came in: a hint for searches near its
    ///   nodes, and the plan a pinned departure or a chosen option was asked for (that change is
    ///   refused, "try again", if the plan is another one by then).
    func prepare(on current: RoutePlan, with service: PlanService) async throws -> PlanService.Prepared
}

extension PlanEditRule {
    /// What `prepare` gives back.
    typealias Prepared = PlanService.Prepared
}

extension PlanService {
    /// What an edit does to a plan: a change whose emptied legs are then computed, or a
    /// computation of its own (presets, rebuild, refine); and the places typed as text in it.
    struct Prepared: Sendable {
        enum Step: Sendable {
            case change(@Sendable (RoutePlan) throws -> RoutePlan)
            case compute(@Sendable (RoutePlan) async throws -> LegComputation)
        }
        var step: Step
        var typed: [TypedPlaceHistory.Typed] = []
        /// The plan's new title (`plan.rename`).
        var title: String?
        /// The places typed as text and how each matched, for the answer.
        var matched: [ResolvedPlace] = []
        /// Why the segments an insert or a move made have their modes, for the answer, read from
        /// the plan as the edit left it.
        var modeNotes: @Sendable (RoutePlan) -> [String] = { _ in [] }
        /// How a `.change` is computed when not as every edit (`PlanService.legs`): an edit that
        /// may leave the car behind (`PlanService.legsLeavingTheCarBehind`).
        var compute: (@Sendable (RoutePlan) async throws -> LegComputation)?
    }
}

extension PlanService {
    /// The computation of an edit of places or modes, which may leave the car behind (insert but
    /// by car, remove, move, mode but to car, choose, unlock, unpin, swap): its legs (`legs`), then
    /// the planner's drives the car is not at hand for walked or ridden
    /// (`Planner.judgingDrivesWithoutTheCar`; nothing more is asked when there are none). Not for
    /// an insert by car: its drives are the user's, though not locked.
    @Sendable func legsLeavingTheCarBehind(_ plan: RoutePlan) async throws -> LegComputation {
        try await planner.judgingDrivesWithoutTheCar(in: try await legs(plan), currentLocation: location.current?.coordinate)
    }
}
