import Foundation
import Store
import WireProtocol

/// `plan.remind`: a plan's reminder to leave on or off, with its own lead (`ReminderService`
/// sends it).
struct ReminderMethods: Sendable {
    let store: Store
    /// The daemon's lead (`--remind-lead`) and whether it notifies at all (`--notify`).
    let defaultLead: TimeInterval
    let notify: Bool

    func register(in table: inout MethodTable) {
        table.register(Endpoints.planRemind) { params, _ in
            if params.leadS != nil, !params.on {
                throw DaemonError.invalidParams("lead_s goes with on: true (a reminder that is off has no lead)")
            }
            do {
                // Turning it on without a lead keeps the plan's own lead, if it had one.
                let ownLead = try await store.reminder(ofPlan: params.id)?.lead
                let lead = params.on ? (params.leadS ?? ownLead) : nil
                try await store.setReminder(ofPlan: params.id, PlanReminder(enabled: params.on, lead: lead))
                return PlanReminderDocument(id: params.id, on: params.on, leadS: lead ?? defaultLead,
                                            leadFrom: lead == nil ? "daemon" : "plan", notify: notify)
            } catch StoreError.notFound {
                throw DaemonError.notFound("plan \(params.id) does not exist")
            } catch StoreError.invalidInput(let reason) {
                throw DaemonError.invalidParams(reason)
            }
        }
    }
}
