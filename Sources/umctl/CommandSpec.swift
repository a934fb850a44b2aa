import FoundationEssentials

/// What a subcommand accepts, declared once: help, usage and parsing all come from it, so
/// `umctl help plan pin` can never drift from the code.
struct CommandSpec: Sendable {
    struct Positional: Sendable {
        var name: String
        var help: String
        var optional = false
        /// Takes every remaining word (search text).
        var variadic = false
    }

    struct Option: Sendable {
        var name: String
        /// nil for a flag that takes no value.
        var valueName: String?
        var help: String
        var repeatable = false
        /// A flag that may also carry this value inline (`--wheelchair=strict`), never as a next word.
        var inlineValue: String? = nil

        /// How usage lines, help and the man page show it: "--at TIME", "--wheelchair[=strict]".
        var word: String {
            if let valueName { return "\(name) \(valueName)" }
            return name + (inlineValue.map { "[=\($0)]" } ?? "")
        }
    }

    var path: [String]
    var abstract: String
    var positionals: [Positional] = []
    var options: [Option] = []
    var discussion: String?

    /// Options every command takes.
    static let shared: [Option] = [
        Option(name: "--json", valueName: nil, help: "print the daemon's JSON result (one line) instead of a table"),
        Option(name: "--socket", valueName: "PATH", help: "the daemon's socket (default $USEFULMAP_SOCKET, else $XDG_RUNTIME_DIR/usefulmap/usefulmapd.sock)"),
        Option(name: "--help", valueName: nil, help: "show this help"),
    ]

    var usage: String {
        var parts = ["umctl"] + path
        for positional in positionals {
            let word = positional.variadic ? "\(positional.name)..." : positional.name
            parts.append(positional.optional ? "[\(word)]" : word)
        }
        for option in options {
            parts.append("[\(option.word)]\(option.repeatable ? "..." : "")")
        }
        return parts.joined(separator: " ")
    }

    var help: String {
        var lines = ["\(abstract)", "", "usage: \(usage)"]
        if let discussion { lines += ["", discussion] }
        if !positionals.isEmpty {
            lines += ["", "arguments:"]
            for positional in positionals {
                lines.append("  \(FixedWidth.cell(positional.name, width: 22)) \(positional.help)")
            }
        }
        lines += ["", "options:"]
        for option in options + Self.shared {
            lines.append("  \(FixedWidth.cell(option.word, width: 22)) \(option.help)")
        }
        return lines.joined(separator: "\n")
    }

    /// Splits `words` (after the command path) into positionals and options.
    /// - throws: `UsageError` naming the unknown option, the missing value or argument.
    func parse(_ words: [String]) throws -> ParsedArguments {
        var parsed = ParsedArguments()
        var remaining: [String] = []
        var index = 0
        let all = options + Self.shared
        var onlyPositionals = false
        while index < words.count {
            let word = words[index]
            index += 1
            // A declared short option ("-o") is an option; any other single-dash word is an argument.
            if onlyPositionals || !(word.hasPrefix("--") || all.contains(where: { $0.name == word })) || word == "-" {
                remaining.append(word)
                continue
            }
            if word == "--" {
                onlyPositionals = true
                continue
            }
            var name = word
            var inlineValue: String?
            if let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                inlineValue = String(word[word.index(after: equals)...])
            }
            guard let option = all.first(where: { $0.name == name }) else {
                let near = CommandSuggestion.nearest(to: [name], among: all.map { [$0.name] }).map { "; did you mean \($0[0])?" } ?? ""
                throw UsageError("unknown option \(name) for `umctl \(path.joined(separator: " "))`\(near)\n\(usageLine)")
            }
            if option.valueName == nil {
                if let inlineValue {
                    guard let allowed = option.inlineValue else { throw UsageError("\(name) takes no value") }
                    guard inlineValue == allowed else {
                        throw UsageError("\(name)=\(inlineValue) is not known; use \(name) or \(name)=\(allowed)")
                    }
                    parsed.addOption(name, inlineValue)
                }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < words.count else { throw UsageError("\(name) needs a value (\(option.valueName ?? "VALUE"))") }
                value = words[index]
                index += 1
            }
            if !option.repeatable, parsed.hasOption(name) {
                throw UsageError("\(name) given twice")
            }
            parsed.addOption(name, value)
        }
        if parsed.flags.contains("--help") { return parsed }
        for positional in positionals {
            if positional.variadic {
                if remaining.isEmpty && !positional.optional { throw UsageError("missing \(positional.name)\n\(usageLine)") }
                if !remaining.isEmpty {
                    parsed.positionals[positional.name] = remaining.joined(separator: " ")
                    parsed.setWords(remaining, of: positional.name)
                }
                remaining = []
            } else if remaining.isEmpty {
                if !positional.optional { throw UsageError("missing \(positional.name)\n\(usageLine)") }
            } else {
                parsed.positionals[positional.name] = remaining.removeFirst()
            }
        }
        if !remaining.isEmpty {
            throw UsageError("unexpected argument \"\(remaining[0])\"\n\(usageLine)")
        }
        return parsed
    }

    var usageLine: String { "usage: \(usage)" }
}

