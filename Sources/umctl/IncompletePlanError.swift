import FoundationEssentials
import WireProtocol

/// A plan was computed and stored, but a segment has no route: the command fails with exit
/// code 4 naming that segment (and the routing error that left it empty, in words: its wire
/// word is in `--json`'s `data.reason`).
struct IncompletePlanError: Error, CustomStringConvertible {
    var planID: Int64?
    /// From 1, as `plan show` prints it.
    var segment: Int
    var mode: String
    /// The segment's `error` object, when the daemon said why.
    var reason: JSONValue?

    let code = "incomplete_plan"

    var description: String {
        let why = reason?["message"]?.stringValue.map { ": \($0)" } ?? ""
        let plan = planID.map { "plan \($0) was stored, but " } ?? ""
        return "\(plan)segment \(segment) (\(mode)) has no route\(why)"
    }

    var data: [String: JSONValue] {
        ["plan_id": planID.map { .number(Double($0)) } ?? .null, "segment": .number(Double(segment)),
         "mode": .string(mode), "reason": reason ?? .null]
    }
}
