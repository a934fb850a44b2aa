import FoundationEssentials
import WireProtocol

let timeHelp = "HH:MM today or ISO 8601 (2022-01-12T08:15, or with an offset: 2022-01-12T08:15+02:00), in the region's time zone"
/// In an edit of an existing plan a bare HH:MM keeps the plan's own day (a plan for 2022-01-12 stays on it).
let planTimeHelp = "HH:MM on the plan's own day, or ISO 8601 (2022-01-12T08:15), in the region's time zone"

/// Commands that answer with a plan print it the same way.
protocol PlanAnswering: UmctlCommand where Answer == PlanDocument {}
extension PlanAnswering {
    func render(_ plan: PlanDocument) throws -> String { Render.plan(plan) }
    static var computesPlan: Bool { true }
}

struct CompareCommand: UmctlCommand {
    static let path = ["compare"]
    static let spec = CommandSpec(
        path: path, abstract: "Walk, transit, car and bike side by side, fastest marked (recorded in route history).",
        positionals: [.init(name: "FROM", help: placeHelp), .init(name: "TO", help: placeHelp)],
        options: [.init(name: "--at", valueName: "TIME", help: "depart at (\(timeHelp))"),
                  .init(name: "--arrive-by", valueName: "TIME", help: "arrive by (\(timeHelp))"),
                  .init(name: "--pace", valueName: "PACE", help: "walking pace: slow, normal or fast"),
                  .init(name: "--region", valueName: "NAME", help: "look text places up only in this region"),
                  .init(name: "--near", valueName: "PLACE", help: "look text places up first in the region of PLACE; of equal matches take the one nearest it (default: nearest your location, as in every command)"),
                  .init(name: "--map", valueName: "FILE", help: "also draw the three routes on one picture (.png or .svg)"),
                  .init(name: "--size", valueName: "WxH", help: "with --map: \(sizeHelp)"),
                  WheelchairOption.option])
    var from: String, to: String, at: String?, arriveBy: String?, pace: WirePace?, region: String?, near: String?
    var map: PictureRequest?
    var access: AccessLevel?

    init(_ arguments: ParsedArguments) throws {
        from = try arguments.string("FROM")
        to = try arguments.string("TO")
        at = arguments.optional("--at")
        arriveBy = arguments.optional("--arrive-by")
        pace = try Check.word(arguments.optional("--pace"), "--pace")
        region = arguments.optional("--region")
        near = arguments.optional("--near")
        access = WheelchairOption.level(arguments)
        if arguments.optional("--map") != nil {
            map = try PictureRequest(arguments, option: "--map")
        } else if arguments.optional("--size") != nil {
            throw UsageError("--size needs --map FILE")
        }
    }

    func validate() throws {
        try Check.place(from, "FROM")
        try Check.place(to, "TO")
        try Check.exclusive(at, arriveBy, "--at or --arrive-by")
        try Check.time(at, "--at")
        try Check.time(arriveBy, "--arrive-by")
    }

    func request() throws -> CommandRequest<CompareDocument> {
        try CommandRequest(Endpoints.compare, Params.Compare(from: from, to: to, at: at, arriveBy: arriveBy, pace: pace,
                                                             region: region, near: near, map: map?.params, access: access))
    }

    func render(_ answer: CompareDocument) throws -> String {
        let table = Render.compare(answer, stepFreeAsked: access != nil)
        guard let map, let image = answer.map else { return table }
        return table + "\n" + (try map.write(image))
    }
}

struct PlanNewCommand: PlanAnswering {
    static let path = ["plan", "new"]
    static let spec = CommandSpec(
        path: path, abstract: "Create a plan from FROM to TO (and on through MORE places) and print it with its ID.",
        positionals: [.init(name: "FROM", help: placeHelp), .init(name: "TO", help: placeHelp),
                      .init(name: "MORE", help: "further places visited in order; the last is the destination "
                                + "(a day: Home Work Shop Home)", optional: true, variadic: true)],
        options: [.init(name: "--mode", valueName: "MODE", help: "walk, transit, car or bike (default: the fastest)"),
                  .init(name: "--at", valueName: "TIME", help: "depart at (\(timeHelp))"),
                  .init(name: "--arrive-by", valueName: "TIME", help: "arrive by (\(timeHelp))"),
                  .init(name: "--pace", valueName: "PACE", help: "walking pace: slow, normal or fast"),
                  .init(name: "--title", valueName: "TEXT", help: "a title (default the places joined by →)"),
                  .init(name: "--region", valueName: "NAME", help: "look text places up only in this region"),
                  .init(name: "--near", valueName: "PLACE", help: "look text places up first in the region of PLACE; of equal matches take the one nearest it (default: nearest your location, as in every command)"),
                  WheelchairOption.option])
    var from: String, to: String, mode: WireMode?, at: String?, arriveBy: String?, pace: WirePace?, title: String?
    var region: String?, near: String?
    var access: AccessLevel?
    /// The places between the origin and the destination.
    var via: [String]

