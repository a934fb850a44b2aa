import FoundationEssentials
import WireProtocol

extension CommandLineTool {
    /// One line of a batch, parsed and checked before anything is sent.
    struct BatchLine {
        var number: Int
        var words: [String]
        var command: any UmctlCommand
    }

    /// `umctl batch [FILE|-] [--keep-going] [--atomic [--dry-run] [--expect-generation G]] [--json]`.
    static func runBatch(_ words: [String], environment: [String: String]) async -> Int32 {
        let json = words.contains("--json")
        let arguments: ParsedArguments
        do {
            arguments = try batchSpec.parse(words)
        } catch {
            return failed(error, json: json)
        }
        if arguments.flag("--help") {
            print(batchSpec.help)
            return ExitCode.success.rawValue
        }
        let source = arguments.optional("FILE") ?? "-"
        let text: String
        if source == "-" {
            text = String(decoding: StandardStream.readInput(), as: UTF8.self)
        } else {
            if let problem = ReadableFile.problem(source, shownAs: source) { return failed(UsageError(problem), json: json) }
            guard let contents = try? String(contentsOfFile: source, encoding: .utf8) else {
                return failed(UsageError("cannot read \(source): it is not UTF-8 text"), json: json)
            }
            text = contents
        }
        let atomic = arguments.flag("--atomic")
        let lines: [BatchLine]
        let edits: Params.PlanEdits?
        do {
            // Every line is read and checked first: a mistake anywhere means nothing is sent.
            lines = try parseBatch(text)
            edits = atomic ? try atomicEdits(lines, dryRun: arguments.flag("--dry-run"),
                                             expectedGeneration: try arguments.expectedGeneration()) : nil
            if !atomic, arguments.flag("--dry-run") || arguments.optional("--expect-generation") != nil {
                throw UsageError("--dry-run and --expect-generation need --atomic")
            }
        } catch {
            return failed(error, json: json)
        }
        let client: WireClient
        do {
            client = try connect(socket: arguments.optional("--socket"), environment: environment)
        } catch {
            return failed(error, json: json)
        }
        if let edits {
            return await performAtomic(AtomicEditsCommand(edits: edits), lines: lines.map(\.number), client: client, json: json)
        }

        var last: String?
        var worst = ExitCode.success
        for line in lines {
            let outcome = await runBatchLine(line, client: client, json: json, last: &last)
            guard outcome != .success else { continue }
            if worst == .success || outcome == .connection { worst = outcome }
            if outcome == .connection || !arguments.flag("--keep-going") { break }
        }
        return worst.rawValue
    }

