import FoundationEssentials
import Glibc
import WireProtocol

/// `umctl`: finds the subcommand, checks its input, sends one request, prints the answer.
///
/// Exit codes (part of the interface, also in `umctl help`):
/// 0 success; 1 the daemon answered with an error; 2 bad command line (nothing was sent);
/// 3 the daemon could not be reached, the connection failed, or the socket is another user's;
/// 4 the plan was stored but a segment has no route (the plan is printed, the error names the segment).
enum CommandLineTool {
    /// The first words of the commands' paths, in the order of `umctl help`.
    static let firstWords = ["status", "region", "search", "where", "place", "location", "compare", "plan", "agenda", "history", "watch"]

    /// Every command, in the order of `umctl help`.
    static var commands: [any UmctlCommand.Type] { firstWords.flatMap(commands(startingWith:)) }

    /// The commands whose path starts with `word`. Finding a command touches only these: each
    /// command type's conformance and path are made at run time on first use, and making all
    /// of them was a tenth of what `umctl status` did.
    static func commands(startingWith word: String) -> [any UmctlCommand.Type] {
        switch word {
        case "status": [StatusCommand.self]
        case "region": [RegionImportCommand.self, RegionListCommand.self, RegionUpdateCommand.self, RegionSetCommand.self,
                        RegionRemoveCommand.self]
        case "search": [SearchCommand.self]
        case "where": [WhereCommand.self]
        case "place": [PlaceSaveCommand.self, PlaceListCommand.self, PlaceRenameCommand.self, PlaceRemoveCommand.self,
                       PlaceFenceCommand.self]
        case "location": [LocationSetCommand.self, LocationShowCommand.self]
        case "compare": [CompareCommand.self]
        case "plan": planCommands
        case "agenda": [AgendaCommand.self]
        case "history": [HistoryCommand.self, HistoryVisitsCommand.self, HistoryRerunCommand.self, HistoryDeleteCommand.self,
                         HistoryClearCommand.self]
        case "watch": [WatchCommand.self]
        default: []
        }
    }

    /// `umctl plan`'s commands in the order of its help: the edits in the order of `PlanEdit.kinds`
    /// (each edit's params name its command: `CommandLineEdit`), the others where help has
    /// always shown them.
    static var planCommands: [any UmctlCommand.Type] {
        var commands: [any UmctlCommand.Type] = [PlanNewCommand.self, PlanListCommand.self, PlanShowCommand.self, PlanDeleteCommand.self]
        for kind in PlanEdit.kinds {
            if let edit = kind as? any CommandLineEdit.Type { commands.append(edit.command) }
            if kind.method == Params.PlanRefresh.method {
                commands += [PlanLinkCommand.self, PlanRemindCommand.self, PlanExportCommand.self, PlanMapCommand.self]
            }
            if kind.method == Params.PlanStay.method { commands.append(PlanAlternativesCommand.self) }
        }
        return commands + [PlanCopyCommand.self]
    }

    /// Every command's spec, `batch` included, in the order of `umctl help`.
    static var allSpecs: [CommandSpec] { commands.map { $0.spec } + [batchSpec, WebCommand.spec] }

    enum ExitCode: Int32 {
        case success = 0
        case daemonError = 1
        case usage = 2
        case connection = 3
        case incompletePlan = 4

        /// The one mapping from a failure to an exit code.
        init(for error: Error) {
            switch error {
            case is UsageError: self = .usage
            case is WireClientError: self = .connection
            case is IncompletePlanError: self = .incompletePlan
            default: self = .daemonError
            }
        }
    }

    /// A failure: the daemon's stable word (for `--json` and scripts) and the sentence a person reads.
    static func describe(_ error: Error) -> (word: String, message: String) {
        switch error {
        case let error as WireError: (error.code, error.message)
        case let error as UsageError: ("usage", error.description)
        case let error as WireClientError: ("connection", error.description)
        case let error as IncompletePlanError: (error.code, error.description)
        default: ("error", "\(error)")
        }
    }

    /// Prints the failure on stderr (as one JSON object under `--json`) and returns its exit code.
    static func failed(_ error: Error, json: Bool = false) -> Int32 {
        report(error, line: nil, json: json)
        return ExitCode(for: error).rawValue
    }