    init(_ arguments: ParsedArguments) throws {
        let places = [try arguments.string("FROM"), try arguments.string("TO")] + arguments.words("MORE")
        from = places[0]
        to = places[places.count - 1]
        via = Array(places.dropFirst().dropLast())
        mode = try Check.word(arguments.optional("--mode"), "--mode")
        at = arguments.optional("--at")
        arriveBy = arguments.optional("--arrive-by")
        pace = try Check.word(arguments.optional("--pace"), "--pace")
        title = arguments.optional("--title")
        region = arguments.optional("--region")
        near = arguments.optional("--near")
        access = WheelchairOption.level(arguments)
    }

    func validate() throws {
        try Check.place(from, "FROM")
        try Check.place(to, "TO")
        for place in via { try Check.place(place, "each place") }
        try Check.exclusive(at, arriveBy, "--at or --arrive-by")
        try Check.time(at, "--at")
        try Check.time(arriveBy, "--arrive-by")
        if let title, title.trimmingBlanks().isEmpty { throw UsageError("--title must not be empty") }
    }

    func request() throws -> CommandRequest<PlanDocument> {
        try CommandRequest(Endpoints.planNew, Params.PlanNew(from: from, to: to, mode: mode, at: at, arriveBy: arriveBy,
                                                         pace: pace, title: title, region: region, near: near,
                                                         via: via.isEmpty ? nil : via, access: access))
    }
}

struct PlanListCommand: UmctlCommand {
    static let path = ["plan", "list"]
    static let spec = CommandSpec(path: path, abstract: "List saved plans, most recently changed first, with the day each travels.")
    init(_ arguments: ParsedArguments) throws {}
    func request() throws -> CommandRequest<PlanListDocument> { try CommandRequest(Endpoints.planList, Params.Empty()) }
    func render(_ answer: PlanListDocument) throws -> String {
        if answer.plans.isEmpty { return "(no plans)" }
        return Render.table(["id", "title", "day", "total", "changed (\(Render.machineZone))"], answer.plans.map {
            [String($0.id), $0.title ?? "", $0.day ?? "now", Render.duration($0.totalDurationS, from: $0.departure, to: $0.arrival), Render.machineClock($0.updatedAt)]
        })
    }
}

struct PlanShowCommand: PlanAnswering {
    static let path = ["plan", "show"]
    static let spec = CommandSpec(path: path, abstract: "Show a plan: every node with its time, every leg, locks, pending updates, totals.",
                                  positionals: [.init(name: "ID", help: "plan ID")],
                                  options: [.init(name: "--geometry", valueName: nil, help: "add each leg's, ride's and walk's line ([lat, lon] pairs; see --json)"),
                                            .init(name: "--tolerance", valueName: "M", help: "with --geometry: simplify to M metres (default 5; 0 keeps every point)")],
                                  discussion: "Shows the stored plan; it makes no routing queries. A node marked (inferred) is a "
                                      + "stop the planner chose to walk to or from for a ride: edits choose it again, "
                                      + "and `umctl plan move` makes it yours.")
    var id: Int64, geometry: Bool, tolerance: Double?
    /// It shows the plan as stored; it computes nothing.
    static var computesPlan: Bool { false }
    init(_ arguments: ParsedArguments) throws {
        id = try arguments.planID()
        geometry = arguments.flag("--geometry")
        tolerance = try arguments.metres("--tolerance")
        if tolerance != nil && !geometry { throw UsageError("--tolerance needs --geometry") }
    }
    func request() throws -> CommandRequest<PlanDocument> {
        try CommandRequest(Endpoints.planShow, Params.PlanShow(id: id, geometry: geometry ? true : nil, toleranceM: tolerance))
    }
    func render(_ plan: PlanDocument) throws -> String {
        geometry ? Render.plan(plan) + "\n" + Render.geometry(plan) : Render.plan(plan)
    }
}