/// The words of one command line, by the names its spec declares.
struct ParsedArguments: Sendable {
    var positionals: [String: String] = [:]
    /// The variadic positional's name and its words one by one (`positionals` joins them with
    /// spaces); a command has at most one. Not a `[String: [String]]`: see `optionNames`.
    private var listName: String?
    private var listWords: [String] = []
    /// The options given, name and value alike, in the order given: two arrays of strings,
    /// where a `[String: [String]]` made the runtime build its dictionary type in every
    /// umctl given `--socket` (3 % of a whole `umctl status`).
    private var optionNames: [String] = []
    private var optionValues: [String] = []
    var flags: Set<String> = []

    /// The words of the variadic positional `name`, one by one; empty when none were given.
    func words(_ name: String) -> [String] { listName == name ? listWords : [] }

    mutating func setWords(_ words: [String], of name: String) {
        listName = name
        listWords = words
    }

    mutating func addOption(_ name: String, _ value: String) {
        optionNames.append(name)
        optionValues.append(value)
    }

    func hasOption(_ name: String) -> Bool { optionNames.contains(name) }

    func string(_ name: String) throws -> String {
        guard let value = optional(name) else { throw UsageError("missing \(name)") }
        return value
    }

    /// The positional, else the option's last value.
    func optional(_ name: String) -> String? {
        if let positional = positionals[name] { return positional }
        return optionNames.lastIndex(of: name).map { optionValues[$0] }
    }

    /// Every value of a repeatable option, in the order given.
    func all(_ name: String) -> [String] { optionNames.indices.filter { optionNames[$0] == name }.map { optionValues[$0] } }

    func flag(_ name: String) -> Bool { flags.contains(name) }

    func int(_ name: String) throws -> Int {
        let text = try string(name)
        guard let value = Int(text) else { throw UsageError("\(name) must be a whole number, got \"\(text)\"") }
        return value
    }

    func optionalInt(_ name: String) throws -> Int? {
        guard let text = optional(name) else { return nil }
        guard let value = Int(text) else { throw UsageError("\(name) must be a whole number, got \"\(text)\"") }
        return value
    }

    /// A plan ID: a positive integer.
    func planID(_ name: String = "ID") throws -> Int64 {
        let text = try string(name)
        guard let value = Int64(text), value >= 1 else { throw UsageError("\(name) must be a plan ID (a positive whole number), got \"\(text)\"") }
        return value
    }

    /// A node or segment number as a person counts: 1 or more.
    func number(_ name: String) throws -> Int {
        let value = try int(name)
        guard value >= 1 else { throw UsageError("\(name) counts from 1, got \(value)") }
        return value
    }
}

/// Bad command-line input; exit code 2.
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
