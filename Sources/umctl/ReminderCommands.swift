import FoundationEssentials
import WireProtocol

struct PlanRemindCommand: UmctlCommand {
    static let path = ["plan", "remind"]
    static let spec = CommandSpec(
        path: path, abstract: "Turn a plan's reminder to leave on or off, or show it (no STATE).",
        positionals: [.init(name: "ID", help: "plan ID"), .init(name: "STATE", help: "on or off (none: show the setting)", optional: true)],
        options: [.init(name: "--lead", valueName: "TIME", help: "with on: remind this long before leaving, e.g. 15m (default: the daemon's --remind-lead, 10m)")],
        discussion: """
        On the plan's day the daemon sends a desktop notification "Leave at 08:06 for Hervanta" \
        the lead before leaving, with buttons "Open route" and "In 5 min", and a notice when the \
        trip changes; `umctl watch` shows each as a `reminder` event. Reminders are on unless turned off.
        """)
    var id: Int64
    /// nil: show the setting, change nothing.
    var on: Bool?
    var lead: Double?

    init(_ arguments: ParsedArguments) throws {
        id = try arguments.planID()
        if let state = arguments.optional("STATE") {
            try Check.oneOf(state, ["on", "off"], "STATE")
            on = state == "on"
        }
        if let text = arguments.optional("--lead") {
            guard let seconds = DurationText.seconds(text), seconds <= 86_400 else {
                throw UsageError("--lead must be a duration up to a day such as 15m, 90s or 1h, got \"\(text)\"")
            }
            lead = seconds
        }
    }

    func validate() throws {
        if lead != nil, on != true { throw UsageError("--lead goes with on") }
    }

    func request() throws -> CommandRequest<PlanReminderDocument> {
        try CommandRequest(Endpoints.planRemind, Params.PlanRemind(id: id, on: on, leadS: lead))
    }

    func render(_ answer: PlanReminderDocument) throws -> String {
        guard answer.on else { return "plan \(answer.id): reminder off" }
        let from = answer.leadFrom == "daemon" ? " (the daemon's)" : ""
        return "plan \(answer.id): reminder \(Render.duration(answer.leadS))\(from) before leaving"
            + (answer.notify ? "" : " (notifications are off: usefulmapd --notify off)")
    }
}