struct PlanDeleteCommand: UmctlCommand {
    static let path = ["plan", "delete"]
    static let spec = CommandSpec(path: path, abstract: "Delete a plan.", positionals: [.init(name: "ID", help: "plan ID")])
    var id: Int64
    init(_ arguments: ParsedArguments) throws { id = try arguments.planID() }
    func request() throws -> CommandRequest<DeletedDocument> { try CommandRequest(Endpoints.planDelete, Params.PlanID(id: id)) }
    func render(_ answer: DeletedDocument) throws -> String { "deleted plan \(answer.deleted)" }
}

struct PlanLinkCommand: UmctlCommand {
    static let path = ["plan", "link"]
    static let spec = CommandSpec(
        path: path, abstract: "Print the Google Maps URL for one segment and which form it is.",
        positionals: [.init(name: "ID", help: "plan ID"), .init(name: "SEG", help: "segment number, from 1")],
        discussion: "Form \"timed\" opens that departure; \"fallback\" has places and mode only.")
    var id: Int64, segment: Int
    init(_ arguments: ParsedArguments) throws {
        id = try arguments.planID()
        segment = try arguments.number("SEG")
    }
    func request() throws -> CommandRequest<LinkDocument> { try CommandRequest(Endpoints.planLink, Params.PlanLink(id: id, segment: segment)) }
    func render(_ link: LinkDocument) throws -> String {
        "\(link.url)\nform: \(link.form)\(link.fallbackReason.map { " (\($0))" } ?? "")"
    }
}

// MARK: - Edits

/// A plan edit: its command line read into its method's params (`PlanEditParams`), sent alone
/// as that method or collected by `umctl batch --atomic` into one `plan.edits`. Every edit
/// takes `--expect-generation G`.
protocol PlanEditCommand: PlanAnswering {
    associatedtype Edit: PlanEditParams
    /// The edit the command line says.
    var params: Edit { get }
    var id: Int64 { get }
    var expectedGeneration: Int64? { get }
}

/// The params of an edit that has a umctl command: its command's file says which, so that
/// `umctl plan` finds the command of every edit of `PlanEdit.kinds` with no list of its own.
protocol CommandLineEdit: PlanEditParams {
    associatedtype Command: PlanEditCommand where Command.Edit == Self
}

extension CommandLineEdit {
    static var command: any UmctlCommand.Type { Command.self }
}

extension PlanEditCommand {
    /// The edit as one of `plan.edits`' edits.
    var edit: PlanEdit { PlanEdit(params) }
    func request() throws -> CommandRequest<PlanDocument> { try CommandRequest(Edit.endpoint, params) }
    func explained(_ error: WireError) -> WireError {
        StaleGenerationAdvice.explained(error, plan: id, expectedGeneration: expectedGeneration)
    }
}

extension CommandSpec {
    /// The spec with the option every edit takes.
    var editing: CommandSpec {
        var spec = self
        spec.options.append(.init(name: "--expect-generation", valueName: "G",
                                  help: "change nothing and fail with conflict unless the plan is at generation G"))
        return spec
    }
}

extension ParsedArguments {
    func expectedGeneration() throws -> Int64? {
        guard let value = try optionalInt("--expect-generation") else { return nil }
        guard value >= 0 else { throw UsageError("--expect-generation must be 0 or more, got \(value)") }
        return Int64(value)
    }
}