    /// Reads every line into a checked command. `$LAST` stands for a plan ID while checking.
    /// - throws: `UsageError` naming the first line that is wrong.
    static func parseBatch(_ text: String) throws -> [BatchLine] {
        var lines: [BatchLine] = []
        var madePlan = false
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            let line = rawLine.trimmingBlanks()
            if line.isEmpty || line.hasPrefix("#") { continue }
            do {
                var words = try tokenize(line)
                if words.first == "umctl" { words.removeFirst() }
                words.removeAll { $0 == "--json" }
                if words.contains("$LAST") && !madePlan { throw UsageError("$LAST is used before any `plan new`") }
                let command = try command(words.map { $0 == "$LAST" ? "1" : $0 })
                if command is PlanNewCommand { madePlan = true }
                lines.append(BatchLine(number: number, words: words, command: command))
            } catch {
                throw UsageError("line \(number): \(describe(error).message)")
            }
        }
        return lines
    }

    /// A batch line's command, read and checked.
    static func command(_ words: [String]) throws -> any UmctlCommand {
        guard let (type, rest) = find(words), type != WatchCommand.self else {
            throw UsageError("not a command that batch can run: \(words.prefix(2).joined(separator: " "))\(didYouMean(words))")
        }
        let command = try type.init(try type.spec.parse(rest))
        try command.validate()
        return command
    }

    /// `--atomic`: every line must be an edit of the same plan; they become one `plan.edits`.
    static func atomicEdits(_ lines: [BatchLine], dryRun: Bool, expectedGeneration: Int64?) throws -> Params.PlanEdits {
        var edits: [PlanEdit] = []
        for line in lines {
            guard let command = line.command as? any PlanEditCommand, !line.words.contains("$LAST") else {
                throw UsageError("line \(line.number): --atomic takes only edits of one plan (plan insert, plan mode, plan stay, …)")
            }
            if line.words.contains("--expect-generation") {
                throw UsageError("line \(line.number): with --atomic give --expect-generation once, to batch")
            }
            if let first = edits.first, first.planID != command.edit.planID {
                throw UsageError("line \(line.number): edits plan \(command.edit.planID), but the batch edits plan \(first.planID)")
            }
            edits.append(command.edit)
        }
        guard let first = edits.first else { throw UsageError("the batch has no edits") }
        return Params.PlanEdits(id: first.planID, edits: edits, dryRun: dryRun ? true : nil, expectedGeneration: expectedGeneration)
    }

    /// `--atomic`: the one `plan.edits` request. The daemon names a failed edit by its number
    /// (`data.edit`); the error names the file's line that edit came from instead.
    static func performAtomic(_ command: AtomicEditsCommand, lines: [Int], client: WireClient, json: Bool) async -> Int32 {
        do {
            try await runAndShow(command, client: client, json: json)
            return ExitCode.success.rawValue
        } catch var error as WireError {
            guard case .object(var fields)? = error.data, let number = fields["edit"]?.numberValue.map(Int.init),
                  lines.indices.contains(number - 1) else { return failed(error, json: json) }
            let line = lines[number - 1]
            let method = fields["method"]?.stringValue.map { " (\($0))" } ?? ""
            error.message = error.message.replacing("edit \(number)\(method): ", with: "")
            fields["line"] = .number(Double(line))
            error.data = .object(fields)
            report(error, line: line, json: json)
            return ExitCode(for: error).rawValue
        } catch {
            return failed(error, json: json)
        }
    }

    /// One line of a batch; prints its result or its error naming the line.
    static func runBatchLine(_ line: BatchLine, client: WireClient, json: Bool, last: inout String?) async -> ExitCode {
        do {
            var command = line.command
            if line.words.contains("$LAST"), let last {
                command = try self.command(line.words.map { $0 == "$LAST" ? last : $0 })
            }
            let (result, text) = try await command.run(on: client, json: json)
            if command is PlanNewCommand, let id = result["id"]?.numberValue { last = String(Int64(id)) }
            if let text {
                show(text)
            } else {
                StandardStream.writeOutput(try WireCodec.line(for: JSONValue.object(["line": .number(Double(line.number)), "result": result])))
            }
            try checkComplete(command, result)
            return .success
        } catch {
            report(error, line: line.number, json: json)
            return ExitCode(for: error)
        }
    }

    /// Splits a line into words: whitespace separates, "..." and '...' quote, \ escapes in "...".
    static func tokenize(_ line: String) throws -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\" && open == "\"" {
                    escaped = true
                } else {
                    current.append(character)
                }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character == " " || character == "\t" {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if quote != nil { throw UsageError("unterminated quote") }
        if inWord { words.append(current) }
        return words
    }
}

/// `umctl batch --atomic`: the batch's edits as one `plan.edits` request.
struct AtomicEditsCommand: PlanAnswering {
    static let path = ["batch"]
    static let spec = CommandSpec(path: path, abstract: "")
    var edits: Params.PlanEdits
    init(edits: Params.PlanEdits) { self.edits = edits }
    init(_ arguments: ParsedArguments) throws { throw UsageError("use umctl batch FILE --atomic") }
    func request() throws -> CommandRequest<PlanDocument> { try CommandRequest(Endpoints.planEdits, edits) }
    func explained(_ error: WireError) -> WireError {
        StaleGenerationAdvice.explained(error, plan: edits.id, expectedGeneration: edits.expectedGeneration)
    }
}