    /// Under `--json` an error is one line of JSON on stderr, shaped like the protocol's:
    /// `{"code": NUMBER or null, "message", "data": {"code": WORD, "exit_code": N, ...}}` — `code`
    /// is the daemon's JSON-RPC number (null for an error umctl found itself), `data.code` the
    /// word; a batch adds `data.line`. Otherwise one line for a person.
    static func report(_ error: Error, line: Int?, json: Bool) {
        let (word, message) = describe(error)
        let prefix = line.map { "umctl: line \($0): " } ?? "umctl: "
        guard json else {
            // The sentence only: the word is for scripts, which read it under `--json` (and the exit status).
            fail("\(prefix)\(message)")
            return
        }
        var data: [String: JSONValue] = [:]
        var number: JSONValue = .null
        if let wire = error as? WireError {
            if case .object(let fields) = wire.wireData { data = fields }
            number = .number(Double(wire.number))
        } else if let incomplete = error as? IncompletePlanError {
            data = incomplete.data
        }
        data["code"] = .string(word)
        data["exit_code"] = .number(Double(ExitCode(for: error).rawValue))
        if let line {
            data["line"] = .number(Double(line))
            // The batch's own stdout record of the failed line, beside its results.
            if let record = try? WireCodec.line(for: JSONValue.object([
                "line": .number(Double(line)), "error": .object(["code": .string(word), "message": .string(message)])])) {
                StandardStream.writeOutput(record)
            }
        }
        let named = line.map { "line \($0): \(message)" } ?? message
        if let text = try? WireCodec.line(for: JSONValue.object(["code": number, "message": .string(named), "data": .object(data)])) {
            StandardStream.writeError(text)
        }
    }

    /// A plan that was computed but not completely: the first segment without a leg fails the
    /// command with exit code 4, after the plan was printed.
    static func checkComplete(_ command: any UmctlCommand, _ result: JSONValue) throws {
        guard type(of: command).computesPlan, let segments = result["segments"]?.arrayValue else { return }
        for (index, segment) in segments.enumerated() where segment["leg"] == .null || segment["leg"] == nil {
            throw IncompletePlanError(planID: result["id"]?.numberValue.map { Int64($0) }, segment: index + 1,
                                      mode: segment["mode"]?.stringValue ?? "?", reason: segment["error"])
        }
    }

    /// What a command line that names no command is answered with, after the line naming the mistake.
    static let usageLine = "usage: umctl COMMAND [ARGUMENT]... [--json] [--socket PATH] (umctl help lists the commands)"

    static let exitCodeHelp = """
    exit codes: 0 success; 1 the daemon answered with an error (message on stderr);
                2 bad command line (nothing was sent); 3 the daemon could not be reached,
                or its socket is served by another user (nothing was sent);
                4 the plan was stored but a segment has no route (the error names it).
    With --json, an error is one JSON object on stderr: {"code","message","data":{"code",...}}.
    """

    static let batchSpec = CommandSpec(
        path: ["batch"], abstract: "Run umctl commands from FILE (or - for stdin), one per line, over one connection.",
        positionals: [.init(name: "FILE", help: "a file of commands, or - for standard input (default -)", optional: true)],
        options: [.init(name: "--keep-going", valueName: nil, help: "run every line even after an error"),
                  .init(name: "--atomic", valueName: nil, help: "the lines are edits of one plan: apply all or none, with one recompute"),
                  .init(name: "--dry-run", valueName: nil, help: "with --atomic: print the resulting plan without storing it"),
                  .init(name: "--expect-generation", valueName: "G",
                        help: "with --atomic: change nothing and fail with conflict unless the plan is at generation G")],
        discussion: """
        Each line is a umctl command without the word umctl. Blank lines and lines starting with #
        are skipped. $LAST is the ID of the plan the last `plan new` created. Words may be quoted
        with "..." or '...'. Every line is read and checked before anything is sent: a mistake on
        any line means nothing runs. Stops at the first error, naming its line, unless --keep-going.
        With --atomic, every line must be an edit of the same plan (plan insert, mode, stay, move,
        choose, pin, time, rename, unlock, …): they go as one plan.edits request, applied all or
        none with one recompute; an error names the line of the edit that failed.
        With --json, prints one {"line":N,"result":...} or {"line":N,"error":...} per command.
        """)

    /// Runs the whole command line to its end on this thread and returns the exit code:
    /// `run` never suspends (`WireClient`'s socket is blocking), so `runToEnd` completes it
    /// inline and no executor thread is started. The body is formed here, in nonisolated
    /// code: formed in main.swift's top level it would be isolated to the main actor and
    /// would wait for the main thread, which `runToEnd` blocks.
    /// What needs no daemon (help, `--version`, the generators) is answered first, without a
    /// task: the concurrency runtime's first use costs `--version` a third more instructions.
    static func main(_ arguments: [String], environment: [String: String]) -> Int32 {
        if let code = answeredWithoutDaemon(arguments) { return code }
        return runToEnd { await run(arguments, environment: environment) }
    }