struct PlanInsertCommand: PlanEditCommand {
    static let path = ["plan", "insert"]
    static let spec = CommandSpec(
        path: path, abstract: "Insert a place after node K (after the last node: it becomes the destination).",
        positionals: [.init(name: "ID", help: "plan ID"), .init(name: "PLACE", help: placeHelp)],
        options: [.init(name: "--after", valueName: "K", help: "node number the place goes after (required; 1 = after the origin)"),
                  .init(name: "--mode", valueName: "MODE", help: "mode of the new segment: walk, transit, car or bike"),
                  .init(name: "--region", valueName: "NAME", help: "look text places up only in this region"),
                  .init(name: "--near", valueName: "PLACE", help: "look text places up first in the region of PLACE; of equal matches take the one nearest it (default: nearest your location, as in every command)")]).editing
    var expectedGeneration: Int64?
    var id: Int64, after: Int?, place: String, mode: WireMode?, region: String?, near: String?
    init(_ arguments: ParsedArguments) throws {
        id = try arguments.planID()
        expectedGeneration = try arguments.expectedGeneration()
        after = try arguments.optionalInt("--after")
        place = try arguments.string("PLACE")
        mode = try Check.word(arguments.optional("--mode"), "--mode")
        region = arguments.optional("--region")
        near = arguments.optional("--near")
    }
    func validate() throws {
        guard let after else { throw UsageError("--after K is required") }
        guard after >= 1 else { throw UsageError("--after counts from 1, got \(after)") }
        try Check.place(place, "PLACE")
    }
    var params: Params.PlanInsert {
        Params.PlanInsert(id: id, after: after ?? 0, place: place, mode: mode, region: region, near: near,
                          expectedGeneration: expectedGeneration)
    }
}

extension Params.PlanInsert: CommandLineEdit { typealias Command = PlanInsertCommand }

struct PlanRemoveCommand: PlanEditCommand {
    static let path = ["plan", "remove"]
    static let spec = CommandSpec(path: path, abstract: "Remove node K (not the origin or the destination).",
                                  positionals: [.init(name: "ID", help: "plan ID"), .init(name: "K", help: "node number, from 1")],
                                  discussion: "Removing a stop the planner inserted locks the merged segment (\"don't go via there\").").editing
    var expectedGeneration: Int64?
    var id: Int64, node: Int
    init(_ arguments: ParsedArguments) throws {
        id = try arguments.planID()
        expectedGeneration = try arguments.expectedGeneration()
        node = try arguments.number("K")
    }
    var params: Params.PlanRemove { Params.PlanRemove(id: id, node: node, expectedGeneration: expectedGeneration) }
}

extension Params.PlanRemove: CommandLineEdit { typealias Command = PlanRemoveCommand }

struct PlanModeCommand: PlanEditCommand {
    static let path = ["plan", "mode"]
    static let spec = CommandSpec(path: path, abstract: "Change one segment's mode (and lock it); set to transit, the walk to a "
                                      + "ride's stop joins that ride, and the planner's drives after the ride are walked or ridden.",
                                  positionals: [.init(name: "ID", help: "plan ID"), .init(name: "SEG", help: "segment number, from 1"),
                                                .init(name: "MODE", help: "walk, transit, car or bike")]).editing
    var expectedGeneration: Int64?
    var id: Int64, segment: Int, mode: WireMode
    init(_ arguments: ParsedArguments) throws {
        id = try arguments.planID()
        expectedGeneration = try arguments.expectedGeneration()
        segment = try arguments.number("SEG")
        mode = try Check.word(try arguments.string("MODE"), "MODE")
    }
    var params: Params.PlanMode { Params.PlanMode(id: id, segment: segment, mode: mode, expectedGeneration: expectedGeneration) }
}

extension Params.PlanMode: CommandLineEdit { typealias Command = PlanModeCommand }

struct PlanSwapCommand: PlanEditCommand {
    static let path = ["plan", "swap"]
    static let spec = CommandSpec(path: path, abstract: "Swap origin and destination (locks follow).",
                                  positionals: [.init(name: "ID", help: "plan ID")]).editing
    var expectedGeneration: Int64?
    var id: Int64
    init(_ arguments: ParsedArguments) throws {
        id = try arguments.planID()
        expectedGeneration = try arguments.expectedGeneration()
    }
    var params: Params.PlanSwap { Params.PlanSwap(id: id, expectedGeneration: expectedGeneration) }
}

extension Params.PlanSwap: CommandLineEdit { typealias Command = PlanSwapCommand }

