/// The params of one plan edit method (`plan.mode`, `plan.insert` …): its own method, the plan
/// it names and the generation it expects. Each type is one edit: sent alone as its method
/// (`endpoint`), or as one of `plan.edits`' edits (`PlanEdit`), and the daemon runs it through
/// its one rule. `PlanEdit.kinds` lists them all; docs/architecture.md says how to add one.
public protocol PlanEditParams: Hashable, Sendable, Codable {
    /// The edit's own method.
    static var method: WireMethod { get }
    /// The plan the edit names (in `plan.edits`, the list's `id` when the edit gives none).
    var id: Int64 { get }
    /// The edit fails with `conflict` (changing nothing) unless the plan is at this generation.
    var expectedGeneration: Int64? { get }
}

extension PlanEditParams {
    /// The edit as its own method, answered with the plan.
    public static var endpoint: Endpoint<Self, PlanDocument> { Endpoint(method) }
}
