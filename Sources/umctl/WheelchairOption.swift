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

    /// The words `umctl plan access` takes, as the wire spells them.
    static let words: [(word: String, level: AccessLevel)] = [("any", .any), ("wheelchair", .wheelchair),
                                                              ("wheelchair-strict", .wheelchairStrict)]

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
