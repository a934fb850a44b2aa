import WireProtocol

struct AgendaCommand: UmctlCommand {
    static let path = ["agenda"]
    static let spec = CommandSpec(
        path: path, abstract: "List the plans that travel on a day, in order of leaving, with their first leg and state.",
        options: [.init(name: "--day", valueName: "DATE", help: "YYYY-MM-DD, today, tomorrow or yesterday (default: today on the daemon's clock)")],
        discussion: """
        Each plan shows when to leave and arrive (its region's time; "+1d" when it arrives the next
        day), its ID and title, its first leg in words ("walk 6 min to Rautatieasema C, bus 6 at
        08:12") and its state, most serious first: incomplete (a segment without a route), cancelled,
        a ride that does not stop where planned ("bus 6 does not stop at Koskipuisto D"), missed
        connection, missed change (a pinned journey missed at a change a delay broke), outside coverage (the feed's dates), delayed (a ride 1 min or more late,
        from live data, "delayed +15 min"), pending update; or on time.
        """)
    var day: String?

    init(_ arguments: ParsedArguments) throws {
        day = arguments.optional("--day")
    }

    func request() throws -> CommandRequest<AgendaDocument> {
        try CommandRequest(Endpoints.agendaDay, Params.AgendaDay(day: day))
    }

    func render(_ answer: AgendaDocument) throws -> String {
        let heading = "agenda for \(answer.day ?? "today")"
        guard !answer.plans.isEmpty else { return "\(heading)\n(no plans)" }
        return ([heading] + answer.plans.map { plan in
            let times = "\(Render.clock(plan.leave))–\(Render.clock(plan.arrival))" + (plan.arrivalDays > 0 ? " +\(plan.arrivalDays)d" : "")
            let words = plan.stateWords.isEmpty ? plan.states.map { $0.replacing("_", with: " ") } : plan.stateWords
            let states = words.joined(separator: ", ")
            return "\(times)  #\(plan.id) \(plan.title)  [\(states)]\n" + String(repeating: " ", count: 13) + plan.firstLeg
        }).joined(separator: "\n")
    }
}
