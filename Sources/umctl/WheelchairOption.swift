import WireProtocol

/// `--wheelchair` and `--wheelchair=strict`, on `compare`, `plan new` and `plan preset`.
enum WheelchairOption {
    static let option = CommandSpec.Option(
        name: "--wheelchair", valueName: nil,
        help: "step-free: wheelchair street routes, accessible trips and stops (unknown ones allowed and marked; =strict refuses them)",
        inlineValue: "strict")

    /// The access level asked for; nil without the option (the daemon's default, or the plan's own).
    static func level(_ arguments: ParsedArguments) -> AccessLevel? {
        guard arguments.flag(option.name) else { return nil }
        return arguments.optional(option.name) == "strict" ? .wheelchairStrict : .wheelchair
    }

    /// The word `umctl plan access` takes for `level`: the wire's word, hyphenated as command-line
    /// words are (`wheelchair-strict`).
    static func word(_ level: AccessLevel) -> String {
        // Byte by byte: `replacing` on a String costs ~100,000 instructions at start-up, and every
        // umctl process builds this command's help while it looks for its own command.
        String(decoding: level.rawValue.utf8.map { $0 == UInt8(ascii: "_") ? UInt8(ascii: "-") : $0 }, as: UTF8.self)
    }

    /// The level a word of `umctl plan access` names, in its own spelling or the wire's (the
    /// `wheelchair_strict` that `plan show --json` prints); nil for any other word.
    static func level(word: String) -> AccessLevel? {
        AccessLevel(rawValue: word) ?? AccessLevel.allCases.first { self.word($0) == word }
    }

    /// Every level's word and what it asks for, for `plan access`'s help and errors.
    static var levelsHelp: String {
        AccessLevel.allCases.map { level in
            let meaning = switch level {
            case .any: "no step-free need"
            case .wheelchair: "step-free, unknown accessibility allowed and marked"
            case .wheelchairStrict: "only what the feed says is accessible"
            }
            return "\(word(level)) (\(meaning))"
        }.joined(separator: ", ")
    }

    /// How `plan show` and `compare` say what a leg is: "step-free", "accessibility unknown", "not accessible".
    static func label(_ accessibility: String?) -> String? {
        switch accessibility {
        case "step_free": "step-free"
        case "unknown": "accessibility unknown"
        case "no": "not accessible"
        default: nil
        }
    }
}
