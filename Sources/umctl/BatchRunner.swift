import Foundation
import WireProtocol

extension CommandLineTool {
    /// `umctl batch [FILE|-] [--keep-going] [--json]`.
    static func runBatch(_ words: [String], environment: [String: String]) -> Int32 {
        let arguments: ParsedArguments
        do {
            arguments = try batchSpec.parse(words)
        } catch {
            fail("umctl: \(error)")
            return ExitCode.usage.rawValue
        }
        if arguments.flag("--help") {
            print(batchSpec.help)
            return ExitCode.success.rawValue
        }
        let source = arguments.optional("FILE") ?? "-"
        let text: String
        if source == "-" {
            text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        } else {
            guard let contents = try? String(contentsOfFile: source, encoding: .utf8) else {
                fail("umctl: cannot read \(source)")
                return ExitCode.usage.rawValue
            }
            text = contents
        }
        let json = arguments.flag("--json")
        let keepGoing = arguments.flag("--keep-going")
        let client: WireClient
        do {
            client = try connect(socket: arguments.optional("--socket"), environment: environment)
        } catch {
            return failed(error)
        }

        var last: String?
        var worst = ExitCode.success
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = offset + 1
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let outcome = runBatchLine(line, number: lineNumber, client: client, json: json, last: &last)
            guard outcome != .success else { continue }
            if worst == .success || outcome == .connection { worst = outcome }
            if outcome == .connection || !keepGoing { break }
        }
        return worst.rawValue
    }

    /// One line of a batch; prints its result or its error naming the line.
    static func runBatchLine(_ line: String, number: Int, client: WireClient, json: Bool, last: inout String?) -> ExitCode {
        func report(_ code: String, _ message: String) {
            if json, let line = try? WireCodec.line(for: JSONValue.object([
                "line": .number(Double(number)), "error": .object(["code": .string(code), "message": .string(message)])])) {
                FileHandle.standardOutput.write(line)
            }
            fail("umctl: line \(number): \(message)\(code.isEmpty ? "" : " [\(code)]")")
        }
        do {
            var words = try tokenize(line)
            if words.first == "umctl" { words.removeFirst() }
            if words.contains("$LAST") {
                guard let last else { throw UsageError("$LAST is used before any `plan new`") }
                words = words.map { $0 == "$LAST" ? last : $0 }
            }
            guard let (type, rest) = find(words), type != WatchCommand.self else {
                throw UsageError("not a command that batch can run: \(words.prefix(2).joined(separator: " "))")
            }
            let arguments = try type.spec.parse(rest.filter { $0 != "--json" })
            let command = try type.init(arguments)
            try command.validate()
            let (result, text) = try command.run(on: client, json: json)
            if type == PlanNewCommand.self, let id = result["id"]?.numberValue { last = String(Int64(id)) }
            if let text {
                show(text)
            } else {
                FileHandle.standardOutput.write(try WireCodec.line(for: JSONValue.object(["line": .number(Double(number)), "result": result])))
            }
            return .success
        } catch {
            let (word, message) = describe(error)
            report(word, message)
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
