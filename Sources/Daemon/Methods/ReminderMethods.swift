import Foundation
import Store
import WireProtocol

/// `plan.remind`: a plan's reminder to leave on or off, with its own lead (`ReminderService`
/// sends it).
struct ReminderMethods: Sendable {
    let store: Store
    /// Checks `expected_generation`, and that the plan exists.
    let plans: PlanRepository
    /// The daemon's lead (`--remind-lead`) and whether it notifies at all (`--notify`).
    let defaultLead: TimeInterval
    let notify: Bool

    func register(in table: inout MethodTable) {
        table.register(Endpoints.planRemind) { params, _ in
            if params.leadS != nil, params.on != true {
                throw DaemonError.invalidParams("lead_s goes with on: true (a reminder that is off has no lead)")
            }
            do {
                try await plans.require(id: params.id, expectedGeneration: params.expectedGeneration)
                let own = try await store.read(Reminders.reminder(ofPlan: params.id))
                guard let on = params.on else {
                    // Only the setting: a plan without its own choice is reminded at the daemon's lead.
                    _ = try await plans.show(id: params.id)
                    let setting = own ?? PlanReminder(enabled: true, lead: nil)
                    return PlanReminderDocument(id: params.id, on: setting.enabled, leadS: setting.lead ?? defaultLead,
                                                leadFrom: setting.lead == nil ? "daemon" : "plan", notify: notify)
                }
                // Turning it on without a lead keeps the plan's own lead, if it had one.
                let lead = on ? (params.leadS ?? own?.lead) : nil
                try await store.write(Reminders.set(ofPlan: params.id, PlanReminder(enabled: on, lead: lead)))
                return PlanReminderDocument(id: params.id, on: on, leadS: lead ?? defaultLead,
                                            leadFrom: lead == nil ? "daemon" : "plan", notify: notify)
            } catch StoreError.notFound {
                throw DaemonError.notFound("plan \(params.id) does not exist")
            } catch StoreError.invalidInput(let reason) {
                throw DaemonError.invalidParams(reason)
            }
        }
    }
}
