import FoundationEssentials
import WireProtocol

// A day of several places and the user's choices in it: stays, alternatives, moving a node,
// undoing a decision, renaming and copying a plan.

struct PlanStayCommand: PlanEditCommand {
    static let path = ["plan", "stay"]
    static let spec = CommandSpec(
        path: path, abstract: "Stay at node K for DURATION (or --until TIME) before the next leg leaves.",
        positionals: [.init(name: "ID", help: "plan ID"), .init(name: "K", help: "node number, from 1 (not the destination)"),
                      .init(name: "DURATION", help: "45m, 1h, 1h30m, or minutes (45)", optional: true)],
        options: [.init(name: "--until", valueName: "TIME",
                        help: "stay until then: a bare HH:MM is the next such time after you get to K (00:40 on a node reached 00:58 is the next night's, shown +1d), or ISO 8601 (2022-01-12T08:15) in the region's time zone"),
                  .init(name: "--clear", valueName: nil, help: "remove the stay")],
        discussion: "The stay is part of the plan's times and total; later transit legs are asked again.").editing
    var expectedGeneration: Int64?
    var id: Int64, node: Int, duration: String?, until: String?, clear: Bool
    init(_ arguments: ParsedArguments) throws {
        id = try arguments.planID()
        expectedGeneration = try arguments.expectedGeneration()
        node = try arguments.number("K")
        duration = arguments.optional("DURATION")
        until = arguments.optional("--until")
        clear = arguments.flag("--clear")
    }
    func validate() throws {
        guard [duration != nil, until != nil, clear].filter({ $0 }).count == 1 else {
            throw UsageError("give exactly one of DURATION, --until TIME, --clear")
        }
        if let duration { _ = try Self.seconds(duration) }
        try Check.time(until, "--until")
    }
    /// `validate()` has checked that DURATION reads as a duration.
    var params: Params.PlanStay {
        Params.PlanStay(id: id, node: node, durationS: duration.flatMap { try? Self.seconds($0) }, until: until,
                        clear: clear ? true : nil, expectedGeneration: expectedGeneration)
    }

    /// DURATION as seconds, read as every duration is (`DurationText`: 45m, 1h30m, 90s, bare minutes).
    static func seconds(_ text: String) throws -> Double {
        guard let seconds = DurationText.seconds(text) else {
            throw UsageError("DURATION \"\(text)\" is not a duration: use 45m, 1h, 1h30m or minutes (45)")
        }
        return seconds
    }
}

extension Params.PlanStay: CommandLineEdit { typealias Command = PlanStayCommand }

struct PlanAlternativesCommand: UmctlCommand {
    static let path = ["plan", "alternatives"]
    static let spec = CommandSpec(
        path: path, abstract: "List options for segment SEG at its current time (umctl plan choose takes one).",
        positionals: [.init(name: "ID", help: "plan ID"), .init(name: "SEG", help: "segment number, from 1")],
        options: [.init(name: "--count", valueName: "N", help: "at most N options, 1-20 (default 5)")],
        discussion: "Transit: the next departures and the journeys with fewer transfers, in departure order; "
            + "in an arrive-by plan, a segment timed back from the arrival (or a pin after it) lists the latest "
            + "options arriving in time instead. "
            + "Walk, bike and car: the quickest route, then the shortest when it is another route. "
            + "\"leaves\" is when to leave the segment's start (the walk to the first stop starts then); "
            + "\"boards\" is when the first ride leaves its stop, the time umctl plan pin takes.")
    var id: Int64, segment: Int, count: Int?
    init(_ arguments: ParsedArguments) throws {
        id = try arguments.planID()
        segment = try arguments.number("SEG")
        count = try arguments.optionalInt("--count")
    }
    func validate() throws {
        if let count, !(1...20).contains(count) { throw UsageError("--count must be 1 to 20, got \(count)") }
    }
    func request() throws -> CommandRequest<AlternativesDocument> {
        try CommandRequest(Endpoints.planAlternatives, Params.PlanAlternatives(id: id, segment: segment, count: count))
    }
    func render(_ answer: AlternativesDocument) throws -> String {
        if answer.options.isEmpty { return "(no options)" }
        let rows = answer.options.enumerated().map { index, leg in
            [String(index + 1), DayMark.clock(leg.departure, askedDay: answer.day ?? answer.time),
             leg.rides.first.map { DayMark.clock($0.departure, askedDay: answer.day ?? answer.time) } ?? "-",
             DayMark.clock(leg.arrival, askedDay: answer.day ?? answer.time),
             Render.duration(leg.durationS, from: leg.departure, to: leg.arrival),
             leg.rides.isEmpty ? answer.mode.rawValue : leg.rides.map(Render.lineWithHeadway).joined(separator: ", "), String(leg.transfers),
             leg.walks.isEmpty ? "-" : Render.duration(leg.walks.reduce(0) { $0 + $1.durationS })]
        }
        let live = answer.options.enumerated().flatMap { index, leg in
            LiveTimes.notes(leg.rides, label: "option \(index + 1):", askedDay: answer.day ?? answer.time)
        }
        return "Plan \(answer.id), segment \(answer.segment) (\(answer.mode)), times in \(answer.timeZone)\n"
            // A ride's time is when it leaves its stop (`plan pin` reads it so); the option leaves earlier by its walk.
            + Render.table(["#", "leaves", "boards", "arrives", "takes", "lines", "transfers", "walking"], rows)
            + live.map { "\n" + $0 }.joined()
            + (answer.pinConflicts ?? []).map { "\n" + Self.pinConflictLine($0, day: answer.day ?? answer.time) }.joined()
            + "\n" + chooseLines(answer)
    }