struct PlanPresetCommand: PlanEditCommand {
    static let path = ["plan", "preset"]
    static let spec = CommandSpec(path: path, abstract: "Apply a preset to every unlocked segment.",
                                  positionals: [.init(name: "ID", help: "plan ID"), .init(name: "PRESET", help: "walk, transit, car, bike or fastest")],
                                  options: [WheelchairOption.option]).editing
    var expectedGeneration: Int64?
    var id: Int64, preset: WirePreset
    var access: AccessLevel?
    init(_ arguments: ParsedArguments) throws {
        id = try arguments.planID()
        expectedGeneration = try arguments.expectedGeneration()
        preset = try Check.word(try arguments.string("PRESET"), "PRESET")
        access = WheelchairOption.level(arguments)
    }
    var params: Params.PlanPreset { Params.PlanPreset(id: id, preset: preset, expectedGeneration: expectedGeneration, access: access) }
}

extension Params.PlanPreset: CommandLineEdit { typealias Command = PlanPresetCommand }

struct PlanRebuildCommand: PlanEditCommand {
    static let path = ["plan", "rebuild"]
    static let spec = CommandSpec(path: path, abstract: "Rebuild the plan from its two ends with a preset.",
                                  positionals: [.init(name: "ID", help: "plan ID")],
                                  options: [.init(name: "--preset", valueName: "P", help: "walk, transit, car, bike or fastest (required)")]).editing
    var expectedGeneration: Int64?
    var id: Int64, preset: WirePreset
    init(_ arguments: ParsedArguments) throws {
        id = try arguments.planID()
        expectedGeneration = try arguments.expectedGeneration()
        guard let preset: WirePreset = try Check.word(arguments.optional("--preset"), "--preset") else {
            throw UsageError("--preset P is required")
        }
        self.preset = preset
    }
    var params: Params.PlanRebuild { Params.PlanRebuild(id: id, preset: preset, expectedGeneration: expectedGeneration) }
}

extension Params.PlanRebuild: CommandLineEdit { typealias Command = PlanRebuildCommand }

struct PlanPinCommand: PlanEditCommand {
    static let path = ["plan", "pin"]
    static let spec = CommandSpec(
        path: path, abstract: "Pin the departure at TIME (or of --line L) on segment SEG; the rest of the plan fits around it.",
        positionals: [.init(name: "ID", help: "plan ID"), .init(name: "SEG", help: "segment number, from 1"),
                      .init(name: "TIME", help: planTimeHelp, optional: true)],
        options: [.init(name: "--line", valueName: "L", help: "pin a ride of line L (leaving at TIME or --at; else the plan's own ride of L, "
                                + "or the first from the segment's time, in an arrive-by plan the one nearest it that keeps the deadline)"),
                  .init(name: "--at", valueName: "TIME", help: "the same as TIME")],
        discussion: "On a transit segment TIME is when the ride leaves its stop, as plan show prints it (\"07:42 bus 6 ... "
            + "Tays C\", \"pinned to leave 07:42\"): the ride leaving in that minute is pinned, the one the plan shows when it "
            + "does; when none leaves then, the next one the traveller can catch, and the answer says so (\"no ride you can catch leaves at "
            + "07:41; pinned the next, ...\"). On a walk or drive TIME is when it leaves the segment's start. "
            + "A plan holds one pin per segment: pins on other segments stay, and the legs between two pins leave "
            + "at the earlier one's arrival. Segments before the first pin are planned to arrive by it, as late as they can "
            + "(as plan refresh does); pinning the ride the plan shows keeps them unless a stay lies on the way. "
            + "A bare HH:MM is on the day of that segment in the plan (not today). A departure the traveller cannot be at "
            + "from the plan's start is refused (conflict, nothing changed): move the start first (plan time).").editing
    var expectedGeneration: Int64?
    var id: Int64, segment: Int, time: String?, line: String?
    init(_ arguments: ParsedArguments) throws {
        id = try arguments.planID()
        expectedGeneration = try arguments.expectedGeneration()
        segment = try arguments.number("SEG")
        line = arguments.optional("--line")
        time = arguments.optional("TIME") ?? arguments.optional("--at")
        if arguments.optional("TIME") != nil, arguments.optional("--at") != nil { throw UsageError("give either TIME or --at, not both") }
    }
    func validate() throws {
        guard time != nil || line != nil else { throw UsageError("give TIME, --line L, or both") }
        try Check.time(time, "TIME")
        if let line, line.trimmingBlanks().isEmpty { throw UsageError("--line must not be empty") }
    }
    var params: Params.PlanPin {
        Params.PlanPin(id: id, segment: segment, time: time, line: line, expectedGeneration: expectedGeneration)
    }
}

