import Foundation
import Store

/// A plan's reminder to leave, on or off, with its own lead (`plan.remind`; `ReminderService`
/// sends it). A plan without its own choice is reminded at the daemon's lead.
struct PlanReminderSettings: Sendable {
    let store: Store
    /// Checks `expected_generation`.
    let plans: PlanRepository
    /// The daemon's lead (`--remind-lead`).
    let defaultLead: TimeInterval

    /// A plan's reminder as it applies.
    struct Setting: Sendable {
        var on: Bool
        var lead: TimeInterval
        /// Whether `lead` is the plan's own (else the daemon's).
        var leadIsThePlans: Bool
    }

    /// Reads (with `on` nil) or sets a plan's reminder; turning it on without a lead keeps the plan's own lead, if it had one.
    /// - throws: `DaemonError.invalidParams` for a lead with `on` not true or out of range,
    ///   `notFound` for no such plan, `conflict` for another generation than `expectedGeneration`.
    func reminder(ofPlan id: Int64, on: Bool?, lead given: TimeInterval?, expectedGeneration: Int64?) async throws -> Setting {
        if given != nil, on != true {
            throw DaemonError.invalidParams("lead_s goes with on: true (a reminder that is off has no lead)")
        }
        do {
            try await plans.require(id: id, expectedGeneration: expectedGeneration)
            let own = try await store.read(Reminders.reminder(ofPlan: id))
            guard let on else {
                _ = try await plans.show(id: id)
                let setting = own ?? PlanReminder(enabled: true, lead: nil)
                return Setting(on: setting.enabled, lead: setting.lead ?? defaultLead, leadIsThePlans: setting.lead != nil)
            }
            let lead = on ? (given ?? own?.lead) : nil
            try await store.write(Reminders.set(ofPlan: id, PlanReminder(enabled: on, lead: lead)))
            return Setting(on: on, lead: lead ?? defaultLead, leadIsThePlans: lead != nil)
        } catch StoreError.notFound {
            throw DaemonError.notFound("plan \(id) does not exist")
        } catch StoreError.invalidInput(let reason) {
            throw DaemonError.invalidParams(reason)
        }
    }
}