    /// Help, the version and the generators for `make install`, or nil for a command that
    /// talks to the daemon.
    static func answeredWithoutDaemon(_ arguments: [String]) -> Int32? {
        let words = movingLeadingSharedOptions(arguments)
        let commandWords = withoutSharedOptions(arguments)
        if words.isEmpty || words == ["--help"] || words == ["-h"] || words == ["help"] {
            print(overview)
            return words.isEmpty ? ExitCode.usage.rawValue : ExitCode.success.rawValue
        }
        if words == ["--version"] {
            print("umctl \(ProtocolVersion.softwareVersion) (protocol \(ProtocolVersion.current))")
            return ExitCode.success.rawValue
        }
        // Hidden generators for `make install`: the manual page and shell completions.
        if arguments == ["__man"] {
            print(ManualPage.umctl(commands: allSpecs), terminator: "")
            return ExitCode.success.rawValue
        }
        if arguments.first == "__completions", arguments.count == 2 {
            guard let script = ShellCompletions.script(for: arguments[1], specs: allSpecs) else {
                fail("umctl: no completions for \"\(arguments[1])\"; bash, zsh or fish")
                return ExitCode.usage.rawValue
            }
            print(script, terminator: "")
            return ExitCode.success.rawValue
        }
        if commandWords.first == "help" {
            return help(Array(commandWords.dropFirst()))
        }
        return nil
    }

    /// Runs a command line that talks to the daemon and returns the exit code. `async` for
    /// `WireClient`'s calls.
    static func run(_ arguments: [String], environment: [String: String]) async -> Int32 {
        let words = movingLeadingSharedOptions(arguments)
        let commandWords = withoutSharedOptions(arguments)
        if arguments.first == "__places" {
            // For the shell completions: saved place names, one a line; nothing when the daemon is away.
            let names = (try? await connect(socket: arguments.dropFirst().first, environment: environment)
                .call(Endpoints.placeList, Params.Empty()).places.map(\.name)) ?? []
            names.forEach { print(TerminalText.safe($0, keepingNewlines: false)) }
            return ExitCode.success.rawValue
        }
        if words.first == "batch" {
            return await runBatch(Array(words.dropFirst()), environment: environment)
        }
        if commandWords.first == "web" {
            if words.contains("--help") {
                print(WebCommand.spec.help)
                return ExitCode.success.rawValue
            }
            do {
                return try WebCommand(Array(words.dropFirst())).run(environment: environment)
            } catch {
                return failed(error)
            }
        }
        let json = words.contains("--json")
        do {
            guard let (type, rest) = find(words) else {
                if let option = commandWords.first, option.hasPrefix("-") {
                    throw UsageError("unknown option \(option)\n\(usageLine)")
                }
                return help(commandWords.filter { !$0.hasPrefix("-") }, unknownIsError: true)
            }
            let arguments = try type.spec.parse(rest)
            if arguments.flag("--help") {
                print(type.spec.help)
                return ExitCode.success.rawValue
            }
            let command = try type.init(arguments)
            try command.validate()
            let client = try connect(socket: arguments.optional("--socket"), environment: environment)
            return await perform(command, client: client, json: json)
        } catch {
            return failed(error, json: json)
        }
    }

    /// Sends the command's request and prints the answer; a success ends the process there
    /// (`runAndShow(…, endingProcess: true)`), a failure returns its exit code.
    static func perform(_ command: any UmctlCommand, client: WireClient, json: Bool) async -> Int32 {
        do {
            try await runAndShow(command, client: client, json: json, endingProcess: true)
            return ExitCode.success.rawValue
        } catch {
            return failed(error, json: json)
        }
    }

    /// Sends the command's request, prints the answer (text, or the JSON result line) and checks
    /// that a stored plan is complete; errors are the caller's to report.
    /// - parameter endingProcess: exit with success once the answer is shown, before the answer
    ///   and what was read from it are freed: `exit` flushes `print`'s buffer, and the kernel
    ///   takes back the memory and the socket at once, where freeing the answer's few hundred
    ///   allocations one by one was a tenth of a whole `umctl status`.
    static func runAndShow(_ command: any UmctlCommand, client: WireClient, json: Bool, endingProcess: Bool = false) async throws {
        let (result, text) = try await command.run(on: client, json: json)
        if let text {
            show(text)
        } else {
            StandardStream.writeOutput(try WireCodec.line(for: result))
        }
        try checkComplete(command, result)
        // Held to the end: ARC would free them after their last use above, before `exit`.
        if endingProcess { withExtendedLifetime((result, text)) { exit(ExitCode.success.rawValue) } }
    }

    /// `umctl --socket S --json plan show 1` → `umctl plan show 1 --socket S --json`: shared
    /// options may come before the command.
    static func movingLeadingSharedOptions(_ words: [String]) -> [String] {
        var leading: [String] = []
        var rest = words[...]
        while let first = rest.first, first.hasPrefix("--"), first != "--help", first != "--version" {
            if first == "--socket", rest.count >= 2 {
                leading += rest.prefix(2)
                rest = rest.dropFirst(2)
            } else if first == "--json" || first.hasPrefix("--socket=") {
                leading.append(first)
                rest = rest.dropFirst()
            } else {
                break
            }
        }
        return Array(rest) + leading
    }

