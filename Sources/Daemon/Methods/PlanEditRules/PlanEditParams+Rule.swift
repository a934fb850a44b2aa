import WireProtocol

/// What an edit method's params give their rule (`Params.PlanMode+Rule` …, one file each): the
/// method, naming the edit in errors, and the plan it names.
extension PlanEditRule where Self: PlanEditParams {
    var name: String { Self.method.rawValue }
    var planID: Int64 { id }
}