extension Params.PlanPin: CommandLineEdit { typealias Command = PlanPinCommand }

struct PlanUnpinCommand: PlanEditCommand {
    static let path = ["plan", "unpin"]
    static let spec = CommandSpec(path: path, abstract: "Remove every pinned departure (the mode locks stay; umctl plan unlock SEG for one).",
                                  positionals: [.init(name: "ID", help: "plan ID")]).editing
    var expectedGeneration: Int64?
    var id: Int64
    init(_ arguments: ParsedArguments) throws {
        id = try arguments.planID()
        expectedGeneration = try arguments.expectedGeneration()
    }
    var params: Params.PlanUnpin { Params.PlanUnpin(id: id, expectedGeneration: expectedGeneration) }
}

extension Params.PlanUnpin: CommandLineEdit { typealias Command = PlanUnpinCommand }

struct PlanPaceCommand: PlanEditCommand {
    static let path = ["plan", "pace"]
    static let spec = CommandSpec(path: path, abstract: "Set the walking pace; only walk legs are recomputed.",
                                  positionals: [.init(name: "ID", help: "plan ID"),
                                                .init(name: "PACE", help: "slow, normal, fast, or next (default: next)", optional: true)]).editing
    var expectedGeneration: Int64?
    var id: Int64, pace: WirePaceChange
    init(_ arguments: ParsedArguments) throws {
        id = try arguments.planID()
        expectedGeneration = try arguments.expectedGeneration()
        pace = try Check.word(arguments.optional("PACE"), "PACE") ?? .next
    }
    var params: Params.PlanPace { Params.PlanPace(id: id, pace: pace, expectedGeneration: expectedGeneration) }
}

extension Params.PlanPace: CommandLineEdit { typealias Command = PlanPaceCommand }

struct PlanAccessCommand: PlanEditCommand {
    static let path = ["plan", "access"]
    static let spec = CommandSpec(path: path, abstract: "Set step-free (wheelchair) travel; walk and transit legs are recomputed.",
                                  positionals: [.init(name: "ID", help: "plan ID"),
                                                .init(name: "LEVEL", help: WheelchairOption.levelsHelp)]).editing
    var expectedGeneration: Int64?
    var id: Int64, level: AccessLevel
    init(_ arguments: ParsedArguments) throws {
        id = try arguments.planID()
        expectedGeneration = try arguments.expectedGeneration()
        let word = try arguments.string("LEVEL")
        guard let level = WheelchairOption.level(word: word) else {
            throw UsageError("LEVEL must be \(AccessLevel.allCases.map(WheelchairOption.word).joined(separator: ", ")), got \"\(word)\"")
        }
        self.level = level
    }
    var params: Params.PlanAccess { Params.PlanAccess(id: id, access: level, expectedGeneration: expectedGeneration) }
}

extension Params.PlanAccess: CommandLineEdit { typealias Command = PlanAccessCommand }

struct PlanTimeCommand: PlanEditCommand {
    static let path = ["plan", "time"]
    static let spec = CommandSpec(
        path: path, abstract: "Change when to travel: now, --at TIME or --arrive-by TIME.",
        positionals: [.init(name: "ID", help: "plan ID"), .init(name: "now", help: "the word now: leave now", optional: true)],
        options: [.init(name: "--at", valueName: "TIME", help: "depart at (\(planTimeHelp))"),
                  .init(name: "--arrive-by", valueName: "TIME", help: "arrive by (\(planTimeHelp))")],
        discussion: "A bare HH:MM keeps the plan's own day; \"now\" makes it a plan for today.").editing
    var expectedGeneration: Int64?
    var id: Int64, now: String?, at: String?, arriveBy: String?
    init(_ arguments: ParsedArguments) throws {
        id = try arguments.planID()
        expectedGeneration = try arguments.expectedGeneration()
        now = arguments.optional("now")
        at = arguments.optional("--at")
        arriveBy = arguments.optional("--arrive-by")
    }
    func validate() throws {
        try Check.oneOf(now, ["now"], "the word after ID")
        guard [now != nil, at != nil, arriveBy != nil].filter({ $0 }).count == 1 else {
            throw UsageError("give exactly one of now, --at TIME, --arrive-by TIME")
        }
        try Check.time(at, "--at")
        try Check.time(arriveBy, "--arrive-by")
    }
    var params: Params.PlanTime {
        Params.PlanTime(id: id, now: now != nil ? true : nil, at: at, arriveBy: arriveBy, expectedGeneration: expectedGeneration)
    }
}

