import Foundation
import Planner
import WireProtocol

/// Every `plan.*` edit, and `plan.edits` (a list of them, all or none): each one call of the
/// plan service (`PlanService.edit` / `PlanService.apply`), answered with the updated plan.
struct PlanEditMethods: Sendable {
    let service: PlanService

    func register(in table: inout MethodTable) {
        table.register(Endpoints.planInsert) { params, _ in try await edit(.insert(params), params.expectedGeneration) }
        table.register(Endpoints.planRemove) { params, _ in try await edit(.remove(params), params.expectedGeneration) }
        table.register(Endpoints.planMode) { params, _ in try await edit(.mode(params), params.expectedGeneration) }
        table.register(Endpoints.planSwap) { params, _ in try await edit(.swap(params), params.expectedGeneration) }
        table.register(Endpoints.planPreset) { params, _ in try await edit(.preset(params), params.expectedGeneration) }
        table.register(Endpoints.planRebuild) { params, _ in try await edit(.rebuild(params), params.expectedGeneration) }
        table.register(Endpoints.planPin) { params, _ in try await edit(.pin(params), params.expectedGeneration) }
        table.register(Endpoints.planUnpin) { params, _ in try await edit(.unpin(params), params.expectedGeneration) }
        table.register(Endpoints.planPace) { params, _ in try await edit(.pace(params), params.expectedGeneration) }
        table.register(Endpoints.planAccess) { params, _ in try await edit(.access(params), params.expectedGeneration) }
        table.register(Endpoints.planTime) { params, _ in try await edit(.time(params), params.expectedGeneration) }
        table.register(Endpoints.planRefine) { params, _ in try await edit(.refine(params), params.expectedGeneration) }
        table.register(Endpoints.planAccept) { params, _ in try await edit(.accept(params), params.expectedGeneration) }
        table.register(Endpoints.planDismiss) { params, _ in try await edit(.dismiss(params), params.expectedGeneration) }
        table.register(Endpoints.planRefresh) { params, _ in try await edit(.refresh(params), params.expectedGeneration) }
        table.register(Endpoints.planEdits) { params, _ in
            do {
                return document(try await service.apply(params.edits, to: params.id, dryRun: params.dryRun == true,
                                                        expectedGeneration: params.expectedGeneration))
            } catch let failure as PlanEditFailure {
                throw Self.wireError(failure)
            }
        }
    }

    /// One edit through the service, answered as a plan document (also `DayPlanMethods`' edits).
    func edit(_ edit: PlanEdit, _ expectedGeneration: Int64?) async throws -> PlanDocument {
        document(try await service.edit(edit, expectedGeneration: expectedGeneration))
    }

    /// The edit's own error (its word kept), named by its number and method.
    static func wireError(_ failure: PlanEditFailure) -> WireError {
        var wire = RequestDispatcher.wireError(from: failure.error)
        wire.message = "edit \(failure.number) (\(failure.name)): \(wire.message); nothing was changed"
        var fields: [String: JSONValue] = [:]
        if case .object(let detail)? = wire.data { fields = detail }
        fields["edit"] = .number(Double(failure.number))
        fields["method"] = .string(failure.name)
        wire.data = .object(fields)
        return wire
    }

    func document(_ outcome: PlanRepository.Outcome) -> PlanDocument {
        WireDocuments.plan(outcome, regions: service.regions, now: service.input.clock.now())
    }
}
