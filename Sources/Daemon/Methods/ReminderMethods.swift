import Foundation
import WireProtocol

/// `plan.remind`: a plan's reminder to leave on or off, with its own lead (`ReminderService`
/// sends it).
struct ReminderMethods: Sendable {
    let reminders: PlanReminderSettings
    /// Whether the daemon notifies at all (`--notify`).
    let notify: Bool

    func register(in table: inout MethodTable) {
        table.register(Endpoints.planRemind) { params, _ in
            let setting = try await reminders.reminder(ofPlan: params.id, on: params.on, lead: params.leadS,
                                                       expectedGeneration: params.expectedGeneration)
            return PlanReminderDocument(id: params.id, on: setting.on, leadS: setting.lead,
                                        leadFrom: setting.leadIsThePlans ? "plan" : "daemon", notify: notify)
        }
    }
}
