import Foundation
import Planner
import WireProtocol

/// Every plan edit as its own method, and `plan.edits` (a list of them, all or none): each one
/// call of the plan service (`PlanService.edit` / `PlanService.apply`) with the edit's rule
/// (`Methods/PlanEditRules`), answered with the updated plan.
struct PlanEditMethods: Sendable {
    let service: PlanService

    func register(in table: inout MethodTable) {
        // Every kind of edit (`PlanEdit.kinds`, the one list), each params type its own rule. A
        // kind without a rule has no method: `MethodTableTests` names the method left unanswered.
        for kind in PlanEdit.kinds {
            guard let ruled = kind as? any (PlanEditParams & PlanEditRule).Type else { continue }
            register(ruled, in: &table)
        }
        table.register(Endpoints.planEdits) { params, _ in
            do {
                return document(try await service.apply(try Self.rules(params.edits), to: params.id, dryRun: params.dryRun == true,
                                                        expectedGeneration: params.expectedGeneration))
            } catch let failure as PlanEditFailure {
                throw Self.wireError(failure)
            }
        }
    }

    /// The edit's own method: its params, run through their rule.
    private func register<Kind: PlanEditParams & PlanEditRule>(_ kind: Kind.Type, in table: inout MethodTable) {
        table.register(kind.endpoint) { params, _ in
            document(try await service.edit(params, expectedGeneration: params.expectedGeneration))
        }
    }

    /// The rules of `plan.edits`' edits (every kind registered has one).
    static func rules(_ edits: [PlanEdit]) throws -> [any PlanEditRule] {
        try edits.map { edit in
            guard let rule = edit.params as? any PlanEditRule else { throw DaemonError.invalidParams("\(edit.method.rawValue) is not a plan edit") }
            return rule
        }
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
