/// Whether a leg can be travelled step-free (in a wheelchair), as far as the data says.
public enum LegAccessibility: String, Sendable, Codable, CaseIterable {
    /// Walked on the wheelchair street profile, or a ride on a trip and at stops the feed marks accessible.
    case stepFree = "step_free"
    /// The data does not say (a walk routed for walkers, a trip or stop with 0 or no value).
    case unknown
    /// The feed says a trip or a stop of the ride is not accessible.
    case no
}

extension LegAccessibility {
    /// The least accessible of `values` (no, then unknown, then step-free), ignoring nils (legs
    /// that say nothing, car and bike); nil when none says anything.
    public static func least(of values: [LegAccessibility?]) -> LegAccessibility? {
        let known = values.compactMap { $0 }
        guard !known.isEmpty else { return nil }
        if known.contains(.no) { return .no }
        return known.allSatisfy { $0 == .stepFree } ? .stepFree : .unknown
    }
}