    /// "option 2 arrives 08:17: too late for segment 3, pinned to leave 08:10 (…)": an option
    /// `plan choose` refuses, said before the lines that take one.
    static func pinConflictLine(_ conflict: PinConflictDocument, day: String?) -> String {
        let pinnedSegment = conflict.pinnedSegment.map(String.init) ?? "?"
        // The times compared, said so that they differ: with seconds when two read the same minute.
        let clocks = MissedConnection.clocks([conflict.time, conflict.ready, conflict.arriveBy, conflict.pinned, conflict.pinnedWalkLeaves],
                                             askedDay: day)
        let (time, ready, arriveBy, pinnedTime, walkLeaves) = (clocks[0], clocks[1], clocks[2], clocks[3], clocks[4])
        if conflict.kind == "arrives_after_arrive_by" {
            // An earlier segment's option: the legs and stays after it say when the traveller gets there.
            let reached = ready == time ? "" : "the plan then ends at \(ready) at the earliest, "
            return "option \(conflict.option) arrives \(time): \(reached)after the \(arriveBy) you must "
                + "arrive by; it cannot be chosen"
        }
        // As the plan shows the pin (a ride: when it leaves its stop), and the walk to its stop when it leaves earlier.
        let pinned = (conflict.pinned.map { _ in " to leave \(pinnedTime)" } ?? "")
            + (conflict.pinnedWalkLeaves.map { _ in ", the walk to its stop leaving \(walkLeaves)" } ?? "")
        if conflict.kind == "leaves_too_early" {
            return "option \(conflict.option) leaves \(time): coming from segment \(pinnedSegment), "
                + "pinned, you can be there at \(ready) at the earliest; it cannot be chosen"
        }
        // The legs and stays between may hold the traveller after the option arrives.
        let goOn = ready == time ? "" : " (you could go on at \(ready) at the earliest)"
        return "option \(conflict.option) arrives \(time): too late for segment \(pinnedSegment), "
            + "pinned\(pinned)\(goOn); it cannot be chosen"
    }

    /// How to take an option: a transit option's own line (its departure and trips find it again
    /// after other edits shift the list); a walk, bike or car option by its number.
    func chooseLines(_ answer: AlternativesDocument) -> String {
        guard answer.options.contains(where: { !$0.rides.isEmpty }) else {
            return "(umctl plan choose \(answer.id) \(answer.segment) N\(count.map { " --count \($0)" } ?? ""))"
        }
        let refused = Set((answer.pinConflicts ?? []).map(\.option))
        return "to take one (each line names its option, not its place in a list another edit may shift):\n" + answer.options.enumerated()
            .filter { !refused.contains($0.offset + 1) }.map { index, leg in
                "  " + ChooseCommandLine.text(plan: answer.id, segment: answer.segment, option: index + 1, count: count, leg: leg)
            }.joined(separator: "\n")
    }
}

struct PlanChooseCommand: PlanEditCommand {
    static let path = ["plan", "choose"]
    static let spec = CommandSpec(
        path: path, abstract: "Take option N of umctl plan alternatives: lock the segment (and pin that trip).",
        positionals: [.init(name: "ID", help: "plan ID"), .init(name: "SEG", help: "segment number, from 1"),
                      .init(name: "N", help: "option number, from 1")],
        options: [.init(name: "--count", valueName: "N", help: "the --count the options were listed with (default 5)"),
                  .init(name: "--departure", valueName: "TIME", help: "the option's departure as listed (\(planTimeHelp))"),
                  .init(name: "--trip", valueName: "TRIP_ID", help: "a trip of the option's rides as listed, once per ride in order",
                        repeatable: true)],
        discussion: "With --trip (and --departure) the option is the one listed so, even when another edit has shifted the list "
            + "(N is then only checked against them); conflict, changing nothing, when no option is. "
            + "umctl plan alternatives prints each transit option's line with them.").editing
    var expectedGeneration: Int64?
    var id: Int64, segment: Int, option: Int, count: Int?, departure: String?, trips: [String]
    init(_ arguments: ParsedArguments) throws {
        id = try arguments.planID()
        expectedGeneration = try arguments.expectedGeneration()
        segment = try arguments.number("SEG")
        option = try arguments.number("N")
        count = try arguments.optionalInt("--count")
        departure = arguments.optional("--departure")
        trips = arguments.all("--trip")
    }
    func validate() throws {
        try Check.time(departure, "--departure")
        if trips.contains(where: { $0.trimmingBlanks().isEmpty }) { throw UsageError("--trip must not be empty") }
    }
    var params: Params.PlanChoose {
        Params.PlanChoose(id: id, segment: segment, option: option, count: count, departure: departure,
                          tripIds: trips.isEmpty ? nil : trips, expectedGeneration: expectedGeneration)
    }
}