    /// The words without `--json` and `--socket PATH`.
    static func withoutSharedOptions(_ words: [String]) -> [String] {
        var result: [String] = []
        var skipNext = false
        for word in words {
            if skipNext { skipNext = false; continue }
            if word == "--socket" { skipNext = true; continue }
            if word == "--json" || word.hasPrefix("--socket=") { continue }
            result.append(word)
        }
        return result
    }

    /// The command whose path is the longest prefix of `words`, and the words after it.
    static func find(_ words: [String]) -> (any UmctlCommand.Type, [String])? {
        guard let first = words.first else { return nil }
        let matches = commands(startingWith: first).filter { words.starts(with: $0.path) }
        guard let best = matches.max(by: { $0.path.count < $1.path.count }) else { return nil }
        return (best, Array(words.dropFirst(best.path.count)))
    }

    /// The socket: `--socket`, `$USEFULMAP_SOCKET`, else the daemon's default.
    static func socketPath(_ option: String?, environment: [String: String]) -> String {
        if let option { return option }
        if let path = environment[DefaultSocketPath.environmentVariable], !path.isEmpty { return path }
        return DefaultSocketPath.resolve(environment: environment)
    }

    /// Connects and says `hello`, so a version mismatch is a clear error before anything else
    /// is answered (it goes with the first request: `WireClient.hello(_:)`).
    static func connect(socket: String?, environment: [String: String]) throws -> WireClient {
        let client = try WireClient(socketPath: socketPath(socket, environment: environment))
        try client.hello(Params.Hello(client: "umctl \(ProtocolVersion.softwareVersion)"))
        return client
    }

    /// Prints text for a person; see `TerminalText`.
    static func show(_ text: String) {
        print(TerminalText.safe(text, keepingNewlines: true))
    }

    static func fail(_ message: String) {
        StandardStream.writeError(Data((TerminalText.safe(message, keepingNewlines: true) + "\n").utf8))
    }

    // MARK: - Help

    static var overview: String {
        var lines = ["umctl: talk to usefulmapd, the Useful Map daemon.", "", "commands:"]
        for type in commands {
            let name = type.spec.path.joined(separator: " ")
            lines.append("  \(FixedWidth.cell(name, width: 18)) \(type.spec.abstract)")
        }
        lines.append("  \(FixedWidth.cell("batch", width: 18)) \(batchSpec.abstract)")
        lines.append("  \(FixedWidth.cell("web", width: 18)) \(WebCommand.spec.abstract)")
        lines += ["", "Every command takes --json (JSON for scripts) and --socket PATH.",
                  "Nodes and segments are numbered from 1, as `umctl plan show` prints them.",
                  "`umctl help COMMAND...` shows a command's arguments.", "", exitCodeHelp]
        return lines.joined(separator: "\n")
    }

    static func help(_ path: [String], unknownIsError: Bool = false) -> Int32 {
        if path.isEmpty {
            print(overview)
            return ExitCode.success.rawValue
        }
        if path == ["batch"] || path == ["web"] {
            print(path == ["web"] ? WebCommand.spec.help : batchSpec.help)
            return ExitCode.success.rawValue
        }
        if let type = commands.first(where: { $0.path == path }) {
            print(type.spec.help + "\n\n" + exitCodeHelp)
            return ExitCode.success.rawValue
        }
        let group = commands.filter { $0.path.starts(with: path) && !path.isEmpty }
        if !group.isEmpty && !unknownIsError {
            print("umctl \(path.joined(separator: " ")) subcommands:")
            for type in group { print("  \(type.spec.usage)\n      \(type.spec.abstract)") }
            return ExitCode.success.rawValue
        }
        if !group.isEmpty {
            fail("umctl: `\(path.joined(separator: " "))` needs a subcommand:")
            for type in group { fail("  \(type.spec.usage)") }
            return ExitCode.usage.rawValue
        }
        fail("umctl: unknown command \"\(path.joined(separator: " "))\"\(didYouMean(path)); run `umctl help`")
        return ExitCode.usage.rawValue
    }

    /// Every command's path, `batch` included, in the order of `umctl help`: each command's
    /// `path` constant, so that no spec (help text included) is built to suggest one.
    static var allPaths: [[String]] { commands.map { $0.path } + [batchSpec.path, WebCommand.spec.path] }

    /// `; did you mean `umctl plan show`?` for a typo of a command, else "".
    static func didYouMean(_ words: [String]) -> String {
        guard let path = CommandSuggestion.nearest(to: words, among: allPaths) else { return "" }
        return "; did you mean `umctl \(path.joined(separator: " "))`?"
    }
}