extension Params.PlanTime: CommandLineEdit { typealias Command = PlanTimeCommand }

struct PlanRefineCommand: PlanEditCommand {
    static let path = ["plan", "refine"]
    static let spec = CommandSpec(path: path, abstract: "Split long walks and transit legs where that is faster.",
                                  positionals: [.init(name: "ID", help: "plan ID")],
                                  options: [.init(name: "--depth", valueName: "N", help: "levels of splitting, 1-4 (default 2)")]).editing
    var expectedGeneration: Int64?
    var id: Int64, depth: Int?
    init(_ arguments: ParsedArguments) throws {
        id = try arguments.planID()
        expectedGeneration = try arguments.expectedGeneration()
        depth = try arguments.optionalInt("--depth")
    }
    func validate() throws {
        if let depth, !(1...4).contains(depth) { throw UsageError("--depth must be 1 to 4, got \(depth)") }
    }
    var params: Params.PlanRefine { Params.PlanRefine(id: id, depth: depth, expectedGeneration: expectedGeneration) }
}

extension Params.PlanRefine: CommandLineEdit { typealias Command = PlanRefineCommand }

struct PlanAcceptCommand: PlanEditCommand {
    static let path = ["plan", "accept"]
    static let spec = CommandSpec(path: path, abstract: "Accept the pending update on segment SEG.",
                                  positionals: [.init(name: "ID", help: "plan ID"), .init(name: "SEG", help: "segment number, from 1")]).editing
    var expectedGeneration: Int64?
    var id: Int64, segment: Int
    init(_ arguments: ParsedArguments) throws {
        id = try arguments.planID()
        expectedGeneration = try arguments.expectedGeneration()
        segment = try arguments.number("SEG")
    }
    var params: Params.PlanAccept { Params.PlanAccept(id: id, segment: segment, expectedGeneration: expectedGeneration) }
}

extension Params.PlanAccept: CommandLineEdit { typealias Command = PlanAcceptCommand }

struct PlanDismissCommand: PlanEditCommand {
    static let path = ["plan", "dismiss"]
    static let spec = CommandSpec(path: path, abstract: "Dismiss the pending update on segment SEG (keep your choice).",
                                  positionals: [.init(name: "ID", help: "plan ID"), .init(name: "SEG", help: "segment number, from 1")]).editing
    var expectedGeneration: Int64?
    var id: Int64, segment: Int
    init(_ arguments: ParsedArguments) throws {
        id = try arguments.planID()
        expectedGeneration = try arguments.expectedGeneration()
        segment = try arguments.number("SEG")
    }
    var params: Params.PlanDismiss { Params.PlanDismiss(id: id, segment: segment, expectedGeneration: expectedGeneration) }
}

extension Params.PlanDismiss: CommandLineEdit { typealias Command = PlanDismissCommand }

struct PlanRefreshCommand: PlanEditCommand {
    static let path = ["plan", "refresh"]
    static let spec = CommandSpec(
        path: path, abstract: "Ask every leg again with the current routing data, keeping your decisions.",
        positionals: [.init(name: "ID", help: "plan ID")],
        discussion: "Use it after a region was re-imported (a new timetable). Modes, locks and stops stay; a pinned "
            + "departure is found again by its trip or its duration, and if it no longer runs your leg is kept and "
            + "the new answer is shown as a pending update (umctl plan accept / plan dismiss).").editing
    var expectedGeneration: Int64?
    var id: Int64
    init(_ arguments: ParsedArguments) throws {
        id = try arguments.planID()
        expectedGeneration = try arguments.expectedGeneration()
    }
    var params: Params.PlanRefresh { Params.PlanRefresh(id: id, expectedGeneration: expectedGeneration) }
}

extension Params.PlanRefresh: CommandLineEdit { typealias Command = PlanRefreshCommand }