extension Params.PlanChoose: CommandLineEdit { typealias Command = PlanChooseCommand }

struct PlanMoveCommand: PlanEditCommand {
    static let path = ["plan", "move"]
    static let spec = CommandSpec(
        path: path, abstract: "Replace node K (origin and destination included) by PLACE.",
        positionals: [.init(name: "ID", help: "plan ID"), .init(name: "K", help: "node number, from 1"),
                      .init(name: "PLACE", help: placeHelp)],
        options: [.init(name: "--region", valueName: "NAME", help: "look text places up only in this region"),
                  .init(name: "--near", valueName: "PLACE", help: "look text places up first in the region of PLACE; of equal matches take the one nearest it (default: nearest your location, as in every command)")],
        discussion: "Only the two segments touching node K are asked again; locks on them are dropped (they were about the old place).").editing
    var expectedGeneration: Int64?
    var id: Int64, node: Int, place: String, region: String?, near: String?
    init(_ arguments: ParsedArguments) throws {
        id = try arguments.planID()
        expectedGeneration = try arguments.expectedGeneration()
        node = try arguments.number("K")
        place = try arguments.string("PLACE")
        region = arguments.optional("--region")
        near = arguments.optional("--near")
    }
    func validate() throws { try Check.place(place, "PLACE") }
    var params: Params.PlanMove {
        Params.PlanMove(id: id, node: node, place: place, region: region, near: near, expectedGeneration: expectedGeneration)
    }
}

extension Params.PlanMove: CommandLineEdit { typealias Command = PlanMoveCommand }

struct PlanUnlockCommand: PlanEditCommand {
    static let path = ["plan", "unlock"]
    static let spec = CommandSpec(path: path, abstract: "Remove the mode lock (and the pin) of segment SEG.",
                                  positionals: [.init(name: "ID", help: "plan ID"), .init(name: "SEG", help: "segment number, from 1")],
                                  discussion: "The leg stays; the next preset or refinement may change the segment again.").editing
    var expectedGeneration: Int64?
    var id: Int64, segment: Int
    init(_ arguments: ParsedArguments) throws {
        id = try arguments.planID()
        expectedGeneration = try arguments.expectedGeneration()
        segment = try arguments.number("SEG")
    }
    var params: Params.PlanUnlock { Params.PlanUnlock(id: id, segment: segment, expectedGeneration: expectedGeneration) }
}

extension Params.PlanUnlock: CommandLineEdit { typealias Command = PlanUnlockCommand }

struct PlanRenameCommand: PlanEditCommand {
    static let path = ["plan", "rename"]
    static let spec = CommandSpec(path: path, abstract: "Give the plan a title of your own.",
                                  positionals: [.init(name: "ID", help: "plan ID"),
                                                .init(name: "TITLE", help: "the new title", variadic: true)]).editing
    var expectedGeneration: Int64?
    var id: Int64, title: String
    init(_ arguments: ParsedArguments) throws {
        id = try arguments.planID()
        expectedGeneration = try arguments.expectedGeneration()
        title = try arguments.string("TITLE")
    }
    func validate() throws {
        if title.trimmingBlanks().isEmpty { throw UsageError("TITLE must not be empty") }
    }
    var params: Params.PlanRename { Params.PlanRename(id: id, title: title, expectedGeneration: expectedGeneration) }
}

extension Params.PlanRename: CommandLineEdit { typealias Command = PlanRenameCommand }

struct PlanCopyCommand: PlanAnswering {
    static let path = ["plan", "copy"]
    static let spec = CommandSpec(path: path, abstract: "Copy a plan into a new one to edit (prints the copy and its ID).",
                                  positionals: [.init(name: "ID", help: "plan ID")],
                                  options: [.init(name: "--title", valueName: "TEXT", help: "the copy's title (default \"TITLE (copy)\")")])
    var id: Int64, title: String?
    init(_ arguments: ParsedArguments) throws {
        id = try arguments.planID()
        title = arguments.optional("--title")
    }
    func validate() throws {
        if let title, title.trimmingBlanks().isEmpty { throw UsageError("--title must not be empty") }
    }
    func request() throws -> CommandRequest<PlanDocument> { try CommandRequest(Endpoints.planCopy, Params.PlanCopy(id: id, title: title)) }
}
